/// Why a frame read from a worker's socket (or the server's) was refused.
public enum WorkerFrameError: Error {
    case malformed
}

/// The frames on a worker's socket: a little-endian `UInt32` length, then the message. Both sides are this
/// binary, but each reads the other as untrusted (a worker runs tenant code or parses tenant files): every length
/// is checked against what is left, and a frame past the pool's maximum ends the worker.
public enum WorkerFrame {
    /// The length of the frame starting at `buffer[start...]` once all of it has arrived, header included; nil
    /// while it is incomplete. Throws for a length over `maximum`.
    public static func completeLength(in buffer: [UInt8], from start: Int, maximum: Int) throws(WorkerFrameError) -> Int? {
        guard buffer.count - start >= 4 else { return nil }
        let length = Int(buffer[start]) | Int(buffer[start + 1]) << 8 | Int(buffer[start + 2]) << 16 | Int(buffer[start + 3]) << 24
        guard length <= maximum else { throw .malformed }
        return buffer.count - start >= 4 + length ? 4 + length : nil
    }
}

/// Appends one frame's fields; `finished()` prefixes the length.
public struct FrameWriter {
    private var bytes: [UInt8] = [0, 0, 0, 0]

    /// Room for `capacity` bytes at once: a script's source would otherwise grow the frame several times.
    public init(capacity: Int = 64) {
        bytes.reserveCapacity(capacity)
    }

    public mutating func byte(_ value: UInt8) {
        bytes.append(value)
    }

    public mutating func integer(_ value: Int64) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    /// A presence byte, then the bits of the number.
    public mutating func number(_ value: Double?) {
        guard let value else { return byte(0) }
        byte(1)
        withUnsafeBytes(of: value.bitPattern.littleEndian) { bytes.append(contentsOf: $0) }
    }

    public mutating func string(_ value: String) {
        integer(Int64(value.utf8.count))
        bytes.append(contentsOf: value.utf8)
    }

    /// A length, then the bytes (a file, a picture); `FrameReader.blob()` reads them.
    public mutating func blob(_ value: [UInt8]) {
        integer(Int64(value.count))
        bytes.append(contentsOf: value)
    }

    public consuming func finished() -> [UInt8] {
        let length = UInt32(bytes.count - 4)
        withUnsafeBytes(of: length.littleEndian) { length in
            for index in 0..<4 { bytes[index] = length[index] }
        }
        return bytes
    }
}

/// Reads one frame's fields, refusing any length past what is left.
public struct FrameReader {
    private let bytes: ArraySlice<UInt8>
    private var position: Int

    public init(_ bytes: ArraySlice<UInt8>) {
        self.bytes = bytes
        position = bytes.startIndex
    }

    public var remaining: Int { bytes.endIndex - position }

    public mutating func byte() throws(WorkerFrameError) -> UInt8 {
        guard remaining >= 1 else { throw .malformed }
        defer { position += 1 }
        return bytes[position]
    }

    private mutating func word() throws(WorkerFrameError) -> UInt64 {
        guard remaining >= 8 else { throw .malformed }
        var value: UInt64 = 0
        for offset in 0..<8 { value |= UInt64(bytes[position + offset]) << (8 * offset) }
        position += 8
        return value
    }

    public mutating func integer() throws(WorkerFrameError) -> Int64 {
        Int64(bitPattern: try word())
    }

    public mutating func number() throws(WorkerFrameError) -> Double? {
        switch try byte() {
        case 0: return nil
        case 1: return Double(bitPattern: try word())
        default: throw .malformed
        }
    }

    /// What `FrameWriter.bytes` wrote.
    public mutating func blob() throws(WorkerFrameError) -> [UInt8] {
        let count = try integer()
        guard count >= 0, count <= remaining else { throw .malformed }
        defer { position += Int(count) }
        return Array(bytes[position..<position + Int(count)])
    }

    public mutating func string() throws(WorkerFrameError) -> String {
        let count = try integer()
        guard count >= 0, count <= remaining else { throw .malformed }
        defer { position += Int(count) }
        return String(decoding: bytes[position..<position + Int(count)], as: UTF8.self)
    }
}
