import Foundation
import HealthwheelCore
import Testing

@Suite struct TrainerEditTests {
    static let company = UUID()
    static let then = Date(timeIntervalSince1970: 1_800_000_000)
    static let now = then.addingTimeInterval(60)

    static func trainer(_ role: Role) -> Trainer {
        Trainer(companyId: company, email: "\(UUID())@example.com", name: "Someone", role: role, createdAt: then, updatedAt: then)
    }

    @Test func everyBadFieldIsReportedAtOnce() {
        let edit = TrainerEdit(email: "nope", name: " ", role: "owner", password: "short")
        let error = #expect(throws: ValidationError.self) { try edit.check(bySelf: false) }
        #expect(error?.errors.map(\.field) == ["email", "name", "role", "password"])
    }

    @Test func theCurrentPasswordAloneIsRefused() {
        let error = #expect(throws: ValidationError.self) { try TrainerEdit(currentPassword: "whatever").check(bySelf: true) }
        #expect(error?.errors.map(\.field) == ["currentPassword"])
    }

    @Test func theCurrentPasswordIsKeptOnlyForAnOwnChange() throws {
        let edit = TrainerEdit(password: "a long enough password", currentPassword: "the old password")
        #expect(try edit.check(bySelf: true).currentPassword == "the old password")
        #expect(try edit.check(bySelf: false).currentPassword == nil)
        // Whether it is missing is the use case's question (a 403), not a malformed body's.
        #expect(try TrainerEdit(password: "a long enough password").check(bySelf: true).currentPassword == nil)
    }

    @Test func fieldsAreNormalisedAndApplied() throws {
        var target = Self.trainer(.trainer)
        let admin = Self.trainer(.admin)
        let checked = try TrainerEdit(email: " New@Example.COM ", name: " Ada ", role: "admin").check(bySelf: false)
        try checked.apply(to: &target, by: admin, adminCount: 1, at: Self.now)
        #expect(target.email == "new@example.com" && target.name == "Ada" && target.role == .admin)
        #expect(target.updatedAt == Self.now)
    }

    @Test func anEditThatChangesNothingKeepsUpdatedAt() throws {
        var target = Self.trainer(.trainer)
        let checked = try TrainerEdit(name: target.name).check(bySelf: true)
        try checked.apply(to: &target, by: target, adminCount: 1, at: Self.now)
        #expect(target.updatedAt == Self.then)
    }

    @Test func aNewPasswordAloneMovesUpdatedAt() throws {
        var target = Self.trainer(.trainer)
        let checked = try TrainerEdit(password: "a long enough password").check(bySelf: false)
        try checked.apply(to: &target, by: Self.trainer(.admin), adminCount: 1, at: Self.now)
        #expect(target.updatedAt == Self.now)
    }

    @Test func aTrainerCannotPromoteThemself() throws {
        var target = Self.trainer(.trainer)
        let checked = try TrainerEdit(role: "admin").check(bySelf: true)
        let refusal = #expect(throws: TrainerRules.Refusal.self) { try checked.apply(to: &target, by: target, adminCount: 1, at: Self.now) }
        #expect(refusal == .forbidden("only an admin can change a role"))
        #expect(target.role == .trainer)
    }

    @Test func theLastAdminKeepsTheirRole() throws {
        var admin = Self.trainer(.admin)
        let checked = try TrainerEdit(role: "trainer").check(bySelf: true)
        #expect(throws: TrainerRules.Refusal.lastAdmin) { try checked.apply(to: &admin, by: admin, adminCount: 1, at: Self.now) }
    }
}

@Suite struct NewTrainerTests {
    @Test func aValidTrainerIsMadeInTheCompany() throws {
        let company = UUID()
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let trainer = try NewTrainer(email: "Coach@Example.com", name: "Coach", role: "trainer", password: "a long enough password")
            .trainer(in: company, at: now)
        #expect(trainer.companyId == company && trainer.email == "coach@example.com" && trainer.role == .trainer)
        #expect(trainer.createdAt == now && trainer.updatedAt == now)
    }

    @Test func everyBadFieldIsReportedAtOnce() {
        let error = #expect(throws: ValidationError.self) {
            try NewTrainer(email: "", name: "", role: "boss", password: "short").trainer(in: UUID(), at: Date())
        }
        #expect(error?.errors.map(\.field) == ["email", "name", "role", "password"])
    }
}
