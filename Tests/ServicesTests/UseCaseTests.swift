import Credentials
import Foundation
import HealthwheelCore
import Media
import Store
import StoreContract
import TestSupport
import Testing

@testable import Services

/// The use cases without HTTP: what the CLI, or any other door, gets from them.
@Suite struct UseCaseTests {
    /// A cheap stand-in for Argon2: the use cases only need a hash that matches its own password.
    struct PlainPasswords: PasswordHashing {
        func hash(_ password: String) async throws -> String { "plain:" + password }
        func verify(_ password: String, against encoded: String?) async throws -> Bool { encoded == "plain:" + password }
    }

    final class Fixture: Sendable {
        let folder = TemporaryDirectory()
        let store: Repositories
        let clock = ManualClock()

        init() throws {
            store = Repositories(database: try openTestDatabase(folder))
        }

        func trainer(
            _ role: Role,
            in company: Company,
            email: String = "t-\(UUID().uuidString.prefix(8).lowercased())@example.com"
        )
            async throws -> Trainer
        {
            let trainer = Trainer(companyId: company.id, email: email, name: "T", role: role, createdAt: clock.now, updatedAt: clock.now)
            try await store.trainers.create(trainer, passwordHash: try await PlainPasswords().hash("password 123456"), audit: .byTest)
            return trainer
        }

        func company() async throws -> Company {
            let company = Company(name: "C \(UUID().uuidString.prefix(4))", createdAt: clock.now)
            try await store.companies.create(company)
            return company
        }
    }

    @Test func loginOpensASessionAndRepeatedFailuresAreRateLimited() async throws {
        let fixture = try Fixture()
        let trainer = try await fixture.trainer(.trainer, in: try await fixture.company(), email: "ana@example.com")
        let sessions = Sessions(
            store: fixture.store,
            passwords: PlainPasswords(),
            policy: Sessions.Policy(tokenLifetime: 3600, loginLimits: .init(window: 600, failuresPerEmail: 2, failuresPerAddress: 100)),
            clock: fixture.clock
        )

        let login = try await sessions.login(email: " ANA@example.com ", password: "password 123456", from: "10.0.0.1")
        #expect(login.trainer.id == trainer.id && login.expiresAt == fixture.clock.now.addingTimeInterval(3600))
        #expect(try await fixture.store.sessions.principal(tokenDigest: AccessToken(value: login.token).digest, at: fixture.clock.now) != nil)

        for _ in 0..<2 {
            await #expect(throws: Sessions.Refusal.wrongCredentials) {
                try await sessions.login(email: "ana@example.com", password: "wrong password", from: "10.0.0.1")
            }
        }
        await #expect(throws: Sessions.Refusal.rateLimited(retryAfter: 600)) {
            try await sessions.login(email: "ana@example.com", password: "password 123456", from: "10.0.0.2")
        }
        fixture.clock.advance(by: 600)
        _ = try await sessions.login(email: "ana@example.com", password: "password 123456", from: "10.0.0.2")

        try await sessions.logout(tokenDigest: AccessToken(value: login.token).digest)
        #expect(try await fixture.store.sessions.principal(tokenDigest: AccessToken(value: login.token).digest, at: fixture.clock.now) == nil)
    }

    /// The failures counted are in the store: another `Sessions` on the same database (a restarted process, or
    /// another node) refuses the same email, and the table holds digests, not the email or the address.
    @Test func failedLoginsAreCountedInTheStoreAsDigests() async throws {
        let fixture = try Fixture()
        _ = try await fixture.trainer(.trainer, in: try await fixture.company(), email: "ana@example.com")
        let policy = Sessions.Policy(loginLimits: .init(window: 600, failuresPerEmail: 3, failuresPerAddress: 100))
        func sessions() -> Sessions { Sessions(store: fixture.store, passwords: PlainPasswords(), policy: policy, clock: fixture.clock) }
        for _ in 0..<3 {
            await #expect(throws: Sessions.Refusal.wrongCredentials) {
                try await sessions().login(email: "ana@example.com", password: "wrong password", from: "10.0.0.1")
            }
            fixture.clock.advance(by: 100)
        }
        // The first failure leaves the window 300 s from now.
        await #expect(throws: Sessions.Refusal.rateLimited(retryAfter: 300)) {
            try await sessions().login(email: "ana@example.com", password: "password 123456", from: "10.0.0.2")
        }
        let stored = try await fixture.store.loginFailures.failures(
            of: [LoginRateLimiter.key(email: "ana@example.com"), LoginRateLimiter.key(address: "10.0.0.1")],
            since: .distantPast
        )
        #expect(stored.values.map(\.count).sorted() == [3, 3])
        #expect(try await fixture.store.loginFailures.failures(of: [Array("ana@example.com".utf8)], since: .distantPast).isEmpty)
    }

    @Test func aRefusedLoginWaitsUntilTheFailureThatBringsTheCountUnderTheLimitLeaves() {
        let now = Date(timeIntervalSince1970: 10_000)
        let failures = [500.0, 400, 300, 200].map { now.addingTimeInterval(-$0) }
        #expect(LoginRateLimiter.wait(failures: failures, limit: 5, window: 600, now: now) == nil)
        #expect(LoginRateLimiter.wait(failures: failures, limit: 4, window: 600, now: now) == 100)
        // Two over the limit (failures landing together on several nodes): the second-oldest must leave too.
        #expect(LoginRateLimiter.wait(failures: failures, limit: 3, window: 600, now: now) == 200)
        #expect(LoginRateLimiter.wait(failures: [now], limit: 1, window: 600, now: now) == 600)
    }

    @Test func onlyAnAdminOrTheAssignedTrainerDeletesAClient() async throws {
        let fixture = try Fixture()
        let company = try await fixture.company()
        let (assigned, other, admin) = (
            try await fixture.trainer(.trainer, in: company), try await fixture.trainer(.trainer, in: company),
            try await fixture.trainer(.admin, in: company)
        )
        let roster = ClientRoster(store: fixture.store, clock: fixture.clock, mediaWorkers: testMediaWorkers) { _, _ in [] }
        var edit = ClientEdit()
        edit.givenName = .set("Mere")
        let first = try await roster.create(edit, by: assigned)
        let second = try await roster.create(edit, by: assigned)
        #expect(first.client.assignedTrainerId == assigned.id)

        await #expect(throws: ServiceError.forbidden(detail: "only an admin or the client's assigned trainer can delete a client")) {
            try await roster.delete(first.client.id, by: other)
        }
        try await roster.delete(first.client.id, by: assigned)
        try await roster.delete(second.client.id, by: admin)
        await #expect(throws: ServiceError.notFound("client")) { try await roster.record(first.client.id, in: company.id) }

        // Another company's trainer cannot even see that the client existed.
        let stranger = try await fixture.trainer(.admin, in: try await fixture.company())
        let third = try await roster.create(edit, by: assigned)
        await #expect(throws: ServiceError.notFound("client")) { try await roster.delete(third.client.id, by: stranger) }
    }

    @Test func aPhotoMustBeWhatItsTypeSays() async throws {
        let fixture = try Fixture()
        let trainer = try await fixture.trainer(.trainer, in: try await fixture.company())
        let roster = ClientRoster(store: fixture.store, clock: fixture.clock, mediaWorkers: testMediaWorkers) { _, _ in [] }
        var edit = ClientEdit()
        edit.familyName = .set("Ngata")
        let client = try await roster.create(edit, by: trainer).client
        let png = TestPictures.png(width: 4, height: 3)

        await #expect(throws: ServiceError.invalid("body", "is not a JPEG image")) {
            try await roster.setPhoto(png, contentType: "image/jpeg", of: client.id, by: trainer)
        }
        #expect(try await roster.photo(of: client.id, in: trainer.companyId) == nil)
        try await roster.setPhoto(png, contentType: "image/png", of: client.id, by: trainer)
        #expect(try await roster.photo(of: client.id, in: trainer.companyId)?.bytes == png)
    }

    @Test func aPhotoIsMeasuredByItsHeaderAndARefusedOneChangesNothing() async throws {
        let fixture = try Fixture()
        let trainer = try await fixture.trainer(.trainer, in: try await fixture.company())
        let roster = ClientRoster(store: fixture.store, clock: fixture.clock, mediaWorkers: testMediaWorkers) { _, _ in [] }
        var edit = ClientEdit()
        edit.familyName = .set("Ngata")
        let client = try await roster.create(edit, by: trainer).client
        let kept = TestPictures.jpeg(width: 8192, height: 4096, size: 4_000)
        try await roster.setPhoto(kept, contentType: "image/jpeg", of: client.id, by: trainer)

        let refusals: [([UInt8], String, String)] = [
            (TestPictures.jpeg(width: 9000, height: 600, size: 4_000), "image/jpeg", "is 9000×600 pixels; at most 8192×8192 are accepted"),
            (
                TestPictures.blackPNG(width: 8192, height: 8192), "image/png",
                "is 8192×8192 pixels, 67108864 in all; at most 33554432 are accepted"
            ),
            (Array(TestPictures.jpegHeader(width: 100, height: 100).dropLast(3)), "image/jpeg", "is a JPEG that ends before its frame header (SOF)"),
        ]
        for (bytes, type, reason) in refusals {
            await #expect(throws: ServiceError.invalid("body", reason)) {
                try await roster.setPhoto(bytes, contentType: type, of: client.id, by: trainer)
            }
        }
        #expect(try await roster.photo(of: client.id, in: trainer.companyId)?.bytes == kept)
    }
}
