import Foundation
import HTTPTypes
import HealthwheelCore
import HummingbirdTesting
import Store
import StoreContract
import Testing

@testable import API

/// `/v1/clients`: create, show, change and delete clients, with measurements in any accepted unit stored as SI.
@Suite struct ClientsTests {
    @Test func createsAClientWithUnitsStoredInSI() async throws {
        try await withAPI { fixture, client in
            let company = try await fixture.company()
            let trainer = try await fixture.trainer(in: company)
            let token = try await client.token(for: trainer)
            let body = """
                {"givenName": " Ada ", "familyName": "Lovelace", "email": "Ada@Example.com", "birthDate": "1985-03-14",
                 "sex": "female", "height": {"value": 5, "unit": "ft", "inches": 11}, "mass": {"value": 154, "unit": "lb"}}
                """
            let created = try await client.send(.post, "/v1/clients", token: token, json: body)
            #expect(created.status == .created)
            let id = try #require(created.object["id"] as? String)
            #expect(created.headers[.location] == "/v1/clients/\(id)")
            let json = created.jsonBody
            #expect(json["givenName"] == .string("Ada"))
            #expect(json["email"] == .string("ada@example.com"))
            #expect(json["height"] == .number(1.8034))
            #expect(json["mass"] == .number(69.8532))
            #expect(json["age"] == .number(41))
            #expect(json["companyId"] == .string(company.id.uuidString))
            #expect(json["assignedTrainerId"] == .string(trainer.trainer.id.uuidString))
            #expect(json["hasPhoto"] == .bool(false))
            #expect(json["screeningStatus"] == .string("none"))
            #expect(json["flags"] == .array([]))
            #expect(json["rescreenDue"] == .bool(false))
            #expect(json["createdAt"] == .string("2027-01-15T08:00:00Z"))
            #expect(json["display"] == nil)

            let shown = try await client.send(.get, "/v1/clients/\(id)", token: token)
            #expect(shown.status == .ok)
            #expect(shown.jsonBody == json)
        }
    }

    @Test func heightInCentimetresIsStoredInMetres() async throws {
        try await withAPI { fixture, client in
            let token = try await client.token(for: try await fixture.trainer(in: try await fixture.company()))
            let response = try await client.send(
                .post,
                "/v1/clients",
                token: token,
                json: #"{"givenName": "Bo", "height": {"value": 180, "unit": "cm"}}"#
            )
            #expect(response.status == .created)
            #expect(response.jsonBody["height"] == .number(1.8))
        }
    }

    @Test func imperialUnitsAddDisplayValues() async throws {
        try await withAPI { fixture, client in
            let token = try await client.token(for: try await fixture.trainer(in: try await fixture.company()))
            let body = #"{"givenName": "Ada", "height": {"value": 5, "unit": "ft", "inches": 11}, "mass": 70}"#
            let created = try await client.send(.post, "/v1/clients?units=imperial", token: token, json: body)
            #expect(created.status == .created)
            let display = try #require(created.jsonBody["display"])
            #expect(display["height"]?["text"] == .string("5 ft 11 in"))
            #expect(display["height"]?["feet"] == .number(5))
            #expect(display["height"]?["inches"] == .number(11))
            #expect(display["mass"]?["text"] == .string("154.3 lb"))
            #expect(display["mass"]?["pounds"] == .number(154.3))
            // The stored values stay SI.
            #expect(created.jsonBody["height"] == .number(1.8034))
            #expect(created.jsonBody["mass"] == .number(70))

            let id = try #require(created.object["id"] as? String)
            let shown = try await client.send(.get, "/v1/clients/\(id)?units=imperial", token: token)
            #expect(shown.jsonBody["display"] == display)
            let listed = try await client.send(.get, "/v1/clients?units=imperial", token: token)
            #expect(listed.jsonBody["items"]?.array?.first?["display"] == display)
            #expect(try await client.send(.get, "/v1/clients/\(id)?units=metric", token: token).jsonBody["display"] == nil)
        }
    }

    @Test func imperialDisplayOfUnknownMeasurementsIsNull() async throws {
        try await withAPI { fixture, client in
            let token = try await client.token(for: try await fixture.trainer(in: try await fixture.company()))
            let created = try await client.send(.post, "/v1/clients?units=imperial", token: token, json: #"{"givenName": "Ada"}"#)
            #expect(created.jsonBody["display"] == .object(["height": .null, "mass": .null]))
        }
    }

    @Test func anUnknownUnitsParameterIs422() async throws {
        try await withAPI { fixture, client in
            let token = try await client.token(for: try await fixture.trainer(in: try await fixture.company()))
            let id = try await client.createClient(given: "Ada", family: nil, token: token)
            expectProblem(try await client.send(.get, "/v1/clients/\(id)?units=furlongs", token: token), .unprocessableContent, fields: ["units"])
            expectProblem(try await client.send(.get, "/v1/clients?units=furlongs", token: token), .unprocessableContent, fields: ["units"])
        }
    }

    @Test func aBadHeightUnitIs422NamingTheUnitFieldAndTheAcceptedUnits() async throws {
        try await withAPI { fixture, client in
            let token = try await client.token(for: try await fixture.trainer(in: try await fixture.company()))
            let response = try await client.send(
                .post,
                "/v1/clients",
                token: token,
                json: #"{"givenName": "Ada", "height": {"value": 180, "unit": "furlong"}}"#
            )
            expectProblem(response, .unprocessableContent, fields: ["height.unit"])
            let message = response.problemMessages.first ?? ""
            for unit in ["m", "cm", "mm", "in", "ft"] {
                #expect(message.contains(unit), "\(message) lists \(unit)")
            }
            #expect(try await client.send(.get, "/v1/clients", token: token).listItems.isEmpty)
        }
    }

    @Test func aBadMassUnitIs422NamingTheUnitField() async throws {
        try await withAPI { fixture, client in
            let token = try await client.token(for: try await fixture.trainer(in: try await fixture.company()))
            let response = try await client.send(
                .post,
                "/v1/clients",
                token: token,
                json: #"{"givenName": "Ada", "mass": {"value": 154, "unit": "lbs"}}"#
            )
            expectProblem(response, .unprocessableContent, fields: ["mass.unit"])
            let message = response.problemMessages.first ?? ""
            #expect(message.contains("kg") && message.contains("lb") && message.contains("st"))
        }
    }

    @Test func inchesWithCentimetresIs422NamingTheInches() async throws {
        try await withAPI { fixture, client in
            let token = try await client.token(for: try await fixture.trainer(in: try await fixture.company()))
            let body = #"{"givenName": "Ada", "height": {"value": 170, "unit": "cm", "inches": 2}}"#
            expectProblem(try await client.send(.post, "/v1/clients", token: token, json: body), .unprocessableContent, fields: ["height.inches"])
        }
    }

    @Test func everyInvalidFieldIsNamedAndNothingIsCreated() async throws {
        try await withAPI { fixture, client in
            let token = try await client.token(for: try await fixture.trainer(in: try await fixture.company()))
            let body = """
                {"givenName": "Ada", "email": "not-an-email", "phone": "call me", "birthDate": "2030-01-01", "sex": "other",
                 "height": {"value": 9, "unit": "m"}, "mass": -5}
                """
            let response = try await client.send(.post, "/v1/clients", token: token, json: body)
            expectProblem(response, .unprocessableContent)
            #expect(Set(response.problemFields) == ["email", "phone", "birthDate", "sex", "height", "mass"])
            #expect(response.problemFields.count == 6)
            let count: Int = try fixture.database.readBlocking { try await $0.scalar("SELECT count(*) FROM clients") }
            #expect(count == 0)
        }
    }

    @Test func aClientNeedsAGivenOrAFamilyName() async throws {
        try await withAPI { fixture, client in
            let token = try await client.token(for: try await fixture.trainer(in: try await fixture.company()))
            let response = try await client.send(.post, "/v1/clients", token: token, json: #"{"email": "someone@example.com", "givenName": "  "}"#)
            expectProblem(response, .unprocessableContent)
            #expect(response.problemFields.count == 1)
            #expect(["givenName", "familyName"].contains(response.problemFields.first))
            #expect(try await client.send(.get, "/v1/clients", token: token).listItems.isEmpty)
        }
    }

    @Test func aPatchBlankingBothNamesIs422AndBlankingTheOnlyOneIs409() async throws {
        try await withAPI { fixture, client in
            let token = try await client.token(for: try await fixture.trainer(in: try await fixture.company()))
            let id = try await client.createClient(given: "Cher", family: nil, token: token)
            let path = "/v1/clients/\(id)"
            // The body alone leaves no name: it breaks the document's schema (`not` both blank).
            expectProblem(try await client.send(.patch, path, token: token, json: #"{"givenName": " ", "familyName": null}"#), .unprocessableContent)
            // With what is stored it leaves none: a conflict with the stored client.
            let only = try await client.send(.patch, path, token: token, json: #"{"givenName": ""}"#)
            expectProblem(only, .conflict, fields: ["givenName"])
            #expect(only.object["type"] as? String == "urn:healthwheel:problem:name-required")
            #expect(try await client.send(.patch, path, token: token, json: #"{"givenName": null, "familyName": "Sarkisian"}"#).status == .ok)
            #expect(try await client.send(.get, path, token: token).jsonBody["familyName"] == .string("Sarkisian"))
        }
    }

    @Test func serverOwnedAndUnknownFieldsAre422NamingThem() async throws {
        try await withAPI { fixture, client in
            let token = try await client.token(for: try await fixture.trainer(in: try await fixture.company()))
            for field in ["id", "companyId", "age", "flags", "screeningStatus", "hasPhoto", "rescreenDue", "createdAt", "nickname"] {
                let body = #"{"givenName": "Ada", "\#(field)": "x"}"#
                expectProblem(try await client.send(.post, "/v1/clients", token: token, json: body), .unprocessableContent, fields: [field])
            }
            #expect(try await client.send(.get, "/v1/clients", token: token).listItems.isEmpty)

            let id = try await client.createClient(given: "Ada", family: nil, token: token)
            let before = try await client.send(.get, "/v1/clients/\(id)", token: token).jsonBody
            for field in ["id", "companyId", "age", "flags", "screeningStatus"] {
                let body = #"{"goal": "changed", "\#(field)": null}"#
                expectProblem(try await client.send(.patch, "/v1/clients/\(id)", token: token, json: body), .unprocessableContent, fields: [field])
            }
            #expect(try await client.send(.get, "/v1/clients/\(id)", token: token).jsonBody == before)
        }
    }

    @Test func patchKeepsUnspecifiedFieldsAndNullClears() async throws {
        try await withAPI { fixture, client in
            let token = try await client.token(for: try await fixture.trainer(in: try await fixture.company()))
            let id = try await client.createClient(ClientsAPI.ada, token: token)
            let before = try await client.send(.get, "/v1/clients/\(id)", token: token).jsonBody
            fixture.clock.advance(by: 3_600)
            let patched = try await client.send(
                .patch,
                "/v1/clients/\(id)",
                token: token,
                json: #"{"goal": " Swim 1 km ", "email": null, "mass": null}"#
            )
            #expect(patched.status == .ok)
            let after = patched.jsonBody
            #expect(after["goal"] == .string("Swim 1 km"))
            #expect(after["email"] == .null)
            #expect(after["mass"] == .null)
            #expect(after["updatedAt"] == .string("2027-01-15T09:00:00Z"))
            for key in ["givenName", "familyName", "phone", "birthDate", "sex", "height", "createdAt", "assignedTrainerId"] {
                #expect(after[key] == before[key], "\(key)")
            }
            #expect(try await client.send(.get, "/v1/clients/\(id)", token: token).jsonBody == after)
        }
    }

    @Test func anEmptyPatchChangesNothingNotEvenUpdatedAt() async throws {
        try await withAPI { fixture, client in
            let token = try await client.token(for: try await fixture.trainer(in: try await fixture.company()))
            let id = try await client.createClient(ClientsAPI.ada, token: token)
            let before = try await client.send(.get, "/v1/clients/\(id)", token: token).jsonBody
            fixture.clock.advance(by: 3_600)
            let patched = try await client.send(.patch, "/v1/clients/\(id)", token: token, json: "{}")
            #expect(patched.status == .ok)
            #expect(patched.jsonBody == before)
            #expect(patched.jsonBody["updatedAt"] == .string("2027-01-15T08:00:00Z"))
        }
    }

    @Test func anInvalidPatchChangesNothing() async throws {
        try await withAPI { fixture, client in
            let token = try await client.token(for: try await fixture.trainer(in: try await fixture.company()))
            let id = try await client.createClient(ClientsAPI.ada, token: token)
            let before = try await client.send(.get, "/v1/clients/\(id)", token: token).jsonBody
            let response = try await client.send(
                .patch,
                "/v1/clients/\(id)",
                token: token,
                json: #"{"goal": "New", "height": {"value": 6, "unit": "yd"}}"#
            )
            expectProblem(response, .unprocessableContent, fields: ["height.unit"])
            #expect(try await client.send(.get, "/v1/clients/\(id)", token: token).jsonBody == before)
        }
    }

    @Test func aClientIsAssignedToItsCreatorAndCanBeReassignedWithinTheCompany() async throws {
        try await withAPI { fixture, client in
            let company = try await fixture.company()
            let colleague = try await fixture.trainer(in: company)
            let token = try await client.token(for: try await fixture.trainer(in: company))
            let id = try await client.createClient(given: "Ada", family: nil, token: token)
            let body = #"{"assignedTrainerId": "\#(colleague.trainer.id.uuidString)"}"#
            let patched = try await client.send(.patch, "/v1/clients/\(id)", token: token, json: body)
            #expect(patched.jsonBody["assignedTrainerId"] == .string(colleague.trainer.id.uuidString))
            let cleared = try await client.send(.patch, "/v1/clients/\(id)", token: token, json: #"{"assignedTrainerId": null}"#)
            #expect(cleared.jsonBody["assignedTrainerId"] == .null)
        }
    }

    @Test func aTrainerOfAnotherCompanyCannotBeAssigned() async throws {
        try await withAPI { fixture, client in
            let outsider = try await fixture.trainer(in: try await fixture.company())
            let company = try await fixture.company()
            let me = try await fixture.trainer(in: company)
            let token = try await client.token(for: me)
            let foreign = #""assignedTrainerId": "\#(outsider.trainer.id.uuidString)""#
            expectProblem(
                try await client.send(.post, "/v1/clients", token: token, json: #"{"givenName": "Ada", \#(foreign)}"#),
                .notFound,
                fields: ["assignedTrainerId"]
            )
            let id = try await client.createClient(given: "Ada", family: nil, token: token)
            expectProblem(
                try await client.send(.patch, "/v1/clients/\(id)", token: token, json: "{\(foreign)}"),
                .notFound,
                fields: ["assignedTrainerId"]
            )
            expectProblem(
                try await client.send(.patch, "/v1/clients/\(id)", token: token, json: #"{"assignedTrainerId": "\#(UUID().uuidString)"}"#),
                .notFound,
                fields: ["assignedTrainerId"]
            )
            let shown = try await client.send(.get, "/v1/clients/\(id)", token: token)
            #expect(shown.jsonBody["assignedTrainerId"] == .string(me.trainer.id.uuidString))
        }
    }

    @Test func anUnknownClientIs404() async throws {
        try await withAPI { fixture, client in
            let token = try await client.token(for: try await fixture.trainer(in: try await fixture.company()))
            expectProblem(try await client.send(.get, "/v1/clients/\(UUID().uuidString)", token: token), .notFound)
            expectProblem(try await client.send(.get, "/v1/clients/not-a-uuid", token: token), .notFound)
            expectProblem(try await client.send(.patch, "/v1/clients/\(UUID().uuidString)", token: token, json: #"{"goal": "x"}"#), .notFound)
            expectProblem(try await client.send(.delete, "/v1/clients/\(UUID().uuidString)", token: token), .notFound)
        }
    }

    @Test func clientRoutesNeedAToken() async throws {
        try await withAPI { _, client in
            expectProblem(try await client.send(.get, "/v1/clients"), .unauthorized)
            expectProblem(try await client.send(.post, "/v1/clients", json: #"{"givenName": "Ada"}"#), .unauthorized)
        }
    }

    // MARK: - Delete

    @Test func aTrainerWhoIsNotAssignedCannotDeleteTheClient() async throws {
        try await withAPI { fixture, client in
            let company = try await fixture.company()
            let ownerToken = try await client.token(for: try await fixture.trainer(in: company))
            let otherToken = try await client.token(for: try await fixture.trainer(in: company))
            let id = try await client.createClient(given: "Ada", family: nil, token: ownerToken)
            expectProblem(try await client.send(.delete, "/v1/clients/\(id)", token: otherToken), .forbidden)
            #expect(try await client.send(.get, "/v1/clients/\(id)", token: otherToken).status == .ok)
        }
    }

    @Test func theAssignedTrainerDeletesTheirClient() async throws {
        try await withAPI { fixture, client in
            let token = try await client.token(for: try await fixture.trainer(in: try await fixture.company()))
            let id = try await client.createClient(given: "Ada", family: nil, token: token)
            #expect(try await client.send(.delete, "/v1/clients/\(id)", token: token).status == .noContent)
            expectProblem(try await client.send(.get, "/v1/clients/\(id)", token: token), .notFound)
        }
    }

    @Test func deletingAClientRemovesEverythingOfIt() async throws {
        try await withAPI { fixture, client in
            let company = try await fixture.company()
            let trainerToken = try await client.token(for: try await fixture.trainer(in: company))
            let adminToken = try await client.token(for: try await fixture.trainer(in: company, role: .admin))
            let id = try await client.createClient(ClientsAPI.ada, token: trainerToken)
            let keep = try await client.createClient(given: "Grace", family: "Hopper", token: trainerToken)
            let screening = try await client.completeScreening(client: id, token: trainerToken)
            let amended = try await client.send(
                .patch,
                "/v1/clients/\(id)/screenings/\(screening)",
                token: trainerToken,
                json: #"{"answers": {"goal": "Swim"}}"#
            )
            #expect(amended.status == .ok)
            let draft = try await client.startScreening(client: id, token: trainerToken)
            let photo = try await client.sendBytes(
                .put,
                "/v1/clients/\(id)/photo",
                token: trainerToken,
                contentType: "image/jpeg",
                bytes: ClientsAPI.jpeg()
            )
            #expect(photo.status == .noContent)
            let clientId = try #require(UUID(uuidString: id))
            let rows = { @Sendable () throws -> [Int] in
                try fixture.database.readBlocking { db in
                    var counts: [Int] = []
                    for sql in [
                        "SELECT count(*) FROM clients WHERE id = ?",
                        "SELECT count(*) FROM screenings WHERE client_id = ?",
                        "SELECT count(*) FROM screening_revisions r JOIN screenings s ON s.id = r.screening_id WHERE s.client_id = ?",
                        "SELECT count(*) FROM client_photos WHERE client_id = ?",
                        "SELECT count(*) FROM (SELECT 1 FROM client_search_terms WHERE client_id = ? LIMIT 1) AS any_term",
                    ] {
                        counts.append(try await db.scalar(sql, clientId))
                    }
                    return counts
                }
            }
            #expect(try rows() == [1, 2, 1, 1, 1])

            #expect(try await client.send(.delete, "/v1/clients/\(id)", token: adminToken).status == .noContent)

            expectProblem(try await client.send(.get, "/v1/clients/\(id)", token: adminToken), .notFound)
            expectProblem(try await client.send(.get, "/v1/clients/\(id)/screenings", token: adminToken), .notFound)
            expectProblem(try await client.send(.get, "/v1/clients/\(id)/screenings/\(screening)", token: adminToken), .notFound)
            expectProblem(try await client.send(.get, "/v1/clients/\(id)/screenings/\(draft)", token: adminToken), .notFound)
            expectProblem(try await client.send(.get, "/v1/clients/\(id)/screenings/\(screening)/history", token: adminToken), .notFound)
            expectProblem(try await client.send(.get, "/v1/clients/\(id)/photo", token: adminToken), .notFound)
            #expect(try await client.send(.get, "/v1/clients?q=ada", token: adminToken).listItems.isEmpty)

            #expect(try rows() == [0, 0, 0, 0, 0])
            let revisions: Int = try fixture.database.readBlocking { try await $0.scalar("SELECT count(*) FROM screening_revisions") }
            #expect(revisions == 0)
            #expect(try await client.send(.get, "/v1/clients/\(keep)", token: adminToken).status == .ok)
        }
    }

    /// The measurement fuzzer's find, through HTTP: feet beyond any whole number are a 422, and the server lives on.
    @Test func aHeightOfMoreFeetThanAnyNumberIs422() async throws {
        try await withAPI { fixture, client in
            let token = try await client.token(for: try await fixture.trainer(in: try await fixture.company()))
            let id = try await client.createClient(given: "Ada", family: nil, token: token)
            let body = #"{"height": {"value": 511111111111111111111111111111111111111111111111111111111, "unit": "ft", "inches": 11}}"#
            expectProblem(try await client.send(.patch, "/v1/clients/\(id)", token: token, json: body), .unprocessableContent, fields: ["height"])
            #expect(try await client.send(.get, "/health").status == .ok)
        }
    }
}
