import Foundation
import HTTPTypes
import HealthwheelCore
import Store
import StoreContract
import Testing

@testable import API

@Suite struct TrainerTests {
    static func newTrainerJSON(email: String = "new@example.com", role: String = "trainer") -> String {
        jsonString(["email": email, "name": "New Trainer", "role": role, "password": "a long enough password"])
    }

    @Test func adminCreatesATrainerWhoCanLogIn() async throws {
        try await withAPI { fixture, client in
            let company = try await fixture.company()
            let token = try await client.token(for: try await fixture.trainer(in: company, role: .admin))
            let created = try await client.send(.post, "/v1/trainers", token: token, json: Self.newTrainerJSON(email: " New@Example.com "))
            #expect(created.status == .created)
            let id = try #require(created.object["id"] as? String)
            #expect(created.headers[.location] == "/v1/trainers/\(id)")
            #expect(created.object["email"] as? String == "new@example.com")
            #expect(created.object["companyId"] as? String == company.id.uuidString)
            #expect(created.object["password"] == nil && created.object["passwordHash"] == nil)

            let login = try await client.login("new@example.com", "a long enough password")
            #expect(login.status == .ok)
            #expect(try await client.send(.get, "/v1/trainers/\(id)", token: token).object["name"] as? String == "New Trainer")
        }
    }

    @Test func creatingATrainerValidatesEveryField() async throws {
        try await withAPI { fixture, client in
            let token = try await client.token(for: try await fixture.trainer(in: try await fixture.company(), role: .admin))
            let body = jsonString(["email": "not-an-email", "name": "  ", "role": "owner", "password": "short"])
            let response = try await client.send(.post, "/v1/trainers", token: token, json: body)
            expectProblem(response, .unprocessableContent, fields: ["email", "name", "role", "password"])
            let count: Int = try fixture.database.readBlocking { try await $0.scalar("SELECT count(*) FROM trainers") }
            #expect(count == 1)
        }
    }

    @Test func anEmailIsUniqueWithinACompanyOnly() async throws {
        try await withAPI { fixture, client in
            let elsewhere = try await fixture.trainer(in: try await fixture.company())
            let company = try await fixture.company()
            let colleague = try await fixture.trainer(in: company)
            let token = try await client.token(for: try await fixture.trainer(in: company, role: .admin))

            // Another company's trainer neither blocks the address nor is revealed by it.
            let created = try await client.send(.post, "/v1/trainers", token: token, json: Self.newTrainerJSON(email: elsewhere.email.uppercased()))
            #expect(created.status == .created, "\(created.text)")
            let id = try #require(created.object["id"] as? String)

            let again = try await client.send(.post, "/v1/trainers", token: token, json: Self.newTrainerJSON(email: elsewhere.email))
            expectProblem(again, .conflict, fields: ["email"])
            #expect(again.object["type"] as? String == "urn:healthwheel:problem:email-taken")
            let renamed = try await client.send(.patch, "/v1/trainers/\(id)", token: token, json: jsonString(["email": colleague.email]))
            expectProblem(renamed, .conflict, fields: ["email"])
            let count: Int = try fixture.database.readBlocking {
                try await $0.scalar("SELECT count(*) FROM trainers WHERE email = ?", elsewhere.email)
            }
            #expect(count == 2)
        }
    }

    @Test func trainersCannotUseAdminRoutes() async throws {
        try await withAPI { fixture, client in
            let company = try await fixture.company()
            let colleague = try await fixture.trainer(in: company)
            let token = try await client.token(for: try await fixture.trainer(in: company))
            expectProblem(try await client.send(.get, "/v1/trainers", token: token), .forbidden)
            expectProblem(try await client.send(.post, "/v1/trainers", token: token, json: Self.newTrainerJSON()), .forbidden)
            let colleaguePath = "/v1/trainers/\(colleague.trainer.id)"
            expectProblem(try await client.send(.get, colleaguePath, token: token), .forbidden)
            expectProblem(try await client.send(.patch, colleaguePath, token: token, json: #"{"name":"Renamed"}"#), .forbidden)
            expectProblem(try await client.send(.delete, colleaguePath, token: token), .forbidden)
            #expect(try await fixture.store.trainers.find(colleague.trainer.id, in: company.id) == colleague.trainer)
        }
    }

    @Test func aTrainerEditsTheirOwnProfileButCannotPromoteThemself() async throws {
        try await withAPI { fixture, client in
            let company = try await fixture.company()
            _ = try await fixture.trainer(in: company, role: .admin)
            let me = try await fixture.trainer(in: company)
            let token = try await client.token(for: me)
            let path = "/v1/trainers/\(me.trainer.id)"

            expectProblem(try await client.send(.patch, path, token: token, json: #"{"role":"admin"}"#), .forbidden)
            let renamed = try await client.send(.patch, path, token: token, json: #"{"name":"Sam Strong"}"#)
            #expect(renamed.status == .ok)
            #expect(renamed.object["name"] as? String == "Sam Strong")
            #expect(renamed.object["role"] as? String == "trainer")
            #expect(try await client.send(.get, path, token: token).object["name"] as? String == "Sam Strong")
        }
    }

    @Test func theLastAdminCannotBeDemotedOrDeleted() async throws {
        try await withAPI { fixture, client in
            let company = try await fixture.company()
            let admin = try await fixture.trainer(in: company, role: .admin)
            let token = try await client.token(for: admin)
            let path = "/v1/trainers/\(admin.trainer.id)"
            expectProblem(try await client.send(.patch, path, token: token, json: #"{"role":"trainer"}"#), .conflict, fields: ["role"])
            expectProblem(try await client.send(.delete, path, token: token), .conflict)

            let second = try await fixture.trainer(in: company, role: .admin)
            #expect(try await client.send(.patch, "/v1/trainers/\(second.trainer.id)", token: token, json: #"{"role":"trainer"}"#).status == .ok)
            let promote = try await client.send(.patch, "/v1/trainers/\(second.trainer.id)", token: token, json: #"{"role":"admin"}"#)
            #expect(promote.object["role"] as? String == "admin")
            // An admin does not delete themself (the stateful clients would lose the account they act with).
            let own = try await client.send(.delete, path, token: token)
            expectProblem(own, .conflict)
            #expect(own.object["type"] as? String == "urn:healthwheel:problem:own-account")
            let secondToken = try await client.token(for: second)
            #expect(try await client.send(.delete, path, token: secondToken).status == .noContent)
            // A deleted trainer's sessions end with them.
            expectProblem(try await client.send(.get, "/v1/me", token: token), .unauthorized)
        }
    }

    @Test func deletingATrainerEndsTheirSessions() async throws {
        try await withAPI { fixture, client in
            let company = try await fixture.company()
            let adminToken = try await client.token(for: try await fixture.trainer(in: company, role: .admin))
            let leaver = try await fixture.trainer(in: company)
            let leaverToken = try await client.token(for: leaver)
            #expect(try await client.send(.delete, "/v1/trainers/\(leaver.trainer.id)", token: adminToken).status == .noContent)
            expectProblem(try await client.send(.get, "/v1/me", token: leaverToken), .unauthorized)
            expectProblem(try await client.send(.get, "/v1/trainers/\(leaver.trainer.id)", token: adminToken), .notFound)
        }
    }

    @Test func changingYourOwnPasswordNeedsTheCurrentOneAndEndsOtherSessions() async throws {
        try await withAPI { fixture, client in
            let me = try await fixture.trainer(in: try await fixture.company())
            let token = try await client.token(for: me)
            let otherDevice = try await client.token(for: me)
            let path = "/v1/trainers/\(me.trainer.id)"

            let missing = try await client.send(.patch, path, token: token, json: #"{"password":"a brand new password"}"#)
            expectProblem(missing, .forbidden, fields: ["currentPassword"])
            #expect(missing.object["type"] as? String == "urn:healthwheel:problem:current-password-required")
            let wrong = try await client.send(
                .patch,
                path,
                token: token,
                json: #"{"password":"a brand new password","currentPassword":"not my password"}"#
            )
            expectProblem(wrong, .forbidden, fields: ["currentPassword"])
            #expect(try await client.send(.get, "/v1/me", token: otherDevice).status == .ok)

            let body = jsonString(["password": "a brand new password", "currentPassword": me.password])
            #expect(try await client.send(.patch, path, token: token, json: body).status == .ok)
            #expect(try await client.send(.get, "/v1/me", token: token).status == .ok)
            expectProblem(try await client.send(.get, "/v1/me", token: otherDevice), .unauthorized)
            expectProblem(try await client.login(me.email, me.password), .unauthorized)
            #expect(try await client.login(me.email, "a brand new password").status == .ok)
        }
    }

    @Test func anAdminResetsAnotherTrainersPasswordWithoutTheirCurrentOne() async throws {
        try await withAPI { fixture, client in
            let company = try await fixture.company()
            let adminToken = try await client.token(for: try await fixture.trainer(in: company, role: .admin))
            let trainer = try await fixture.trainer(in: company)
            let trainerToken = try await client.token(for: trainer)
            let reset = try await client.send(
                .patch,
                "/v1/trainers/\(trainer.trainer.id)",
                token: adminToken,
                json: #"{"password":"reset by the admin"}"#
            )
            #expect(reset.status == .ok)
            expectProblem(try await client.send(.get, "/v1/me", token: trainerToken), .unauthorized)
            #expect(try await client.login(trainer.email, "reset by the admin").status == .ok)
        }
    }

    @Test func aRejectedPatchChangesNothing() async throws {
        try await withAPI { fixture, client in
            let company = try await fixture.company()
            let admin = try await fixture.trainer(in: company, role: .admin, name: "Original Name")
            let token = try await client.token(for: admin)
            let path = "/v1/trainers/\(admin.trainer.id)"
            let response = try await client.send(.patch, path, token: token, json: #"{"name":"New Name","email":"broken"}"#)
            expectProblem(response, .unprocessableContent, fields: ["email"])
            expectProblem(try await client.send(.patch, path, token: token, json: #"{"name":null}"#), .unprocessableContent, fields: ["name"])
            expectProblem(
                try await client.send(.patch, path, token: token, json: #"{"name":"New Name","companyId":"x"}"#),
                .unprocessableContent,
                fields: ["companyId"]
            )
            let stored = try await fixture.store.trainers.find(admin.trainer.id, in: company.id)
            #expect(stored == admin.trainer)
        }
    }

    @Test func listIsPaginatedByNameWithAnOpaqueCursor() async throws {
        try await withAPI { fixture, client in
            let company = try await fixture.company()
            let admin = try await fixture.trainer(in: company, role: .admin, name: "Mia Admin")
            for name in ["zoe", "Adam", "bella", "Carl"] { _ = try await fixture.trainer(in: company, name: name) }
            _ = try await fixture.trainer(in: try await fixture.company(), name: "Other Company")
            let token = try await client.token(for: admin)

            var names: [String] = []
            var cursor: String?
            var pages = 0
            repeat {
                let uri = "/v1/trainers?limit=2" + (cursor.map { "&cursor=\($0)" } ?? "")
                let page = try await client.send(.get, uri, token: token)
                #expect(page.status == .ok)
                let items = try #require(page.object["items"] as? [[String: Any]])
                #expect(items.count <= 2)
                names += items.compactMap { $0["name"] as? String }
                cursor = page.object["nextCursor"] as? String
                pages += 1
            } while cursor != nil && pages < 10
            #expect(names == ["Adam", "bella", "Carl", "Mia Admin", "zoe"])
            #expect(pages == 3)

            expectProblem(try await client.send(.get, "/v1/trainers?limit=0", token: token), .unprocessableContent, fields: ["limit"])
            expectProblem(try await client.send(.get, "/v1/trainers?limit=201", token: token), .unprocessableContent, fields: ["limit"])
            expectProblem(try await client.send(.get, "/v1/trainers?cursor=%%%", token: token), .notFound, fields: ["cursor"])
        }
    }

    @Test func anotherCompanysTrainersAreNotFound() async throws {
        try await withAPI { fixture, client in
            let first = try await fixture.company()
            let firstAdmin = try await fixture.trainer(in: first, role: .admin)
            let firstTrainer = try await fixture.trainer(in: first)
            let intruder = try await client.token(for: try await fixture.trainer(in: try await fixture.company(), role: .admin))

            for target in [firstAdmin.trainer.id, firstTrainer.trainer.id] {
                let path = "/v1/trainers/\(target)"
                expectProblem(try await client.send(.get, path, token: intruder), .notFound)
                expectProblem(try await client.send(.patch, path, token: intruder, json: #"{"name":"Hacked"}"#), .notFound)
                expectProblem(try await client.send(.patch, path, token: intruder, json: #"{"role":"trainer"}"#), .notFound)
                expectProblem(try await client.send(.delete, path, token: intruder), .notFound)
            }
            let missing = try await client.send(.get, "/v1/trainers/\(UUID())", token: intruder)
            let foreign = try await client.send(.get, "/v1/trainers/\(firstAdmin.trainer.id)", token: intruder)
            #expect(missing.text == foreign.text)
            expectProblem(try await client.send(.get, "/v1/trainers/not-a-uuid", token: intruder), .notFound)

            let list = try await client.send(.get, "/v1/trainers", token: intruder)
            #expect((list.object["items"] as? [[String: Any]])?.count == 1)
            #expect(try await fixture.store.trainers.find(firstAdmin.trainer.id, in: first.id) == firstAdmin.trainer)
            #expect(try await fixture.store.trainers.find(firstTrainer.trainer.id, in: first.id) == firstTrainer.trainer)
        }
    }
}
