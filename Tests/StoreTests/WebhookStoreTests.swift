import Foundation
import HealthwheelCore
import StoreContract
import TestSupport
import Testing

@testable import Store

/// The webhook outbox as stored, on both stores: deliveries made from the audit trail once per line and endpoint,
/// and claims that share the lanes between companies.
@Suite struct WebhookStoreTests {
    static func endpoint(in company: Company, events: [WebhookEvent.Kind], at now: Date) -> WebhookEndpoint {
        WebhookEndpoint(companyId: company.id, url: "https://hooks.example.com/\(UUID())", events: events, createdAt: now, updatedAt: now)
    }

    static func register(_ endpoint: WebhookEndpoint, _ fixture: StoreFixture) async throws {
        let audit = AuditEvent.company(
            .created,
            .webhook,
            id: endpoint.id.lowercaseHyphenated,
            in: endpoint.companyId,
            by: .operatorCommand,
            at: endpoint.createdAt
        )
        #expect(try await fixture.store.webhooks.create(endpoint, secret: Array(repeating: 7, count: 24), limit: 20, audit: audit))
    }

    static func createClient(in company: Company, by trainer: Trainer, _ fixture: StoreFixture) async throws -> Client {
        let client = Client(companyId: company.id, createdAt: fixture.clock.now)
        try await fixture.store.clients.create(client, audit: .client(.created, client.id, by: trainer, at: fixture.clock.now))
        return client
    }

    @Test func eachEventLineAfterAnEndpointWasRegisteredIsQueuedOnceForIt() async throws {
        let fixture = try StoreFixture()
        let company = try await fixture.makeCompany()
        let trainer = try await fixture.makeTrainer(in: company)
        let before = try await Self.createClient(in: company, by: trainer, fixture)
        let hears = Self.endpoint(in: company, events: [.clientCreated, .resultRecorded], at: fixture.clock.now)
        let deaf = Self.endpoint(in: company, events: [.reportFailed], at: fixture.clock.now)
        try await Self.register(hears, fixture)
        try await Self.register(deaf, fixture)
        let after = try await Self.createClient(in: company, by: trainer, fixture)
        try await fixture.store.results.create(pushUps(for: after, by: trainer, at: fixture.clock.now), keeping: nil)
        // A change that is no event, and another company's event.
        _ = try await fixture.store.clients.update(after.id, in: company.id, audit: .client(.changed, after.id, by: trainer, at: fixture.clock.now)) {
            $0.goal = "swim"
        }
        let other = try await fixture.makeCompany("Other")
        _ = try await Self.createClient(in: other, by: try await fixture.makeTrainer(in: other, name: "Kim"), fixture)

        let first = try await fixture.store.webhooks.fanOut(at: fixture.clock.now, lines: 2)
        #expect(first.more, "two lines at a time: more to read")
        var queued = first.queued
        while true {
            let next = try await fixture.store.webhooks.fanOut(at: fixture.clock.now, lines: 2)
            queued += next.queued
            if !next.more { break }
        }
        #expect(queued == 2)
        #expect(try await fixture.store.webhooks.fanOut(at: fixture.clock.now, lines: 100).queued == 0, "each line once")
        let log = try await fixture.store.webhooks.deliveries(endpoint: hears.id, in: company.id, after: nil, limit: 10).items
        #expect(Set(log.map(\.event)) == [.clientCreated, .resultRecorded])
        #expect(log.allSatisfy { $0.status == .queued && $0.attempts == 0 })
        #expect(!log.contains { String(decoding: $0.payload, as: UTF8.self).contains(before.id.lowercaseHyphenated) }, "before it was registered")
        #expect(try await fixture.store.webhooks.deliveries(endpoint: deaf.id, in: company.id, after: nil, limit: 10).items.isEmpty)
        #expect(try await fixture.store.webhooks.deliveries(endpoint: hears.id, in: other.id, after: nil, limit: 10).items.isEmpty)
    }

    /// The outbox commits without waiting for the disk: a fan-out a power cut undoes is made again from the same
    /// lines, and must give the same deliveries, message ids included, for receivers to tell the repeats.
    @Test func aFanOutMadeAgainGivesTheSameDeliveriesUnderTheSameIds() async throws {
        let fixture = try StoreFixture()
        let company = try await fixture.makeCompany()
        let trainer = try await fixture.makeTrainer(in: company)
        let endpoint = Self.endpoint(in: company, events: [.clientCreated], at: fixture.clock.now)
        try await Self.register(endpoint, fixture)
        for _ in 0..<3 { _ = try await Self.createClient(in: company, by: trainer, fixture) }
        func fannedOut() async throws -> [String: [UInt8]] {
            #expect(try await fixture.store.webhooks.fanOut(at: fixture.clock.now, lines: 100).queued == 3)
            let log = try await fixture.store.webhooks.deliveries(endpoint: endpoint.id, in: company.id, after: nil, limit: 10).items
            return Dictionary(uniqueKeysWithValues: log.map { ($0.messageId, $0.payload) })
        }
        let first = try await fannedOut()
        // What a crash right after an unsynced fan-out leaves: neither the deliveries nor the moved cursor.
        try await fixture.database.write { db in
            try await db.run("DELETE FROM webhook_deliveries")
            try await db.run("UPDATE webhook_cursor SET seq = 0")
        }
        fixture.clock.advance(by: 60)
        #expect(try await fannedOut() == first)
    }

    /// Nothing of an endpoint's time off is sent when it is turned on again, whether or not another endpoint kept
    /// the outbox reading meanwhile (here none did: its cursor stood before those lines).
    @Test func anEndpointTurnedOnAgainHearsOnlyWhatHappensAfter() async throws {
        let fixture = try StoreFixture()
        let company = try await fixture.makeCompany()
        let trainer = try await fixture.makeTrainer(in: company)
        let endpoint = Self.endpoint(in: company, events: [.clientCreated], at: fixture.clock.now)
        try await Self.register(endpoint, fixture)
        func turn(_ on: Bool) async throws {
            let audit = AuditEvent.company(
                .changed,
                .webhook,
                id: endpoint.id.lowercaseHyphenated,
                in: company.id,
                by: .operatorCommand,
                at: fixture.clock.now
            )
            #expect(try await fixture.store.webhooks.update(endpoint.id, in: company.id, audit: audit) { $0.enabled = on } != nil)
        }
        try await turn(false)
        let whileOff = try await Self.createClient(in: company, by: trainer, fixture)
        try await turn(true)
        let afterwards = try await Self.createClient(in: company, by: trainer, fixture)
        #expect(try await fixture.store.webhooks.fanOut(at: fixture.clock.now, lines: 100).queued == 1)
        let log = try await fixture.store.webhooks.deliveries(endpoint: endpoint.id, in: company.id, after: nil, limit: 10).items
        let sent = log.map { String(decoding: $0.payload, as: UTF8.self) }
        #expect(sent.count == 1 && sent[0].contains(afterwards.id.lowercaseHyphenated) && !sent[0].contains(whileOff.id.lowercaseHyphenated))
    }

    @Test func theOutboxsCommitsDoNotWaitForTheDiskAndOthersStillDo() async throws {
        let fixture = try StoreFixture()
        let database = fixture.database
        func flushes(_ db: any SQLConnection) async throws -> String {
            if database.dialect == .postgres {
                return try await db.query("SHOW synchronous_commit").first?["synchronous_commit"] ?? "?"
            }
            let level: Int64 = try await db.query("PRAGMA synchronous").first?["synchronous"] ?? -1
            return level == 2 ? "on" : "off (\(level))"
        }
        #expect(try await database.writeUnsynced(flushes).hasPrefix("off"))
        // As configured again (the tests' PostgreSQL server itself runs without flushing).
        let configured = database.dialect == .postgres ? try await database.read(flushes) : "on"
        #expect(try await database.write(flushes) == configured, "the next write waits for the disk again")
    }

    @Test func oneCompanysBacklogLeavesLanesForTheOthers() async throws {
        let fixture = try StoreFixture()
        let (busy, quiet) = (try await fixture.makeCompany("Busy"), try await fixture.makeCompany("Quiet"))
        let busyEndpoint = Self.endpoint(in: busy, events: [.clientCreated], at: fixture.clock.now)
        let quietEndpoint = Self.endpoint(in: quiet, events: [.clientCreated], at: fixture.clock.now)
        try await Self.register(busyEndpoint, fixture)
        try await Self.register(quietEndpoint, fixture)
        let busyTrainer = try await fixture.makeTrainer(in: busy)
        for _ in 0..<6 { _ = try await Self.createClient(in: busy, by: busyTrainer, fixture) }
        _ = try await Self.createClient(in: quiet, by: try await fixture.makeTrainer(in: quiet, name: "Kim"), fixture)
        _ = try await fixture.store.webhooks.fanOut(at: fixture.clock.now, lines: 100)

        let claimed = try await fixture.store.webhooks.claimDue(at: fixture.clock.now, limit: 4, perCompany: 2, lease: 60)
        #expect(claimed.filter { $0.delivery.companyId == busy.id }.count == 2)
        #expect(claimed.filter { $0.delivery.companyId == quiet.id }.count == 1, "the quiet company's one delivery is not behind the busy one's six")
        #expect(claimed.allSatisfy { $0.delivery.status == .sending && $0.delivery.attempts == 1 && $0.secrets == [Array(repeating: 7, count: 24)] })
        // The busy company's two in flight hold its share until they finish.
        #expect(try await fixture.store.webhooks.claimDue(at: fixture.clock.now, limit: 4, perCompany: 2, lease: 60).isEmpty)
        let done = try #require(claimed.first { $0.delivery.companyId == busy.id })
        try await fixture.store.webhooks.finish(
            WebhookAttemptOutcome(id: done.delivery.id, status: .delivered, httpStatus: 204, error: nil, nextAttemptAt: nil),
            at: fixture.clock.now
        )
        #expect(try await fixture.store.webhooks.claimDue(at: fixture.clock.now, limit: 4, perCompany: 2, lease: 60).count == 1)
        // A claim whose lease ran out (its node stopped) is claimed again.
        fixture.clock.advance(by: 61)
        #expect(try await fixture.store.webhooks.claimDue(at: fixture.clock.now, limit: 8, perCompany: 8, lease: 60).count == 6)
    }
}
