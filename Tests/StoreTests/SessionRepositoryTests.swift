import Foundation
import HealthwheelCore
import Store
import StoreContract
import TestSupport
import Testing

@Suite struct SessionRepositoryTests {
    @Test func principalOfALiveSessionIsItsTrainerAndCompany() async throws {
        let fixture = try StoreFixture()
        let company = try await fixture.makeCompany("Principal Gym")
        let trainer = try await fixture.makeTrainer(in: company, role: .admin)
        let digest = try await fixture.makeSession(for: trainer, lifetime: 3600)

        let principal = try #require(try await fixture.store.sessions.principal(tokenDigest: digest, at: fixture.clock.now))
        #expect(principal.trainer == trainer)
        #expect(principal.company == company)
        fixture.clock.advance(by: 3599)
        #expect(try await fixture.store.sessions.principal(tokenDigest: digest, at: fixture.clock.now) != nil)
    }

    @Test func principalIsNilOnceTheSessionHasExpired() async throws {
        let fixture = try StoreFixture()
        let company = try await fixture.makeCompany()
        let trainer = try await fixture.makeTrainer(in: company)
        let digest = try await fixture.makeSession(for: trainer, lifetime: 3600)

        fixture.clock.advance(by: 3600)
        #expect(try await fixture.store.sessions.principal(tokenDigest: digest, at: fixture.clock.now) == nil)
        fixture.clock.advance(by: 1)
        #expect(try await fixture.store.sessions.principal(tokenDigest: digest, at: fixture.clock.now) == nil)
    }

    @Test func principalOfAnUnknownDigestIsNil() async throws {
        let fixture = try StoreFixture()
        let company = try await fixture.makeCompany()
        let trainer = try await fixture.makeTrainer(in: company)
        try await fixture.makeSession(for: trainer)

        #expect(try await fixture.store.sessions.principal(tokenDigest: randomDigest(), at: fixture.clock.now) == nil)
    }

    @Test func deletedSessionHasNoPrincipal() async throws {
        let fixture = try StoreFixture()
        let company = try await fixture.makeCompany()
        let trainer = try await fixture.makeTrainer(in: company)
        let ended = try await fixture.makeSession(for: trainer)
        let kept = try await fixture.makeSession(for: trainer)

        try await fixture.store.sessions.delete(tokenDigest: ended)
        #expect(try await fixture.store.sessions.principal(tokenDigest: ended, at: fixture.clock.now) == nil)
        #expect(try await fixture.store.sessions.principal(tokenDigest: kept, at: fixture.clock.now) != nil)
    }

    @Test func purgeExpiredRemovesOnlyExpiredSessions() async throws {
        let fixture = try StoreFixture()
        let company = try await fixture.makeCompany()
        let trainer = try await fixture.makeTrainer(in: company)
        let short = try await fixture.makeSession(for: trainer, lifetime: 60)
        let alsoShort = try await fixture.makeSession(for: trainer, lifetime: 120)
        let long = try await fixture.makeSession(for: trainer, lifetime: 3600)

        fixture.clock.advance(by: 600)
        let purged = try await fixture.store.sessions.purgeExpired(at: fixture.clock.now)

        #expect(purged == 2)
        #expect(try fixture.sessionCount(of: trainer.id) == 1)
        #expect(try await fixture.store.sessions.principal(tokenDigest: long, at: fixture.clock.now) != nil)
        // Still gone if the clock were turned back: the rows were deleted, not merely hidden.
        let start = fixture.clock.now.addingTimeInterval(-600)
        #expect(try await fixture.store.sessions.principal(tokenDigest: short, at: start) == nil)
        #expect(try await fixture.store.sessions.principal(tokenDigest: alsoShort, at: start) == nil)
    }

    @Test func purgeExpiredWithNothingExpiredRemovesNothing() async throws {
        let fixture = try StoreFixture()
        let company = try await fixture.makeCompany()
        let trainer = try await fixture.makeTrainer(in: company)
        try await fixture.makeSession(for: trainer, lifetime: 60)

        #expect(try await fixture.store.sessions.purgeExpired(at: fixture.clock.now) == 0)
        #expect(try fixture.sessionCount(of: trainer.id) == 1)
    }
}

@Suite struct CompanyRepositoryTests {
    @Test func createdCompanyIsFoundAndCounted() async throws {
        let fixture = try StoreFixture()
        #expect(try await fixture.store.companies.count() == 0)
        let company = try await fixture.makeCompany("Zoë's Gym")
        try await fixture.makeCompany("Another")

        #expect(try await fixture.store.companies.find(company.id) == company)
        #expect(try await fixture.store.companies.find(UUID()) == nil)
        #expect(try await fixture.store.companies.count() == 2)
    }
}
