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
            (.client, .client), (.screening, .screening), (.result, .result), (.media, .media), (.trainer, .trainer),
        ]
        for (subject, kind) in kinds {
            #expect(RecordChange(Self.event(.created, subject)) == RecordChange(kind: kind, id: id, removed: false))
            #expect(RecordChange(Self.event(.changed, subject)) == RecordChange(kind: kind, id: id, removed: false))
            #expect(RecordChange(Self.event(.deleted, subject)) == RecordChange(kind: kind, id: id, removed: true))
        }
        #expect(RecordChange(Self.event(.erased, .client)) == RecordChange(kind: .client, id: id, removed: true))
    }

    @Test func theThemeIsTheCompanys() {
        let change = RecordChange(Self.event(.changed, .theme, id: nil))
        #expect(change == RecordChange(kind: .theme, id: Self.company.lowercaseHyphenated, removed: false))
    }

    @Test func linesThatChangeNoCarriedRecordAreNotShown() {
        for action in [AuditEvent.Action.exported, .emailed, .viewedAsReport] {
            #expect(RecordChange(Self.event(action, .client)) == nil, "\(action)")
        }
        #expect(RecordChange(Self.event(.created, .pack, id: "cardiovascular")) == nil)
        #expect(RecordChange(Self.event(.changed, .company, id: nil)) == nil)
        // Blanked by an erasure: it names nobody any more.
        #expect(RecordChange(Self.event(.changed, .result, id: nil)) == nil)
    }
}
