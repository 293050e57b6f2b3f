import Foundation
import HealthwheelCore
import Logging
import Media
import Store
import StoreContract
import TestSupport
import Testing

@testable import Services

/// The outbox's sender without HTTP: what a stop in the middle of an attempt leaves, and what it does after.
@Suite struct MailSenderTests {
    /// A report email to a new client of `company`, queued and due now.
    static func queue(in fixture: UseCaseTests.Fixture, _ company: Company) async throws -> Delivery {
        let trainer = try await fixture.trainer(.trainer, in: company)
        let roster = ClientRoster(store: fixture.store, clock: fixture.clock, mediaWorkers: testMediaWorkers) { _, _ in [] }
        var edit = ClientEdit()
        edit.givenName = .set("Mere")
        let client = try await roster.create(edit, by: trainer).client
        let now = fixture.clock.now
        let delivery = Delivery(
            companyId: company.id,
            clientId: client.id,
            trainerId: trainer.id,
            to: ["mere@example.com"],
            cc: [],
            subject: "Report",
            createdAt: now,
            updatedAt: now,
            nextAttemptAt: now
        )
        try await fixture.store.deliveries.enqueue(
            delivery,
            message: Array("Subject: Report\r\n\r\nHi\r\n".utf8),
            dailyLimit: 10,
            keeping: nil,
            audit: .byTest
        )
        return delivery
    }

    @Test(.sqlcipherOnly) func aDeliveryInterruptedMidAttemptIsSentAfterTheNextStart() async throws {
        let fixture = try UseCaseTests.Fixture()
        let company = try await fixture.company()
        let now = fixture.clock.now
        let delivery = try await Self.queue(in: fixture, company)
        // A server claimed it and stopped before it could say how the attempt went.
        let claimed = try #require(try await fixture.store.deliveries.claimDue(at: now))
        #expect(claimed.0.status == .sending && claimed.0.attempts == 1)
        #expect(try await fixture.store.deliveries.claimDue(at: now) == nil, "a delivery being sent is not claimed twice")

        let outbox = fixture.folder.url.appendingPathComponent("outbox")
        var settings = MailSettings(route: .folder(outbox), from: "reports@example.com")
        settings.tick = .milliseconds(20)
        let sender = MailSender(deliveries: fixture.store.deliveries, settings: settings, clock: fixture.clock, logger: Logger(label: "test"))
        let running = Task { await sender.run() }
        var found: Delivery?
        for _ in 0..<3_000 {  // a minute at most
            found = try await fixture.store.deliveries.find(delivery.id, in: company.id)
            if found?.status == .sent { break }
            try await Task.sleep(for: .milliseconds(20))
        }
        running.cancel()
        await running.value
        #expect(found?.status == .sent && found?.attempts == 2 && found?.sentAt == fixture.clock.now)
        let file = outbox.appendingPathComponent("\(delivery.id.uuidString.lowercased()).eml")
        #expect(try Data(contentsOf: file) == Data("Subject: Report\r\n\r\nHi\r\n".utf8))
    }

    /// A stop after the message was handed to the mail server may leave it delivered yet `sending`: the next start
    /// queues it again like any interrupted one, but says it may arrive twice; one interrupted before is quiet.
    /// Any node may claim a delivery whose claimer's lease ran out, and only then: a node that stopped mid-send
    /// leaves it to the others, a live one keeps it.
    @Test func aClaimIsALeaseThatAnyClaimerMayTakeOnceItRunsOut() async throws {
        let fixture = try UseCaseTests.Fixture()
        let company = try await fixture.company()
        let start = fixture.clock.now
        let delivery = try await Self.queue(in: fixture, company)
        #expect(try await fixture.store.deliveries.claimDue(at: start)?.0.id == delivery.id)
        try await fixture.store.deliveries.markHandedOver(delivery.id, at: start)
        #expect(try await fixture.store.deliveries.claimDue(at: start.addingTimeInterval(59)) == nil, "still its claimer's")
        // The sender renews its claim while it sends: the lease moves on, and only for the current attempt.
        try await fixture.store.deliveries.extendLease(delivery.id, attempt: 1, until: start.addingTimeInterval(100))
        try await fixture.store.deliveries.extendLease(delivery.id, attempt: 7, until: start.addingTimeInterval(5_000))
        #expect(try await fixture.store.deliveries.claimDue(at: start.addingTimeInterval(99)) == nil, "renewed")
        #expect(try await fixture.store.deliveries.nextDue() == start.addingTimeInterval(100))
        let taken = try #require(try await fixture.store.deliveries.claimDue(at: start.addingTimeInterval(100)))
        #expect(taken.0.id == delivery.id && taken.0.attempts == 2)
        #expect(taken.0.lastError?.contains("may arrive twice") == true, "it had been handed over")
        #expect(try await fixture.store.deliveries.claimDue(at: start.addingTimeInterval(101)) == nil, "the new claim is a new lease")
        // The stopped sender's renewal, late, does not touch the new claim.
        try await fixture.store.deliveries.extendLease(delivery.id, attempt: 1, until: start.addingTimeInterval(5_000))
        #expect(try await fixture.store.deliveries.nextDue() == start.addingTimeInterval(160))
        try await fixture.store.deliveries.finish(delivery.id, status: .sent, error: nil, nextAttemptAt: nil, at: start.addingTimeInterval(102))
        #expect(try await fixture.store.deliveries.nextDue() == nil)
        #expect(try await fixture.store.deliveries.claimDue(at: start.addingTimeInterval(10_000)) == nil, "a sent delivery holds no lease")
        // Renewing a sent delivery changes nothing.
        try await fixture.store.deliveries.extendLease(delivery.id, attempt: 2, until: start.addingTimeInterval(20_000))
        #expect(try await fixture.store.deliveries.find(delivery.id, in: company.id)?.status == .sent)
    }

    @Test(.sqlcipherOnly) func anInterruptedHandOverIsQueuedAgainAndSaysItMayArriveTwice() async throws {
        let fixture = try UseCaseTests.Fixture()
        let company = try await fixture.company()
        let now = fixture.clock.now
        var ids: [UUID] = []
        for _ in 0..<2 {
            _ = try await Self.queue(in: fixture, company)
            ids.append(try #require(try await fixture.store.deliveries.claimDue(at: now)).0.id)
        }
        try await fixture.store.deliveries.markHandedOver(ids[1], at: now)

        let requeued = try await fixture.store.deliveries.requeueInterrupted(at: now)
        #expect(requeued.requeued == 2 && requeued.possiblyDelivered == 1)
        let quiet = try #require(try await fixture.store.deliveries.find(ids[0], in: company.id))
        let announced = try #require(try await fixture.store.deliveries.find(ids[1], in: company.id))
        #expect(quiet.status == .queued && quiet.lastError == nil)
        #expect(announced.status == .queued && announced.lastError?.contains("may arrive twice") == true)
        // Claimed again, its hand-over mark starts afresh: a second stop before DATA is quiet.
        _ = try await fixture.store.deliveries.claimDue(at: now)
        _ = try await fixture.store.deliveries.claimDue(at: now)
        #expect(try await fixture.store.deliveries.requeueInterrupted(at: now).possiblyDelivered == 0)
    }
}
