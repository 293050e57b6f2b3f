import Foundation
import HealthwheelCore
import Testing

/// Which audit lines the changes feed shows, as what.
struct RecordChangeTests {
    static let company = UUID()
    static let client = UUID()
    static let record = UUID()
    static let at = Date(timeIntervalSince1970: 1_800_000_000)

    static func event(_ action: AuditEvent.Action, _ subject: AuditEvent.Subject, id: String? = record.lowercaseHyphenated) -> AuditEvent {
        AuditEvent(at: at, companyId: company, actor: .trainer(UUID()), action: action, subject: subject, subjectId: id, clientId: client)
    }

    @Test func changesOfTheCarriedKindsAreShownAndRemovalsAreTombstones() {
        let id = Self.record.lowercaseHyphenated
        let kinds: [(AuditEvent.Subject, RecordChange.Kind)] = [
            (.client, .client), (.result, .result), (.media, .media), (.trainer, .trainer), (.delivery, .delivery),
        ]
        for (subject, kind) in kinds {
            #expect(
                RecordChange.changes(in: Self.event(.created, subject)) == [RecordChange(kind: kind, id: id, removed: false, clientId: Self.client)]
            )
            #expect(
                RecordChange.changes(in: Self.event(.changed, subject)) == [RecordChange(kind: kind, id: id, removed: false, clientId: Self.client)]
            )
            #expect(
                RecordChange.changes(in: Self.event(.deleted, subject)) == [RecordChange(kind: kind, id: id, removed: true, clientId: Self.client)]
            )
        }
        #expect(RecordChange.changes(in: Self.event(.erased, .client)) == [RecordChange(kind: .client, id: id, removed: true, clientId: Self.client)])
        for action in [AuditEvent.Action.sent, .failed] {
            #expect(
                RecordChange.changes(in: Self.event(action, .delivery)) == [
                    RecordChange(kind: .delivery, id: id, removed: false, clientId: Self.client)
                ]
            )
        }
    }

    @Test func aScreeningsLineAlsoChangesItsClient() {
        let screening = RecordChange(kind: .screening, id: Self.record.lowercaseHyphenated, removed: false, clientId: Self.client)
        let client = RecordChange(kind: .client, id: Self.client.lowercaseHyphenated, removed: false, clientId: Self.client)
        for action in [AuditEvent.Action.created, .changed, .completed] {
            #expect(RecordChange.changes(in: Self.event(action, .screening)) == [screening, client], "\(action)")
        }
        var deleted = screening
        deleted.removed = true
        #expect(RecordChange.changes(in: Self.event(.deleted, .screening)) == [deleted, client])
    }

    @Test func theThemeIsTheCompanys() {
        let changes = RecordChange.changes(in: Self.event(.changed, .theme, id: nil))
        #expect(changes == [RecordChange(kind: .theme, id: Self.company.lowercaseHyphenated, removed: false)])
    }

    @Test func linesThatChangeNoCarriedRecordAreNotShown() {
        for action in [AuditEvent.Action.exported, .emailed, .viewedAsReport] {
            #expect(RecordChange.changes(in: Self.event(action, .client)).isEmpty, "\(action)")
        }
        #expect(RecordChange.changes(in: Self.event(.created, .pack, id: "cardiovascular")).isEmpty)
        #expect(RecordChange.changes(in: Self.event(.changed, .company, id: nil)).isEmpty)
        // Blanked by an erasure: it names nobody any more.
        #expect(RecordChange.changes(in: Self.event(.changed, .result, id: nil)).isEmpty)
        #expect(RecordChange.changes(in: Self.event(.changed, .screening, id: nil)).isEmpty)
    }
}
