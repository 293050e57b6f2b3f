import Foundation
import HealthwheelCore
import Testing

/// Which audit lines are webhook events, and what a receiver is sent: ids and kinds, nothing else.
struct WebhookEventTests {
    static let company = UUID()
    static let client = UUID()
    static let record = UUID()
    static let at = Date(timeIntervalSince1970: 1_800_000_000)

    static func line(_ action: AuditEvent.Action, _ subject: AuditEvent.Subject, id: String? = record.lowercaseHyphenated) -> AuditEvent {
        AuditEvent(at: at, companyId: company, actor: .trainer(UUID()), action: action, subject: subject, subjectId: id, clientId: client)
    }

    @Test func eachEventComesFromItsLine() {
        let expected: [(AuditEvent.Action, AuditEvent.Subject, WebhookEvent.Kind)] = [
            (.created, .result, .resultRecorded), (.changed, .result, .resultCorrected), (.deleted, .result, .resultDeleted),
            (.completed, .screening, .screeningCompleted), (.created, .client, .clientCreated), (.erased, .client, .clientErased),
            (.created, .delivery, .reportEmailed), (.sent, .delivery, .reportDelivered), (.failed, .delivery, .reportFailed),
        ]
        for (action, subject, kind) in expected {
            #expect(WebhookEvent(Self.line(action, subject))?.kind == kind, "\(subject).\(action)")
            #expect(WebhookEvent.kindsByAuditAction.contains { $0.action == "\(subject.rawValue).\(action.rawValue)" && $0.kind == kind })
        }
        #expect(WebhookEvent.kindsByAuditAction.count == expected.count)
        #expect(Set(expected.map(\.2)) == Set(WebhookEvent.Kind.allCases))
    }

    @Test func otherLinesAndBlankedOnesAreNoEvents() {
        #expect(WebhookEvent(Self.line(.changed, .client)) == nil)
        #expect(WebhookEvent(Self.line(.changed, .screening)) == nil)
        #expect(WebhookEvent(Self.line(.viewedAsReport, .client)) == nil)
        #expect(WebhookEvent(Self.line(.created, .result, id: nil)) == nil, "blanked by an erasure")
        #expect(WebhookEvent(Self.line(.created, .pack, id: "strength")) == nil)
        #expect(WebhookEvent(Self.line(.created, .result, id: "\"},\"x\":\"")) == nil, "only ids the server wrote reach the JSON")
    }

    @Test func thePayloadNamesTheRecordByIdAndKindOnly() throws {
        let result = try #require(WebhookEvent(Self.line(.created, .result)))
        let text = String(decoding: result.payload, as: UTF8.self)
        #expect(
            text
                == #"{"type":"result.recorded","timestamp":"2027-01-15T08:00:00Z","data":{"kind":"result","id":"\#(Self.record.lowercaseHyphenated)","clientId":"\#(Self.client.lowercaseHyphenated)"}}"#
        )
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(result.payload)) as? [String: Any])
        #expect(parsed["type"] as? String == "result.recorded")
        // A client's own events: the record is the client, no clientId beside it.
        let created = try #require(WebhookEvent(Self.line(.created, .client)))
        #expect(!String(decoding: created.payload, as: UTF8.self).contains("clientId"))
    }
}
