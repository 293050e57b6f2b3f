import Foundation
import HealthwheelCore
import Store
import StoreContract
import TestSupport
import Testing

@testable import API

@Suite(.storeIndependent) struct ResponseJSONEncoderTests {
    struct Sample: Encodable {
        var text = "quote \" backslash \\ newline \n tab \t bell \u{7} é ✓"
        var count = 42
        var negative: Int64 = -7
        var ratio = 0.125
        var whole = 3.0
        var flag = true
        var missing: String?
        var present: String? = "here"
        var list = [1, 2, 3]
        var nested = ["b": 2]
        var when = Date(timeIntervalSince1970: 1_800_000_000.75)
        var id = UUID(uuidString: "5FCAC83A-EA77-428C-9296-F4F90CAB01C7")!
        var children: [Child] = [Child(name: "one"), Child(name: "two")]
        var empty: [Int] = []

        struct Child: Encodable {
            var name: String
        }
    }

    /// What Foundation makes of the same value, with the same date format.
    static func foundation(_ value: some Encodable) throws -> Any {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(RFC3339.string(from: date))
        }
        return try JSONSerialization.jsonObject(with: encoder.encode(value))
    }

    static func ours(_ value: some Encodable) throws -> Any {
        try JSONSerialization.jsonObject(with: Data(ResponseJSONEncoder().encode(value)))
    }

    @Test func encodesTheSameJSONAsFoundationButNilAsNull() throws {
        let ours = try Self.ours(Sample()) as? [String: Any]
        var foundation = try Self.foundation(Sample()) as? [String: Any]
        // Foundation leaves a nil optional out; the API's rule is to send it as `null`.
        foundation?["missing"] = NSNull()
        #expect(ours != nil && ours.map(NSDictionary.init) == foundation.map(NSDictionary.init))
    }

    struct Sparse: Encodable {
        var name = "x"
        var nickname: String?
        var age: Int?
        var child: Sample.Child?
    }

    @Test func aNilOptionalIsEncodedAsNullWithoutACustomEncoder() throws {
        let text = String(decoding: try ResponseJSONEncoder().encode(Sparse()), as: UTF8.self)
        #expect(text == #"{"name":"x","nickname":null,"age":null,"child":null}"#)
        let list = String(decoding: try ResponseJSONEncoder().encode([Sparse(nickname: "y")]), as: UTF8.self)
        #expect(list == #"[{"name":"x","nickname":"y","age":null,"child":null}]"#)
    }

    @Test func encodesDomainTypesTheSameAsFoundation() throws {
        let now = Date(timeIntervalSince1970: 1_800_000_123)
        let trainer = Trainer(companyId: UUID(), email: "a@b.example", name: "Zoë", role: .admin, createdAt: now, updatedAt: now)
        #expect(try Self.ours(trainer) as? NSDictionary == Self.foundation(trainer) as? NSDictionary)
        let list = ListBody(items: [trainer, trainer], nextCursor: "next")
        #expect(try Self.ours(list) as? NSDictionary == Self.foundation(list) as? NSDictionary)
        let last = ListBody(items: [trainer], nextCursor: nil)
        #expect(String(decoding: try ResponseJSONEncoder().encode(last), as: UTF8.self).contains(#""nextCursor":null"#))
    }

    @Test func keepsTheTypesFieldOrder() throws {
        let text = String(decoding: try ResponseJSONEncoder().encode(Sample.Child(name: "x")), as: UTF8.self)
        #expect(text == #"{"name":"x"}"#)
        let problem = Problem.invalid("email", "is not valid")
        let body = String(decoding: try ResponseJSONEncoder().encode(problem), as: UTF8.self)
        #expect(body.hasPrefix(#"{"type":"urn:healthwheel:problem:validation","title":"Invalid field","status":422"#))
    }

    @Test func escapesControlCharactersAsJSONRequires() throws {
        let text = String(decoding: try ResponseJSONEncoder().encode(["s": "a\u{1}b\"c"]), as: UTF8.self)
        #expect(text == #"{"s":"a\u0001b\"c"}"#)
    }

    @Test func refusesNumbersJSONCannotHold() {
        #expect(throws: EncodingError.self) { try ResponseJSONEncoder().encode(["x": Double.nan]) }
        #expect(throws: EncodingError.self) { try ResponseJSONEncoder().encode([Double.infinity]) }
    }
}

@Suite(.storeIndependent) struct JSONObjectBodyTests {
    @Test func theFastPathWritesWhatTheEncodableConformanceEncodes() throws {
        var client = Client(companyId: UUID(), createdAt: Date(timeIntervalSince1970: 1_800_000_000))
        client.givenName = "Zoë \"Z\""
        client.height = 1.7018
        client.birthDate = CalendarDate(year: 1985, month: 3, day: 14)
        client.sex = .female
        let record = ClientRecord(
            client: client,
            hasPhoto: true,
            screening: .init(latestCompletedAt: Date(timeIntervalSince1970: 1_790_000_000), latestCompletedFlags: ["smoker"], hasDraft: false)
        )
        for imperial in [false, true] {
            let body = ClientBody(record, now: Date(timeIntervalSince1970: 1_800_000_000), imperial: imperial)
            let fast = try JSONSerialization.jsonObject(with: Data(ResponseJSONEncoder().encode(body))) as? NSDictionary
            let viaEncodable = try ResponseJSONEncoderTests.foundation(body) as? NSDictionary
            #expect(fast != nil && fast == viaEncodable)
            #expect(fast?["age"] as? Int == 41 && fast?["flags"] as? [String] == ["smoker"])
            #expect((fast?["display"] != nil) == imperial)
        }
    }
}

@Suite(.storeIndependent) struct TrainerJSONTests {
    @Test func theFastPathWritesWhatTheEncodableConformanceEncodes() throws {
        let trainer = Trainer(
            companyId: UUID(),
            email: "ana@example.com",
            name: "Ana \"A\" Müller",
            role: .admin,
            createdAt: Date(timeIntervalSince1970: 1_800_000_000),
            updatedAt: Date(timeIntervalSince1970: 1_800_086_399)
        )
        let company = Company(name: "Gym\n", createdAt: Date(timeIntervalSince1970: 1_700_000_000))
        let me = MeController.MeBody(trainer: trainer, company: company)
        let fast = try JSONSerialization.jsonObject(with: Data(ResponseJSONEncoder().encode(me))) as? NSDictionary
        let viaCodable = try ResponseJSONEncoderTests.foundation(PlainMe(trainer: trainer, company: company)) as? NSDictionary
        #expect(fast != nil && fast == viaCodable)
        #expect((fast?["trainer"] as? NSDictionary)?["role"] as? String == "admin")
    }

    /// What `MeBody` encoded before it had a fast path: the types' own `Codable` conformances.
    struct PlainMe: Encodable {
        var trainer: Trainer
        var company: Company
    }
}

@Suite(.storeIndependent) struct ResultBodyJSONTests {
    static func result(scored: Bool) -> AssessmentResult {
        var result = AssessmentResult(
            clientId: UUID(),
            companyId: UUID(),
            exerciseOwner: "*",
            exerciseId: "push-ups",
            categoryId: "strength",
            packVersion: 3,
            trainerId: UUID(),
            values: ["reps": 21, "heartRate": 71.5],
            observations: scored ? "form \"good\"\nnext: 25" : nil,
            recordedAt: Date(timeIntervalSince1970: 1_790_000_000),
            createdAt: Date(timeIntervalSince1970: 1_800_000_000)
        )
        if scored {
            result.state.subject = Subject(sex: .female, age: 41, height: 1.7, mass: nil)
            result.state.score = 6.5
        } else {
            result.state.scoreError = "the client's sex is not known"
        }
        return result
    }

    @Test(arguments: [false, true])
    func theFastPathWritesWhatTheEncodableConformanceEncodes(scored: Bool) throws {
        let result = Self.result(scored: scored)
        let display = ["heartRate": ImperialDisplay.Value(value: 1, unit: "in", text: "1 in")]
        let revision = AssessmentResult.Revision(
            revision: 1,
            state: result.state,
            replacedAt: result.createdAt,
            replacedBy: result.trainerId,
            reason: .correction
        )
        let bodies: [any JSONObjectBody] = [
            ResultBody(result: result), ResultBody(result: result, amended: true, display: display),
            RevisionBody(revision: revision), RevisionBody(revision: revision, display: display),
        ]
        for body in bodies {
            let fast = try JSONSerialization.jsonObject(with: Data(ResponseJSONEncoder().encode(body))) as? NSDictionary
            let viaEncodable = try ResponseJSONEncoderTests.foundation(body) as? NSDictionary
            #expect(fast != nil && fast == viaEncodable)
        }
        let text = String(decoding: try ResponseJSONEncoder().encode(ResultBody(result: result)), as: UTF8.self)
        #expect(text.contains(#""values":{"heartRate":71.5,"reps":21}"#))
        if scored {
            #expect(text.contains(#""subject":{"sex":"female","age":41,"height":1.7,"mass":null},"score":6.5,"scoreError":null"#))
        } else {
            #expect(text.contains(#""observations":null,"subject":null,"score":null,"scoreError":"the client's sex is not known""#))
        }
    }
}
