import Foundation
import HealthwheelCore
import Testing

@testable import API

/// `RecordRequest.plain` reads the usual result body exactly as `decodeStrictly` does, and leaves everything
/// else to it.
@Suite struct RecordRequestPlainTests {
    typealias RecordRequest = ResultsController.RecordRequest

    static func strict(_ body: String) -> RecordRequest? {
        try? RecordRequest.decodeStrictly(from: Data(body.utf8))
    }

    /// A random usual body: members in any order, blanks anywhere JSON allows them, numbers in every form.
    static func usualBody(_ generator: inout SystemRandomNumberGenerator) -> String {
        func blank() -> String { ["", " ", "\n", "\t ", "\r\n  "].randomElement(using: &generator)! }
        func number() -> String {
            let forms = [
                "\(Int.random(in: -500...500, using: &generator))",
                "\(Double.random(in: -1e6...1e6, using: &generator))",
                "\(Int.random(in: 1...9, using: &generator)).\(Int.random(in: 0...999, using: &generator))e\(Int.random(in: -30...30, using: &generator))",
                "-0", "0.5", "1E+2", "62",
            ]
            return forms.randomElement(using: &generator)!
        }
        func text() -> String {
            let pieces = ["Steady", " breathing ", "Zoë", "💪", "10 × 5", "", "line", "'quoted'"]
            return (0..<Int.random(in: 0...4, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
        }
        var members = [
            #""exerciseId"\#(blank()):\#(blank())"\#(["resting-heart-rate", "push-ups", ""].randomElement(using: &generator)!)""#,
            #""values":\#(blank()){\#((0..<Int.random(in: 0...3, using: &generator)).map { #"\#(blank())"field\#($0)"\#(blank()):\#(blank())\#(number())"# }.joined(separator: ","))\#(blank())}"#,
        ]
        if Bool.random(using: &generator) {
            members.append(#""observations":\#(blank())\#(Bool.random(using: &generator) ? "null" : "\"\(text())\"")"#)
        }
        if Bool.random(using: &generator) {
            let seconds = Int.random(in: 0...4_000_000_000, using: &generator)
            members.append(#""recordedAt":"\#(RFC3339.string(from: Date(timeIntervalSince1970: TimeInterval(seconds))))""#)
        }
        if Bool.random(using: &generator) { members.append(#""amendRecent":\#(Bool.random(using: &generator))"#) }
        members.shuffle(using: &generator)
        return blank() + "{" + members.map { blank() + $0 + blank() }.joined(separator: ",") + "}" + blank()
    }

    @Test func theUsualBodyReadsAsTheStrictDecoderReadsIt() throws {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            let body = Self.usualBody(&generator)
            let plain = try #require(RecordRequest.plain(Data(body.utf8)), "not read: \(body)")
            #expect(plain == Self.strict(body), "\(body)")
        }
    }

    @Test(arguments: [
        #"{"exerciseId":"a","values":{"v":1},"extra":1}"#,  // unknown member: the strict decoder names it
        #"{"exerciseId":"a","values":{"v":1},"exerciseId":"b"}"#,
        #"{"exerciseId":"a\"b","values":{"v":1}}"#,  // an escape
        #"{"exerciseId":"a","values":{"v":{"value":5,"unit":"lb"}}}"#,  // a unit
        #"{"exerciseId":"a","values":{"v":01}}"#, #"{"exerciseId":"a","values":{"v":1.}}"#, #"{"exerciseId":"a","values":{"v":1e400}}"#,
        #"{"exerciseId":"a","values":{"v":"1"}}"#, #"{"exerciseId":"a","values":{"v":1,"v":2}}"#, #"{"exerciseId":"a","values":null}"#,
        #"{"exerciseId":"a"}"#, #"{"values":{"v":1}}"#, #"{"exerciseId":"a","values":{"v":1},"recordedAt":"2026-11-22T09:30:00+1:00"}"#,
        #"{"exerciseId":"a","values":{"v":1},"recordedAt":null}"#, #"{"exerciseId":"a","values":{"v":1},"amendRecent":null}"#,
        #"{"exerciseId":"a","values":{"v":1}} x"#, #"{"exerciseId":"a","values":{"v":1},}"#, #"["exerciseId"]"#, "", "{",
        "{\"exerciseId\":\"a\u{1}\",\"values\":{}}",
    ])
    func everythingElseIsLeftToTheStrictDecoder(_ body: String) {
        #expect(RecordRequest.plain(Data(body.utf8)) == nil)
    }

    @Test func anyRFC3339TimeIsReadAsTheStrictDecoderReadsIt() throws {
        for time in ["2026-11-22T09:30:00+01:00", "2026-11-22T09:30:00.25Z", "2026-11-22t09:30:00z"] {
            let body = #"{"exerciseId":"a","values":{"v":1},"recordedAt":"\#(time)"}"#
            let plain = try #require(RecordRequest.plain(Data(body.utf8)), "\(time)")
            #expect(plain == Self.strict(body), "\(time)")
        }
    }

    @Test func invalidUTF8IsLeftToTheStrictDecoder() {
        var bytes = Array(#"{"exerciseId":"a","values":{}}"#.utf8)
        bytes[15] = 0xFF
        #expect(RecordRequest.plain(Data(bytes)) == nil)
    }
}
