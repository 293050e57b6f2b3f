import Foundation

/// What a `Range` header asks of a file of `length` bytes (RFC 9110 §14.1.2): one range of bytes (`bytes=a-b`,
/// `bytes=a-`, `bytes=-n`), none (absent, another unit, several ranges, or not understood: the whole file is
/// sent, as the RFC allows), or one that no byte satisfies (416).
enum ByteRange: Equatable {
    case whole
    case part(Range<Int>)
    case unsatisfiable

    init(header: String?, length: Int) {
        guard let header, header.hasPrefix("bytes=") else {
            self = .whole
            return
        }
        let spec = header.dropFirst("bytes=".count).trimmingCharacters(in: .whitespaces)
        guard !spec.contains(","), let dash = spec.firstIndex(of: "-") else {
            self = .whole
            return
        }
        let first = spec[..<dash].trimmingCharacters(in: .whitespaces)
        let last = spec[spec.index(after: dash)...].trimmingCharacters(in: .whitespaces)
        let digits = { (text: String) in !text.isEmpty && text.count <= 18 && text.allSatisfy(\.isASCII) && text.allSatisfy(\.isNumber) }
        if first.isEmpty {
            // The last n bytes.
            guard digits(last), let count = Int(last) else {
                self = .whole
                return
            }
            self = count == 0 || length == 0 ? .unsatisfiable : .part(max(0, length - count)..<length)
            return
        }
        guard digits(first), let start = Int(first), last.isEmpty || digits(last) else {
            self = .whole
            return
        }
        let end = last.isEmpty ? length - 1 : min(Int(last) ?? 0, length - 1)
        if !last.isEmpty, let stated = Int(last), stated < start {
            self = .whole  // invalid: ignored, as the RFC says
            return
        }
        self = start >= length ? .unsatisfiable : .part(start..<end + 1)
    }
}
