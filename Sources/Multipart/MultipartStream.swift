import Foundation
import NIOCore

/// Why a `multipart/form-data` body was refused while it was read.
public enum MultipartRefusal: Error, Equatable, Sendable {
    /// A part's header name holds a byte that is not a token character (RFC 9110 §5.1): a byte above 0x7F, a
    /// control, a separator.
    case badHeaderName
    /// The body does not follow its boundary: a delimiter line with more than padding after it, a header line
    /// without its colon or CRLF, a part's headers over `maximumHeaderBytes`.
    case malformed(String)
}

/// What a body held, in the order it came: a part's header, a piece of a part's body, the end of a part.
public enum MultipartEvent: Equatable, Sendable {
    /// A header of the current part: its name lower-cased, its value as sent (white space around it trimmed).
    case header(String, String)
    case body([UInt8])
    case partEnd
}

/// A `multipart/form-data` body (RFC 7578, RFC 2046 §5.1) read buffer by buffer as it arrives, whatever the
/// buffers' sizes. Linear in the body: a part's bytes are skipped to the next CR with `memchr`, the only byte a
/// delimiter (CRLF, `--`, the boundary) starts with, since a boundary holds no CR. Memory is bounded: a part's
/// headers may take `maximumHeaderBytes`, and body bytes are handed on as they are read. Pure: no I/O.
public struct MultipartStream: Sendable {
    /// A part's header section at most (all its lines): real ones are a few hundred bytes.
    public static let maximumHeaderBytes = 16 << 10

    private enum State {
        /// Before the first delimiter (the preamble, ignored) or in a part's body, `matched` bytes into the
        /// delimiter.
        case preamble(matched: Int)
        case body(matched: Int)
        /// After a delimiter: `--` ends the body; else optional padding, then CRLF, then a part's headers.
        case delimiterLine(dashes: Int, sawCR: Bool)
        /// In a part's headers (the line read so far is `headerLine`, kept apart so that appending to it never
        /// copies it).
        case headers(sawCR: Bool)
        /// After the closing delimiter: the epilogue, ignored.
        case epilogue
    }

    /// CRLF, `--`, the boundary.
    private let delimiter: [UInt8]
    /// The body starts as if after a CRLF: its first line may be the first delimiter.
    private var state = State.preamble(matched: 2)
    private var headerBytes = 0
    private var headerLine: [UInt8] = []
    private var sawPart = false

    /// Whether the closing delimiter has been read: a body that ends before it was cut off.
    public var isComplete: Bool {
        if case .epilogue = state { return true }
        return false
    }

    /// A stream for `boundary`, as `boundary(of:)` gives it (so without CR or LF).
    public init(boundary: String) {
        delimiter = Array("\r\n--\(boundary)".utf8)
    }

    /// Reads the next `buffer` of the body; what it completed, in order (a part's bytes as one `body` event per
    /// stretch).
    public mutating func feed(_ buffer: ByteBuffer) throws(MultipartRefusal) -> [MultipartEvent] {
        var events: [MultipartEvent] = []
        var failure: MultipartRefusal?
        let view = buffer.readableBytesView
        let read: Void? = view.withContiguousStorageIfAvailable { bytes in
            do throws(MultipartRefusal) { try feed(bytes, into: &events) } catch { failure = error }
        }
        if read == nil {
            try Array(view).withUnsafeBufferPointer { bytes throws(MultipartRefusal) in try feed(bytes, into: &events) }
        }
        if let failure { throw failure }
        return events
    }

    private mutating func feed(_ bytes: UnsafeBufferPointer<UInt8>, into events: inout [MultipartEvent]) throws(MultipartRefusal) {
        guard let base = bytes.baseAddress else { return }
        var body: [UInt8] = []
        func flush() {
            if !body.isEmpty { events.append(.body(body)) }
            body = []
        }
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            switch state {
            case .preamble(let matched), .body(let matched):
                let inBody: Bool
                if case .body = state { inBody = true } else { inBody = false }
                if matched == 0 {
                    // Everything up to the next CR is the part's (or the preamble's); the CR may start a delimiter.
                    let found = memchr(base + index, 0x0D, bytes.count - index)
                    let end = found.map { base.distance(to: $0.assumingMemoryBound(to: UInt8.self)) } ?? bytes.count
                    if inBody { body.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[index..<end])) }
                    if end < bytes.count { state = inBody ? .body(matched: 1) : .preamble(matched: 1) }
                    index = end + 1
                    continue
                }
                if byte == delimiter[matched] {
                    if matched + 1 == delimiter.count {
                        if inBody {
                            flush()
                            events.append(.partEnd)
                        }
                        state = .delimiterLine(dashes: 0, sawCR: false)
                    } else {
                        state = inBody ? .body(matched: matched + 1) : .preamble(matched: matched + 1)
                    }
                } else {
                    // Not the delimiter after all: what matched of it was the part's, and this byte is read again.
                    if inBody { body.append(contentsOf: delimiter[..<matched]) }
                    state = inBody ? .body(matched: 0) : .preamble(matched: 0)
                    if byte == 0x0D {
                        state = inBody ? .body(matched: 1) : .preamble(matched: 1)
                    } else if inBody {
                        body.append(byte)
                    }
                }
            case .delimiterLine(let dashes, let sawCR):
                switch (byte, dashes, sawCR) {
                case (UInt8(ascii: "-"), 0, false): state = .delimiterLine(dashes: 1, sawCR: false)
                case (UInt8(ascii: "-"), 1, false):
                    // RFC 2046: a body has at least one part.
                    guard sawPart else { throw .malformed("the body closes before its first part") }
                    state = .epilogue
                case (UInt8(ascii: " "), 0, false), (UInt8(ascii: "\t"), 0, false): break  // transport padding
                case (0x0D, 0, false): state = .delimiterLine(dashes: 0, sawCR: true)
                case (0x0A, 0, true):
                    headerBytes = 0
                    headerLine = []
                    sawPart = true
                    state = .headers(sawCR: false)
                default: throw .malformed("a delimiter line holds more than the boundary")
                }
            case .headers(let sawCR):
                headerBytes += 1
                guard headerBytes <= Self.maximumHeaderBytes else { throw .malformed("a part's headers are over \(Self.maximumHeaderBytes) bytes") }
                if sawCR {
                    guard byte == 0x0A else { throw .malformed("a header line's CR is not followed by LF") }
                    if headerLine.isEmpty {
                        state = .body(matched: 0)
                    } else {
                        events.append(try Self.header(headerLine))
                        headerLine = []
                        state = .headers(sawCR: false)
                    }
                } else if byte == 0x0D {
                    state = .headers(sawCR: true)
                } else {
                    headerLine.append(byte)
                }
            case .epilogue:
                index = bytes.count
                continue
            }
            index += 1
        }
        flush()
    }

    /// `name: value`, the name a token (RFC 9110 §5.1), lower-cased.
    private static func header(_ line: [UInt8]) throws(MultipartRefusal) -> MultipartEvent {
        guard let colon = line.firstIndex(of: UInt8(ascii: ":")), colon > 0 else { throw .malformed("a header line has no name and colon") }
        guard line[..<colon].allSatisfy(isTokenCharacter) else { throw .badHeaderName }
        let name = String(decoding: line[..<colon], as: UTF8.self).lowercased()
        let value = String(decoding: line[(colon + 1)...], as: UTF8.self).trimmingCharacters(in: CharacterSet(charactersIn: " \t"))
        return .header(name, value)
    }

    private static func isTokenCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): true
        default: tokenSymbols.contains(byte)
        }
    }

    private static let tokenSymbols = Set("!#$%&'*+-.^_`|~".utf8)
    /// RFC 2046's `bchars`.
    private static let boundaryCharacters = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'()+_,-./:=? ".utf8)

    /// The boundary parameter of a `multipart/form-data` type, or nil for any other type or a boundary that breaks
    /// RFC 2046's rule (1–70 of `bchars`: letters, digits and `'()+_,-./:=?` and space, not ending in a space).
    public static func boundary(of contentType: String?) -> String? {
        guard let contentType else { return nil }
        let parts = contentType.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
        guard parts.first?.lowercased() == "multipart/form-data" else { return nil }
        for parameter in parts.dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1).map(String.init)
            guard pair.count == 2, pair[0].lowercased() == "boundary" else { continue }
            var value = pair[1]
            if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") { value = String(value.dropFirst().dropLast()) }
            guard (1...70).contains(value.utf8.count), value.utf8.allSatisfy(boundaryCharacters.contains), !value.hasSuffix(" ") else { return nil }
            return value
        }
        return nil
    }

    /// A parameter of a `Content-Disposition` value (`name="file"`), unquoted.
    public static func parameter(_ key: String, in value: String) -> String? {
        for item in value.split(separator: ";").dropFirst() {
            let pair = item.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard pair.count == 2, pair[0].lowercased() == key else { continue }
            return pair[1].trimmingCharacters(in: CharacterSet(charactersIn: "\""))
        }
        return nil
    }
}
