import Foundation
import HealthwheelCore
import Store
import StoreContract
import TestSupport
import Testing

@Suite struct TrainerRepositoryTests {
    private struct Refused: Error {}

    @Test func createdTrainerIsFoundWithEveryField() async throws {
        let fixture = try StoreFixture()
        let company = try await fixture.makeCompany()
        let trainer = try await fixture.makeTrainer(in: company, name: "Zoë Ångström", role: .admin)

        #expect(try await fixture.store.trainers.find(trainer.id, in: company.id) == trainer)
    }

    @Test func credentialsByEmailCarryThePasswordHash() async throws {
        let fixture = try StoreFixture()
        let company = try await fixture.makeCompany()
        let trainer = try await fixture.makeTrainer(in: company, email: "sam@example.com", passwordHash: "stored-hash-1")

        let credentials = try await fixture.store.trainers.credentials(email: "sam@example.com", in: nil, limit: 16)
        #expect(credentials.map(\.trainer) == [trainer])
        #expect(credentials.map(\.passwordHash) == ["stored-hash-1"])
        #expect(try await fixture.store.trainers.credentials(email: "nobody@example.com", in: nil, limit: 16).isEmpty)
    }

    @Test func sameEmailInAnotherCompanyIsAnotherAccount() async throws {
        let fixture = try StoreFixture()
        let first = try await fixture.makeCompany("First")
        let second = try await fixture.makeCompany("Second")
        let one = try await fixture.makeTrainer(in: first, email: "sam@example.com", passwordHash: "hash-first")
        let other = try await fixture.makeTrainer(in: second, email: "sam@example.com", passwordHash: "hash-second")

        let accounts = try await fixture.store.trainers.credentials(email: "sam@example.com", in: nil, limit: 16)
        #expect(Set(accounts.map(\.trainer.id)) == [one.id, other.id])
        #expect(try await fixture.store.trainers.credentials(email: "sam@example.com", in: nil, limit: 1).count == 1)
        #expect(try await fixture.store.trainers.credentials(email: "sam@example.com", in: second.id, limit: 1).map(\.trainer.id) == [other.id])
        await #expect(throws: TrainerRepositoryError.emailTaken) {
            try await fixture.makeTrainer(in: second, email: "sam@example.com")
        }
        #expect(try await fixture.store.trainers.list(in: second.id, after: nil, limit: 10).items == [other])
    }

    @Test func sameEmailInAnotherCaseIsTakenOnceNormalised() async throws {
        let fixture = try StoreFixture()
        let company = try await fixture.makeCompany()
        try await fixture.makeTrainer(in: company, email: try InputRules.email("sam@example.com"))

        await #expect(throws: TrainerRepositoryError.emailTaken) {
            try await fixture.makeTrainer(in: company, email: try InputRules.email("  SAM@Example.COM "))
        }
        #expect(try await fixture.store.trainers.list(in: company.id, after: nil, limit: 10).items.count == 1)
    }

    @Test func findWithAnotherCompanysIdReturnsNil() async throws {
        let fixture = try StoreFixture()
        let company = try await fixture.makeCompany("Own")
        let other = try await fixture.makeCompany("Other")
        let trainer = try await fixture.makeTrainer(in: company)

        #expect(try await fixture.store.trainers.find(trainer.id, in: other.id) == nil)
        #expect(try await fixture.store.trainers.credentials(id: trainer.id, in: other.id) == nil)
        #expect(try await fixture.store.trainers.credentials(id: trainer.id, in: company.id)?.trainer == trainer)
    }

    @Test func listPaginatesInCaseInsensitiveNameOrder() async throws {
        let fixture = try StoreFixture()
        let company = try await fixture.makeCompany()
        let other = try await fixture.makeCompany("Other")
        try await fixture.makeTrainer(in: other, name: "Aaron from elsewhere")
        var created: [Trainer] = []
        for name in ["bob", "Alice", "carol", "alice", "Dave"] {
            created.append(try await fixture.makeTrainer(in: company, name: name))
        }
        let expected = created.sorted {
            ($0.name.lowercased(), $0.id.uuidString.lowercased()) < ($1.name.lowercased(), $1.id.uuidString.lowercased())
        }

        var pages: [Page<Trainer>] = []
        var cursor: Cursor?
        repeat {
            let page = try await fixture.store.trainers.list(in: company.id, after: cursor, limit: 2)
            pages.append(page)
            // Round-trip through the opaque token, as a client would.
            cursor = try page.nextCursor.map { try #require(Cursor(token: $0.token)) }
        } while cursor != nil && pages.count < 10

        #expect(pages.map(\.items.count) == [2, 2, 1])
        #expect(pages.last?.nextCursor == nil)
        let listed = pages.flatMap(\.items)
        #expect(Set(listed.map(\.id)).count == listed.count, "a trainer was listed twice")
        #expect(listed.map(\.id) == expected.map(\.id))
    }

    @Test func listDoesNotEndWithAnEmptyPage() async throws {
        let fixture = try StoreFixture()
        let company = try await fixture.makeCompany()
        for name in ["A", "B", "C", "D"] { try await fixture.makeTrainer(in: company, name: name) }

        let first = try await fixture.store.trainers.list(in: company.id, after: nil, limit: 2)
        let second = try await fixture.store.trainers.list(in: company.id, after: first.nextCursor, limit: 2)
        #expect(first.nextCursor != nil)
        #expect(second.items.map(\.name) == ["C", "D"])
        #expect(second.nextCursor == nil)
    }

    @Test func cursorTokenRoundTripsANameWithAColon() throws {
        let cursor = Cursor(sortKey: "Dr: Who", id: UUID())
        #expect(Cursor(token: cursor.token) == cursor)
        #expect(!cursor.token.contains("="))
        #expect(Cursor(token: "not a cursor") == nil)
    }

    @Test func updateSavesTheChangedFields() async throws {
        let fixture = try StoreFixture()
        let company = try await fixture.makeCompany()
        let trainer = try await fixture.makeTrainer(in: company, name: "Old Name", email: "old@example.com")
        fixture.clock.advance(by: 60)
        let later = fixture.clock.now

        let updated = try await fixture.store.trainers.update(trainer.id, in: company.id, newPasswordHash: nil, keepingSession: nil, audit: .byTest) {
            t,
            _ in
            t.name = "New Name"
            t.email = "new@example.com"
            t.role = .admin
            t.updatedAt = later
        }
        let stored = try await fixture.store.trainers.find(trainer.id, in: company.id)
        #expect(stored == updated)
        #expect(stored?.name == "New Name")
        #expect(stored?.email == "new@example.com")
        #expect(stored?.role == .admin)
        #expect(stored?.updatedAt == later)
        #expect(stored?.createdAt == trainer.createdAt)
    }

    @Test func updateWhoseClosureThrowsLeavesTheRowUnchanged() async throws {
        let fixture = try StoreFixture()
        let company = try await fixture.makeCompany()
        let trainer = try await fixture.makeTrainer(in: company, passwordHash: "original-hash")
        let session = try await fixture.makeSession(for: trainer)
        let other = try await fixture.makeSession(for: trainer)

        await #expect(throws: Refused.self) {
            _ = try await fixture.store.trainers.update(
                trainer.id,
                in: company.id,
                newPasswordHash: "new-hash",
                keepingSession: session,
                audit: .byTest
            ) { t, _ in
                t.name = "Should not stick"
                throw Refused()
            }
        }
        #expect(try await fixture.store.trainers.find(trainer.id, in: company.id) == trainer)
        #expect(try await fixture.store.trainers.credentials(id: trainer.id, in: company.id)?.passwordHash == "original-hash")
        #expect(try await fixture.store.sessions.principal(tokenDigest: other, at: fixture.clock.now) != nil)
    }

    @Test func updateToATakenEmailThrowsEmailTakenAndChangesNothing() async throws {
        let fixture = try StoreFixture()
        let company = try await fixture.makeCompany()
        try await fixture.makeTrainer(in: company, email: "taken@example.com")
        let trainer = try await fixture.makeTrainer(in: company, email: "mine@example.com", passwordHash: "original-hash")
        let session = try await fixture.makeSession(for: trainer)

        await #expect(throws: TrainerRepositoryError.emailTaken) {
            _ = try await fixture.store.trainers.update(trainer.id, in: company.id, newPasswordHash: "new-hash", keepingSession: nil, audit: .byTest)
            { t, _ in
                t.email = "taken@example.com"
            }
        }
        #expect(try await fixture.store.trainers.find(trainer.id, in: company.id) == trainer)
        #expect(try await fixture.store.trainers.credentials(id: trainer.id, in: company.id)?.passwordHash == "original-hash")
        #expect(try await fixture.store.sessions.principal(tokenDigest: session, at: fixture.clock.now) != nil)
    }

    @Test func updateSeesTheCompanysAdminCount() async throws {
        let fixture = try StoreFixture()
        let company = try await fixture.makeCompany()
        let other = try await fixture.makeCompany("Other")
        try await fixture.makeTrainer(in: company, role: .admin)
        try await fixture.makeTrainer(in: company, role: .admin)
        try await fixture.makeTrainer(in: other, role: .admin)
        let trainer = try await fixture.makeTrainer(in: company, role: .trainer)

        let seen = try await adminCountSeenByUpdate(fixture, trainer)
        #expect(seen == 2)
    }

    @Test func updateOfATrainerInAnotherCompanyReturnsNilAndChangesNothing() async throws {
        let fixture = try StoreFixture()
        let company = try await fixture.makeCompany()
        let other = try await fixture.makeCompany("Other")
        let trainer = try await fixture.makeTrainer(in: company)

        let result = try await fixture.store.trainers.update(
            trainer.id,
            in: other.id,
            newPasswordHash: "new-hash",
            keepingSession: nil,
            audit: .byTest
        ) { t, _ in
            t.name = "Hijacked"
        }
        #expect(result == nil)
        #expect(try await fixture.store.trainers.credentials(id: trainer.id, in: company.id)?.passwordHash == "not-a-real-hash")
        #expect(try await fixture.store.trainers.find(trainer.id, in: company.id) == trainer)
    }

    @Test func newPasswordHashEndsOtherSessionsButKeepsTheCurrentOne() async throws {
        let fixture = try StoreFixture()
        let company = try await fixture.makeCompany()
        let trainer = try await fixture.makeTrainer(in: company)
        let colleague = try await fixture.makeTrainer(in: company)
        let current = try await fixture.makeSession(for: trainer)
        let elsewhere = try await fixture.makeSession(for: trainer)
        let another = try await fixture.makeSession(for: trainer)
        let colleagues = try await fixture.makeSession(for: colleague)

        let updated = try await fixture.store.trainers.update(
            trainer.id,
            in: company.id,
            newPasswordHash: "new-hash",
            keepingSession: current,
            audit: .byTest
        ) { _, _ in }

        #expect(updated == trainer)
        #expect(try await fixture.store.trainers.credentials(id: trainer.id, in: company.id)?.passwordHash == "new-hash")
        let sessions = fixture.store.sessions
        let now = fixture.clock.now
        #expect(try await sessions.principal(tokenDigest: current, at: now)?.trainer.id == trainer.id)
        #expect(try await sessions.principal(tokenDigest: elsewhere, at: now) == nil)
        #expect(try await sessions.principal(tokenDigest: another, at: now) == nil)
        #expect(try await sessions.principal(tokenDigest: colleagues, at: now)?.trainer.id == colleague.id)
        #expect(try fixture.sessionCount(of: trainer.id) == 1)
    }

    @Test func newPasswordHashWithoutAKeptSessionEndsEverySession() async throws {
        let fixture = try StoreFixture()
        let company = try await fixture.makeCompany()
        let trainer = try await fixture.makeTrainer(in: company)
        try await fixture.makeSession(for: trainer)
        try await fixture.makeSession(for: trainer)

        _ = try await fixture.store.trainers.update(trainer.id, in: company.id, newPasswordHash: "new-hash", keepingSession: nil, audit: .byTest) {
            _,
            _ in
        }
        #expect(try fixture.sessionCount(of: trainer.id) == 0)
    }

    @Test func updateWithoutANewPasswordKeepsEverySession() async throws {
        let fixture = try StoreFixture()
        let company = try await fixture.makeCompany()
        let trainer = try await fixture.makeTrainer(in: company, passwordHash: "original-hash")
        try await fixture.makeSession(for: trainer)
        try await fixture.makeSession(for: trainer)

        _ = try await fixture.store.trainers.update(trainer.id, in: company.id, newPasswordHash: nil, keepingSession: nil, audit: .byTest) { t, _ in
            t.name = "Renamed"
        }
        #expect(try fixture.sessionCount(of: trainer.id) == 2)
        #expect(try await fixture.store.trainers.credentials(id: trainer.id, in: company.id)?.passwordHash == "original-hash")
    }

    @Test func deleteRemovesTheTrainerAndCascadesToSessions() async throws {
        let fixture = try StoreFixture()
        let company = try await fixture.makeCompany()
        let trainer = try await fixture.makeTrainer(in: company)
        let colleague = try await fixture.makeTrainer(in: company)
        try await fixture.makeSession(for: trainer)
        try await fixture.makeSession(for: trainer)
        try await fixture.makeSession(for: colleague)

        #expect(try await fixture.store.trainers.delete(trainer.id, in: company.id, audit: .byTest) { _, _ in })
        #expect(try await fixture.store.trainers.find(trainer.id, in: company.id) == nil)
        #expect(try fixture.sessionCount(of: trainer.id) == 0)
        #expect(try fixture.sessionCount(of: colleague.id) == 1)
    }

    @Test func deleteWhoseCheckThrowsKeepsTheTrainerAndSessions() async throws {
        let fixture = try StoreFixture()
        let company = try await fixture.makeCompany()
        let trainer = try await fixture.makeTrainer(in: company, role: .admin)
        try await fixture.makeSession(for: trainer)

        await #expect(throws: Refused.self) {
            _ = try await fixture.store.trainers.delete(trainer.id, in: company.id, audit: .byTest) { _, _ in throw Refused() }
        }
        #expect(try await fixture.store.trainers.find(trainer.id, in: company.id) == trainer)
        #expect(try fixture.sessionCount(of: trainer.id) == 1)
    }

    @Test func deleteHandsTheCheckTheTrainerAndAdminCount() async throws {
        let fixture = try StoreFixture()
        let company = try await fixture.makeCompany()
        let admin = try await fixture.makeTrainer(in: company, role: .admin)

        let otherAdmin = Trainer(
            companyId: company.id,
            email: "other@example.com",
            name: "Other",
            role: .admin,
            createdAt: admin.createdAt,
            updatedAt: admin.createdAt
        )
        await #expect(throws: TrainerRules.Refusal.lastAdmin) {
            _ = try await fixture.store.trainers.delete(admin.id, in: company.id, audit: .byTest) { target, adminCount in
                #expect(target == admin && adminCount == 1)
                try TrainerRules.checkRemoval(actor: otherAdmin, target: target, adminCount: adminCount)
            }
        }
        #expect(try await fixture.store.trainers.find(admin.id, in: company.id) == admin)
    }

    @Test func deleteOfATrainerInAnotherCompanyReturnsFalse() async throws {
        let fixture = try StoreFixture()
        let company = try await fixture.makeCompany()
        let other = try await fixture.makeCompany("Other")
        let trainer = try await fixture.makeTrainer(in: company)

        #expect(try await fixture.store.trainers.delete(trainer.id, in: other.id, audit: .byTest) { _, _ in } == false)
        #expect(try await fixture.store.trainers.delete(UUID(), in: company.id, audit: .byTest) { _, _ in } == false)
        #expect(try await fixture.store.trainers.find(trainer.id, in: company.id) == trainer)
    }

    private func adminCountSeenByUpdate(_ fixture: StoreFixture, _ trainer: Trainer) async throws -> Int? {
        let seen = SeenCount()
        _ = try await fixture.store.trainers.update(trainer.id, in: trainer.companyId, newPasswordHash: nil, keepingSession: nil, audit: .byTest) {
            _,
            count in
            seen.value = count
        }
        return seen.value
    }
}

/// Carries a value out of a non-escaping closure.
private final class SeenCount: @unchecked Sendable {
    var value: Int?
}
