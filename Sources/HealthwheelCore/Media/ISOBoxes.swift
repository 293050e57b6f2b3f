/// The boxes of an ISO base media file (MP4, QuickTime, HEIF): each a 32-bit size (1: a 64-bit size follows;
/// 0: to the end), a four-letter type, then its payload. Walking never trusts a size that runs past its parent.
enum ISOBoxes {
    struct Box {
        var type: String
        var payload: Range<Int>
    }

    /// The boxes directly inside `range`, in order; a box that overruns it ends the list.
    static func children(of range: Range<Int>, in bytes: [UInt8]) -> [Box] {
        var boxes: [Box] = []
        var position = range.lowerBound
        while range.upperBound - position >= 8 {
            var size = readBigEndian(bytes, position, 4)
            var header = 8
            if size == 1 {
                guard range.upperBound - position >= 16 else { break }
                size = readBigEndian(bytes, position + 8, 8)
                header = 16
            } else if size == 0 {
                size = range.upperBound - position
            }
            guard size >= header, size <= range.upperBound - position else { break }
            boxes.append(Box(type: String(decoding: bytes[position + 4..<position + 8], as: UTF8.self), payload: position + header..<position + size))
            position += size
        }
        return boxes
    }
}

/// Reads big-endian fields one after another inside a range; nil once a field would run past it.
struct ISOReader {
    let bytes: [UInt8]
    var position: Int
    let end: Int

    init(bytes: [UInt8], range: Range<Int>) {
        self.bytes = bytes
        position = range.lowerBound
        end = range.upperBound
    }

    /// A field of `count` bytes (0 reads as 0; at most 8).
    mutating func read(_ count: Int) -> Int? {
        guard count <= 8, end - position >= count else { return nil }
        defer { position += count }
        return count == 0 ? 0 : readBigEndian(bytes, position, count)
    }

    mutating func skip(_ count: Int) -> Bool {
        guard end - position >= count else { return false }
        position += count
        return true
    }
}
