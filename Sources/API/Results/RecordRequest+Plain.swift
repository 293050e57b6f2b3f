import Foundation
import HealthwheelCore

extension ResultsController.RecordRequest {
    /// The usual body, read without `JSONDecoder`, or nil for anything else (which then goes through
    /// `decodeStrictly` and gets its precise error). Usual means: `exerciseId`, `values` of plain numbers,
    /// optional `observations` (a string or null), `recordedAt` (RFC 3339) and `amendRecent`,
    /// each at most once; strings without escapes or control characters; nothing else. Recording results is the
    /// hottest request, and Foundation's decoder was a fifteenth of its CPU.
    static func plain(_ data: Data) -> Self? {
        data.withUnsafeBytes { bytes -> Self? in
            var scanner = PlainJSONScanner(bytes)
            var exerciseId: String?
            var values: [String: MeasurementInput]?
            var observations: Patch<String> = .unchanged
            var recordedAt: Patch<Date> = .unchanged
            var amendRecent: Bool?
            var seen: Set<String> = []
            let complete = scanner.object { key, scanner in
                guard seen.insert(key).inserted else { return false }
                switch key {
                case "exerciseId":
                    exerciseId = scanner.string()
                    return exerciseId != nil
                case "values":
                    var read: [String: MeasurementInput] = [:]
                    guard
                        scanner.object({ field, scanner in
                            guard read[field] == nil, let number = scanner.number() else { return false }
                            read[field] = MeasurementInput(value: number)
                            return true
                        })
                    else { return false }
                    values = read
                    return true
                case "observations":
                    if scanner.null() {
                        observations = .clear
                        return true
                    }
                    guard let text = scanner.string() else { return false }
                    observations = .set(text)
                    return true
                case "recordedAt":
                    guard let text = scanner.string(), let date = RFC3339.date(from: text) else { return false }
                    recordedAt = .set(date)
                    return true
                case "amendRecent":
                    amendRecent = scanner.bool()
                    return amendRecent != nil
                default:
                    return false
                }
            }
            guard complete, scanner.isAtEnd, let exerciseId, let values else { return nil }
            let edit = ResultEdit(values: .set(values), observations: observations, recordedAt: recordedAt)
            return Self(exerciseId: exerciseId, edit: edit, amendRecent: amendRecent ?? false)
        }
    }
}

/// Reads the plain subset of JSON that `RecordRequest.plain` accepts: every method returns nil or false, and
/// goes no further, at the first byte outside it.
private struct PlainJSONScanner {
    let bytes: UnsafeRawBufferPointer
    var index = 0

    init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    var isAtEnd: Bool {
        mutating get {
            skipBlanks()
            return index == bytes.count
        }
    }

    mutating func skipBlanks() {
        while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x0A || bytes[index] == 0x0D || bytes[index] == 0x09 {
            index += 1
        }
    }

    mutating func take(_ byte: UInt8) -> Bool {
        skipBlanks()
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    mutating func literal(_ text: StaticString) -> Bool {
        skipBlanks()
        let count = text.utf8CodeUnitCount
        guard index + count <= bytes.count else { return false }
        for offset in 0..<count where bytes[index + offset] != text.utf8Start[offset] { return false }
        index += count
        return true
    }

    mutating func null() -> Bool { literal("null") }

    mutating func bool() -> Bool? {
        if literal("true") { return true }
        if literal("false") { return false }
        return nil
    }

    /// A string with no escape and no control character, as valid UTF-8.
    mutating func string() -> String? {
        guard take(UInt8(ascii: "\"")) else { return nil }
        let start = index
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let text = String(validating: UnsafeRawBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
                index += 1
                return text
            }
            if byte == UInt8(ascii: "\\") || byte < 0x20 { return nil }
            index += 1
        }
        return nil
    }

    /// A number in JSON's grammar that is a finite `Double`.
    mutating func number() -> Double? {
        skipBlanks()
        let start = index
        func digits() -> Int {
            let first = index
            while index < bytes.count, (0x30...0x39).contains(bytes[index]) { index += 1 }
            return index - first
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
        let integerStart = index
        let integerDigits = digits()
        guard integerDigits > 0, integerDigits == 1 || bytes[integerStart] != 0x30 else { return nil }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard digits() > 0 else { return nil }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard digits() > 0 else { return nil }
        }
        let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        guard let value = Double(text), value.isFinite else { return nil }
        return value
    }

    /// An object whose members `member` reads (given each key); false as soon as one does not fit.
    mutating func object(_ member: (String, inout PlainJSONScanner) -> Bool) -> Bool {
        guard take(UInt8(ascii: "{")) else { return false }
        if take(UInt8(ascii: "}")) { return true }
        while true {
            guard let key = string(), take(UInt8(ascii: ":")), member(key, &self) else { return false }
            if take(UInt8(ascii: "}")) { return true }
            guard take(UInt8(ascii: ",")) else { return false }
        }
    }
}
