import Foundation
import NIOCore

/// Walks a `multipart/form-data` body beside MultipartKit's parser and refuses a part header whose name holds a
/// byte above 0x7F before the parser sees it: MultipartKit 4.7.1 looks such a byte up in a 128-entry table and
/// traps, which would take the whole server down with one request. Header names are ASCII tokens (RFC 9110
/// §5.1), so nothing valid is refused. Linear in the body; a file part's bytes are skipped with `memchr`.
struct MultipartHeaderCheck {
    private enum State {
        /// In a part's body (or the preamble), `matched` bytes into the delimiter.
        case body(matched: Int)
        /// Just after a delimiter: the rest of its line, or `--` for the last one.
        case delimiterLine(dashes: Int)
        /// In a part's headers.
        case headers(lineStart: Bool, inName: Bool)
        /// The CR of the empty line that ends the headers was read.
        case headersEnd
        /// After the closing delimiter: nothing more is parsed.
        case epilogue
    }

    /// CRLF, `--`, the boundary.
    private let delimiter: [UInt8]
    /// The body starts as if after a CRLF: its first line may be the first delimiter.
    private var state = State.body(matched: 2)

    init(boundary: String) {
        delimiter = Array("\r\n--\(boundary)".utf8)
    }

    /// Checks the next `buffer` of the body; throws `Problem.malformed` at a header name that is not ASCII.
    mutating func check(_ buffer: ByteBuffer) throws {
        let view = buffer.readableBytesView
        if try view.withContiguousStorageIfAvailable({ try check($0) }) == nil {
            try Array(view).withUnsafeBufferPointer { try check($0) }
        }
    }

    private mutating func check(_ bytes: UnsafeBufferPointer<UInt8>) throws {
        guard let base = bytes.baseAddress else { return }
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            switch state {
            case .body(let matched):
                if matched == 0 {
                    // Skip to the next CR: the only byte a delimiter can start with.
                    guard let found = memchr(base + index, 0x0D, bytes.count - index) else { return }
                    index = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
                    state = .body(matched: 1)
                } else if byte == delimiter[matched] {
                    state = matched + 1 == delimiter.count ? .delimiterLine(dashes: 0) : .body(matched: matched + 1)
                } else {
                    state = .body(matched: byte == 0x0D ? 1 : 0)
                }
            case .delimiterLine(let dashes):
                if byte == UInt8(ascii: "-") {
                    state = dashes == 1 ? .epilogue : .delimiterLine(dashes: dashes + 1)
                } else if byte == 0x0A {
                    state = .headers(lineStart: true, inName: true)
                }
            case .headers(let lineStart, let inName):
                switch byte {
                case 0x0D where lineStart: state = .headersEnd
                case 0x0A: state = .headers(lineStart: true, inName: true)
                case UInt8(ascii: ":") where inName: state = .headers(lineStart: false, inName: false)
                case 0x80... where inName: throw Problem.malformed("a part's header name holds a byte that is not ASCII")
                default: state = .headers(lineStart: false, inName: inName)
                }
            case .headersEnd:
                state = .body(matched: 0)
            case .epilogue:
                return
            }
            index += 1
        }
    }
}
