import CZlib
import Foundation

/// A ZIP archive written front to back while it is sent, holding nothing but the central directory's few bytes
/// per entry: each entry's local header goes out first, its bytes as they come (stored, or deflated through
/// zlib), then a data descriptor with the CRC-32 and sizes that were unknown when the header left (general
/// purpose bit 3). Names are UTF-8 (bit 11). Past 4 GiB of archive, or 65,535 entries, the central directory
/// carries ZIP64 records; a single entry stays under 4 GiB (a media file is at most 60 MiB).
///
/// Read by any unzip, by Python's `zipfile`, by Finder and Windows Explorer. One entry at a time: `begin`, any
/// number of `write`s, `end`; then `finish` once.
public final class ZipStream {
    /// How an entry's bytes are kept: photos and videos are compressed already (stored); text shrinks (deflated).
    public enum Method: UInt16, Sendable {
        case stored = 0
        case deflated = 8
    }

    /// An entry's bytes may not reach 4 GiB: its descriptor's sizes are 32-bit.
    public struct EntryTooLarge: Error, CustomStringConvertible {
        public let name: String
        public var description: String { "\(name) reached 4 GiB, more than one ZIP entry holds here" }
    }

    private struct Entry {
        var name: [UInt8]
        var method: Method
        var time: UInt16
        var date: UInt16
        var offset: UInt64
        var crc: UInt32 = 0
        var compressed: UInt64 = 0
        var uncompressed: UInt64 = 0
    }

    private var entries: [Entry] = []
    private var current: Entry?
    private var deflater: Deflater?
    /// Bytes handed out so far: where the next header starts.
    public private(set) var offset: UInt64 = 0

    /// Offsets and counts from this on take the ZIP64 records (4 GiB less one; lower only in tests, to read
    /// those records back without writing gigabytes).
    let zip64Beyond: UInt64

    public convenience init() { self.init(zip64Beyond: 0xFFFF_FFFF) }

    init(zip64Beyond: UInt64) {
        self.zip64Beyond = zip64Beyond
    }

    /// Starts an entry: returns its local header.
    public func begin(_ name: String, method: Method, modified: Date) -> [UInt8] {
        precondition(current == nil, "end the entry before beginning another")
        let (time, date) = Self.dosTime(modified)
        let entry = Entry(name: Array(name.utf8), method: method, time: time, date: date, offset: offset)
        var header = Bytes()
        header.u32(0x0403_4b50)
        header.u16(20)  // version needed: 2.0
        header.u16(0x0808)  // sizes and CRC follow the data; UTF-8 name
        header.u16(method.rawValue)
        header.u16(time)
        header.u16(date)
        header.u32(0)  // CRC-32, compressed and uncompressed sizes: in the descriptor
        header.u32(0)
        header.u32(0)
        header.u16(UInt16(entry.name.count))
        header.u16(0)
        header.bytes += entry.name
        current = entry
        if method == .deflated { deflater = Deflater() }
        return emit(header.bytes)
    }

    /// Adds bytes to the entry: returns what to send now (the bytes themselves, or as much deflated output as
    /// zlib has ready).
    public func write(_ bytes: [UInt8]) throws -> [UInt8] {
        guard var entry = current else { preconditionFailure("begin an entry first") }
        entry.crc = bytes.withUnsafeBufferPointer { UInt32(crc32(uLong(entry.crc), $0.baseAddress, uInt($0.count))) }
        entry.uncompressed += UInt64(bytes.count)
        let out = deflater.map { $0.deflate(bytes, finish: false) } ?? bytes
        entry.compressed += UInt64(out.count)
        guard entry.uncompressed < 0xFFFF_FFFF, entry.compressed < 0xFFFF_FFFF else {
            throw EntryTooLarge(name: String(decoding: entry.name, as: UTF8.self))
        }
        current = entry
        return emit(out)
    }

    /// Ends the entry: returns the rest of its deflated bytes, if any, and its data descriptor.
    public func end() throws -> [UInt8] {
        guard var entry = current else { preconditionFailure("begin an entry first") }
        let rest = deflater?.deflate([], finish: true) ?? []
        deflater = nil
        entry.compressed += UInt64(rest.count)
        guard entry.compressed < 0xFFFF_FFFF else { throw EntryTooLarge(name: String(decoding: entry.name, as: UTF8.self)) }
        var descriptor = Bytes()
        descriptor.u32(0x0807_4b50)
        descriptor.u32(entry.crc)
        descriptor.u32(UInt32(entry.compressed))
        descriptor.u32(UInt32(entry.uncompressed))
        entries.append(entry)
        current = nil
        return emit(rest + descriptor.bytes)
    }

    /// The central directory and the end records: the archive's last bytes.
    public func finish() -> [UInt8] {
        precondition(current == nil, "end the entry before finishing")
        let start = offset
        var directory = Bytes()
        for entry in entries {
            let far = entry.offset >= zip64Beyond
            directory.u32(0x0201_4b50)
            directory.u16(far ? 45 : 20)  // made by: 4.5 (ZIP64) or 2.0, MS-DOS attributes
            directory.u16(far ? 45 : 20)
            directory.u16(0x0808)
            directory.u16(entry.method.rawValue)
            directory.u16(entry.time)
            directory.u16(entry.date)
            directory.u32(entry.crc)
            directory.u32(UInt32(entry.compressed))
            directory.u32(UInt32(entry.uncompressed))
            directory.u16(UInt16(entry.name.count))
            directory.u16(far ? 12 : 0)  // the ZIP64 extra field: its header and the 8-byte offset
            directory.u16(0)  // comment
            directory.u16(0)  // disk
            directory.u16(0)  // internal attributes
            directory.u32(0)  // external attributes
            directory.u32(far ? 0xFFFF_FFFF : UInt32(entry.offset))
            directory.bytes += entry.name
            if far {
                directory.u16(0x0001)
                directory.u16(8)
                directory.u64(entry.offset)
            }
        }
        let size = UInt64(directory.bytes.count)
        var end = Bytes()
        if entries.count >= 0xFFFF || start >= zip64Beyond || size >= zip64Beyond {
            let record = start + size
            end.u32(0x0606_4b50)  // ZIP64 end of central directory
            end.u64(44)
            end.u16(45)
            end.u16(45)
            end.u32(0)
            end.u32(0)
            end.u64(UInt64(entries.count))
            end.u64(UInt64(entries.count))
            end.u64(size)
            end.u64(start)
            end.u32(0x0706_4b50)  // its locator
            end.u32(0)
            end.u64(record)
            end.u32(1)
        }
        end.u32(0x0605_4b50)
        end.u16(0)
        end.u16(0)
        end.u16(UInt16(min(entries.count, 0xFFFF)))
        end.u16(UInt16(min(entries.count, 0xFFFF)))
        end.u32(UInt32(min(size, 0xFFFF_FFFF)))
        end.u32(UInt32(min(start, 0xFFFF_FFFF)))
        end.u16(0)
        return emit(directory.bytes + end.bytes)
    }

    private func emit(_ bytes: [UInt8]) -> [UInt8] {
        offset += UInt64(bytes.count)
        return bytes
    }

    /// MS-DOS time and date (UTC; two-second steps), clamped to the years the format holds (1980–2107).
    static func dosTime(_ date: Date) -> (time: UInt16, date: UInt16) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        let year = min(max(parts.year ?? 1980, 1980), 2107)
        let time = UInt16((parts.hour ?? 0) << 11 | (parts.minute ?? 0) << 5 | (parts.second ?? 0) / 2)
        let day = UInt16((year - 1980) << 9 | (parts.month ?? 1) << 5 | (parts.day ?? 1))
        return (time, day)
    }
}

/// Little-endian fields, as ZIP writes them.
private struct Bytes {
    var bytes: [UInt8] = []

    mutating func u16(_ value: UInt16) { bytes += [UInt8(value & 0xFF), UInt8(value >> 8)] }
    mutating func u32(_ value: UInt32) { for shift in stride(from: 0, to: 32, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> shift)) } }
    mutating func u64(_ value: UInt64) { for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> shift)) } }
}

/// Raw deflate (no zlib header, as ZIP wants it) through zlib, fed piece by piece.
private final class Deflater {
    private var stream = z_stream()

    init() {
        // Level 6 (zlib's default); -15: a raw stream with the largest window.
        let status = deflateInit2_(&stream, 6, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
        precondition(status == Z_OK, "zlib could not start a deflate stream (\(status))")
    }

    deinit { deflateEnd(&stream) }

    /// Compresses `input`; with `finish`, ends the stream. Returns what zlib wrote.
    func deflate(_ input: [UInt8], finish: Bool) -> [UInt8] {
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        var input = input
        input.withUnsafeMutableBufferPointer { pending in
            stream.next_in = pending.baseAddress
            stream.avail_in = uInt(pending.count)
            repeat {
                let written = chunk.withUnsafeMutableBufferPointer { buffer -> Int in
                    stream.next_out = buffer.baseAddress
                    stream.avail_out = uInt(buffer.count)
                    _ = CZlib.deflate(&stream, finish ? Z_FINISH : Z_NO_FLUSH)
                    return buffer.count - Int(stream.avail_out)
                }
                output += chunk[0..<written]
            } while stream.avail_out == 0 || (finish && stream.avail_in > 0)
            stream.next_in = nil
        }
        return output
    }
}
