import Foundation
import HealthwheelCore
import StoreContract
import Synchronization
import TestSupport
import Testing

@testable import Services

/// `ClientRoster.renderedRecord`: a client read again is not rendered again, unless the record changed or a
/// computed field (age, `rescreenDue`) may have.
@Suite struct ClientRenderedRecordTests {
    typealias Fixture = ClientDirectoryCacheTests.Fixture

    final class Renders: Sendable {
        let count = Mutex(0)
        var total: Int { count.withLock { $0 } }
    }

    /// A roster that counts its renderings and writes `now` into each, so a stale rendering shows.
    static func countingRoster(_ fixture: Fixture, renders: Renders) -> ClientRoster {
        ClientRoster(store: fixture.store, clock: fixture.clock, mediaWorkers: testMediaWorkers) { record, now in
            renders.count.withLock { $0 += 1 }
            return Fixture.render(record, now)
        }
    }

    @Test func aClientReadAgainIsRenderedOnceUntilItChangesOrMidnightPasses() async throws {
        let fixture = try Fixture()
        let company = try await fixture.company()
        let id = try await fixture.client(in: company, given: "Ana", family: "Ruiz")
        let renders = Renders()
        let roster = Self.countingRoster(fixture, renders: renders)

        let first = try await roster.renderedRecord(id, in: company)
        fixture.clock.advance(by: 60)
        #expect(Fixture.text([try await roster.renderedRecord(id, in: company)]) == Fixture.text([first]))
        #expect(renders.total == 1)

        let audit = AuditEvent.client(.changed, id, byOperatorOf: company, at: fixture.clock.now)
        let edited = try await fixture.store.clients.update(id, in: company, audit: audit) { $0.givenName = "Anabel" }
        #expect(edited?.client.givenName == "Anabel")
        let afterEdit = try await roster.renderedRecord(id, in: company)
        #expect(String(decoding: afterEdit, as: UTF8.self).contains("Anabel"))
        #expect(renders.total == 2)

        fixture.clock.advance(by: 86_400)
        let nextDay = try await roster.renderedRecord(id, in: company)
        #expect(Fixture.text([nextDay]) != Fixture.text([afterEdit]), "a rendering made yesterday was served today")
        #expect(renders.total == 3)
    }

    @Test func anotherCompanysClientIsNotFoundThoughRendered() async throws {
        let fixture = try Fixture()
        let company = try await fixture.company()
        let other = try await fixture.company()
        let id = try await fixture.client(in: company, given: "Ana", family: "Ruiz")
        let roster = fixture.roster()
        _ = try await roster.renderedRecord(id, in: company)
        await #expect(throws: ServiceError.notFound("client")) { try await roster.renderedRecord(id, in: other) }
    }

    @Test func aRenderingLastsUntilMidnightOrTheRescreenIfSooner() throws {
        let noon = Date(timeIntervalSince1970: Double(1_800_000_000 - 1_800_000_000 % 86_400 + 43_200))
        let midnight = noon.addingTimeInterval(43_200)
        func record(completed: Date?) -> ClientRecord {
            ClientRecord(
                client: Client(companyId: UUID(), createdAt: noon),
                hasPhoto: false,
                screening: .init(latestCompletedAt: completed, latestCompletedFlags: [], hasDraft: false)
            )
        }
        #expect(ClientDirectory.renderedUntil(record(completed: nil), now: noon) == midnight)
        // Screened a year ago this evening: due this evening, before midnight.
        let yearAgoEvening = CalendarDate.adding(months: -12, to: noon.addingTimeInterval(3_600))
        let dueAt = ScreeningOverview.rescreenDueAt(after: yearAgoEvening)
        #expect(dueAt > noon && dueAt < midnight)
        #expect(ClientDirectory.renderedUntil(record(completed: yearAgoEvening), now: noon) == dueAt)
        // Already due: nothing about it changes again.
        let twoYearsAgo = CalendarDate.adding(months: -24, to: noon)
        #expect(ClientDirectory.renderedUntil(record(completed: twoYearsAgo), now: noon) == midnight)
        // Screened this morning: due next year, after midnight.
        #expect(ClientDirectory.renderedUntil(record(completed: noon.addingTimeInterval(-3_600)), now: noon) == midnight)
    }
}
