import Foundation
import HealthwheelCore
import Testing

private let companyId = UUID()

private func makeTrainer(_ role: Role) -> Trainer {
    let date = Date(timeIntervalSince1970: 1_800_000_000)
    return Trainer(companyId: companyId, email: "\(UUID())@example.com", name: "Someone", role: role, createdAt: date, updatedAt: date)
}

@Suite struct RoleChangeRuleTests {
    @Test func aTrainerCannotChangeTheirOwnRole() {
        let trainer = makeTrainer(.trainer)
        let refusal = #expect(throws: TrainerRules.Refusal.self) {
            try TrainerRules.checkRoleChange(actor: trainer, target: trainer, to: .admin, adminCount: 1)
        }
        guard case .forbidden = refusal else {
            Issue.record("expected .forbidden, got \(String(describing: refusal))")
            return
        }
    }

    @Test func aTrainerCannotChangeAnotherTrainersRole() {
        let refusal = #expect(throws: TrainerRules.Refusal.self) {
            try TrainerRules.checkRoleChange(actor: makeTrainer(.trainer), target: makeTrainer(.trainer), to: .admin, adminCount: 1)
        }
        guard case .forbidden = refusal else {
            Issue.record("expected .forbidden, got \(String(describing: refusal))")
            return
        }
    }

    @Test func anAdminCanDemoteAnotherAdminWhenThereAreTwo() throws {
        try TrainerRules.checkRoleChange(actor: makeTrainer(.admin), target: makeTrainer(.admin), to: .trainer, adminCount: 2)
    }

    @Test func anAdminCanPromoteATrainer() throws {
        try TrainerRules.checkRoleChange(actor: makeTrainer(.admin), target: makeTrainer(.trainer), to: .admin, adminCount: 1)
    }

    @Test func demotingTheLastAdminIsRefused() {
        let admin = makeTrainer(.admin)
        #expect(throws: TrainerRules.Refusal.lastAdmin) {
            try TrainerRules.checkRoleChange(actor: admin, target: admin, to: .trainer, adminCount: 1)
        }
    }

    @Test(arguments: Role.allCases, [0, 1, 2])
    func aSameRoleChangeIsAlwaysAllowed(role: Role, adminCount: Int) throws {
        for actorRole in Role.allCases {
            try TrainerRules.checkRoleChange(actor: makeTrainer(actorRole), target: makeTrainer(role), to: role, adminCount: adminCount)
        }
    }
}

@Suite struct RemovalRuleTests {
    @Test func aTrainerCannotRemoveAnyone() {
        let trainer = makeTrainer(.trainer)
        for target in [trainer, makeTrainer(.trainer), makeTrainer(.admin)] {
            let refusal = #expect(throws: TrainerRules.Refusal.self) {
                try TrainerRules.checkRemoval(actor: trainer, target: target, adminCount: 2)
            }
            guard case .forbidden = refusal else {
                Issue.record("expected .forbidden, got \(String(describing: refusal))")
                continue
            }
        }
    }

    @Test func removingTheLastAdminIsRefused() {
        // Another admin's request, counted after that admin was removed meanwhile.
        #expect(throws: TrainerRules.Refusal.lastAdmin) {
            try TrainerRules.checkRemoval(actor: makeTrainer(.admin), target: makeTrainer(.admin), adminCount: 1)
        }
    }

    @Test func anAdminCannotRemoveThemself() {
        let admin = makeTrainer(.admin)
        for adminCount in [1, 2] {
            #expect(throws: TrainerRules.Refusal.ownAccount) {
                try TrainerRules.checkRemoval(actor: admin, target: admin, adminCount: adminCount)
            }
        }
    }

    @Test func anAdminCanRemoveAnotherAdminWhenThereAreTwo() throws {
        try TrainerRules.checkRemoval(actor: makeTrainer(.admin), target: makeTrainer(.admin), adminCount: 2)
    }

    @Test func removingATrainerWithOneAdminIsAllowed() throws {
        try TrainerRules.checkRemoval(actor: makeTrainer(.admin), target: makeTrainer(.trainer), adminCount: 1)
    }
}

@Suite struct ProfileAccessRuleTests {
    @Test func aTrainerMayManageThemself() throws {
        let trainer = makeTrainer(.trainer)
        try TrainerRules.checkProfileAccess(actor: trainer, target: trainer)
    }

    @Test func aTrainerMayNotManageAnotherTrainer() {
        let refusal = #expect(throws: TrainerRules.Refusal.self) {
            try TrainerRules.checkProfileAccess(actor: makeTrainer(.trainer), target: makeTrainer(.trainer))
        }
        guard case .forbidden = refusal else {
            Issue.record("expected .forbidden, got \(String(describing: refusal))")
            return
        }
    }

    @Test func aTrainerMayNotManageAnAdmin() {
        #expect(throws: TrainerRules.Refusal.self) {
            try TrainerRules.checkProfileAccess(actor: makeTrainer(.trainer), target: makeTrainer(.admin))
        }
    }

    @Test func anAdminMayManageOthers() throws {
        let admin = makeTrainer(.admin)
        try TrainerRules.checkProfileAccess(actor: admin, target: makeTrainer(.trainer))
        try TrainerRules.checkProfileAccess(actor: admin, target: makeTrainer(.admin))
    }
}
