import Foundation
import HealthwheelCore
import Store
import StoreContract
import Synchronization
import TestSupport
import Testing

/// The audit trail as the changes feed reads it (`AuditRepository.events`): one company's lines, oldest first,
/// and a reader following it while others write never passes a line that commits later.
@Suite struct AuditEventsStoreTests {
    /// Two companies' clients and results written at once from many tasks, while a reader pages through company A's
    /// lines from the start, a few at a time, again and again: every line it saw, in the order it saw them, is the
    /// whole of A's trail at the end, each once, with none of B's.
    @Test func aReaderFollowingTheTrailWhileOthersWriteMissesNothing() async throws {
        let fixture = try StoreFixture()
        let (first, second) = (try await fixture.makeCompany("A"), try await fixture.makeCompany("B"))
        let trainers = (try await fixture.makeTrainer(in: first), try await fixture.makeTrainer(in: second, name: "Kim"))
        let writes = 60
        let done = ManagedFlag()
        async let seen: [StoredAuditEvent] = {
            var seen: [StoredAuditEvent] = []
            var position: Int64 = 0
            while true {
                let finished = done.isSet
                let page = try await fixture.store.audit.events(in: first.id, after: position, limit: 3)
                seen += page
                position = page.last?.sequence ?? position
                if page.isEmpty && finished { return seen }
                if page.isEmpty { await Task.yield() }
            }
        }()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<writes {
                group.addTask {
                    let (company, trainer) = index.isMultiple(of: 2) ? (first, trainers.0) : (second, trainers.1)
                    let client = Client(companyId: company.id, createdAt: fixture.clock.now)
                    try await fixture.store.clients.create(client, audit: .client(.created, client.id, by: trainer, at: fixture.clock.now))
                    try await fixture.store.results.create(pushUps(for: client, by: trainer, at: fixture.clock.now), keeping: nil)
                }
            }
            try await group.waitForAll()
        }
        done.set()
        let followed = try await seen
        let whole = try await fixture.store.audit.events(in: first.id, after: 0, limit: 10_000)
        #expect(whole.count == writes)  // 30 clients and their 30 results
        #expect(whole.allSatisfy { $0.event.companyId == first.id })
        #expect(zip(whole, whole.dropFirst()).allSatisfy { $0.sequence < $1.sequence })
        #expect(followed.map(\.sequence) == whole.map(\.sequence))
    }

    @Test func pagesContinueAfterTheLastLineTheyHeld() async throws {
        let fixture = try StoreFixture()
        let company = try await fixture.makeCompany()
        let trainer = try await fixture.makeTrainer(in: company)
        for _ in 0..<5 {
            let client = Client(companyId: company.id, createdAt: fixture.clock.now)
            try await fixture.store.clients.create(client, audit: .client(.created, client.id, by: trainer, at: fixture.clock.now))
        }
        let all = try await fixture.store.audit.events(in: company.id, after: 0, limit: 100)
        #expect(all.count == 5)
        let firstTwo = try await fixture.store.audit.events(in: company.id, after: 0, limit: 2)
        let rest = try await fixture.store.audit.events(in: company.id, after: firstTwo[1].sequence, limit: 100)
        #expect((firstTwo + rest).map(\.sequence) == all.map(\.sequence))
        #expect(try await fixture.store.audit.events(in: company.id, after: all[4].sequence, limit: 100).isEmpty)
        #expect(try await fixture.store.audit.events(in: UUID(), after: 0, limit: 100).isEmpty)
    }
}
