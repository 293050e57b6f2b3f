import Foundation
import HTTPTypes
import HealthwheelCore
import HummingbirdTesting
import Store
import StoreContract
import Testing

@testable import API

/// `/v1/questionnaires` and `/v1/clients/{id}/screenings`: start a screening, answer it, complete (lock) it, amend
/// what stays editable, and read the history.
@Suite struct ScreeningsTests {
    /// A client (`ClientsAPI.ada`) and a trainer's token.
    static func setUp(_ fixture: Fixture, _ client: some TestClientProtocol) async throws -> (token: String, trainer: Trainer, client: String) {
        let account = try await fixture.trainer(in: try await fixture.company())
        let token = try await client.token(for: account)
        return (token, account.trainer, try await client.createClient(ClientsAPI.ada, token: token))
    }

    // MARK: - Questionnaires

    @Test func theQuestionnairesAreListed() async throws {
        try await withAPI { fixture, client in
            let (token, _, _) = try await Self.setUp(fixture, client)
            let response = try await client.send(.get, "/v1/questionnaires", token: token)
            #expect(response.status == .ok)
            let items = try #require(response.jsonBody["items"]?.array)
            #expect(items.map { $0["id"] } == [.string("screening")])
            #expect(items.first?["version"] == .number(1))
            #expect(items.first?["title"] == .string("Pre-exercise screening"))
        }
    }

    @Test func aQuestionnaireIsServedWithItsSections() async throws {
        try await withAPI { fixture, client in
            let (token, _, _) = try await Self.setUp(fixture, client)
            let response = try await client.send(.get, "/v1/questionnaires/screening", token: token)
            #expect(response.status == .ok)
            let sections = try #require(response.jsonBody["sections"]?.array)
            #expect(sections.map { $0["key"] } == [.string("personal"), .string("readiness"), .string("lifestyle"), .string("health")])
            #expect(sections.first?["editableAfterCompletion"] == .bool(true))
            let flags = try #require(response.jsonBody["flags"]?.array)
            #expect(flags.contains { $0["flag"] == .string("medical-clearance") })
        }
    }

    @Test func anUnknownQuestionnaireIs404() async throws {
        try await withAPI { fixture, client in
            let (token, _, _) = try await Self.setUp(fixture, client)
            expectProblem(try await client.send(.get, "/v1/questionnaires/nope", token: token), .notFound)
        }
    }

    // MARK: - Starting

    @Test func aNewScreeningIsADraftPrefilledFromTheClient() async throws {
        try await withAPI { fixture, client in
            let (token, trainer, id) = try await Self.setUp(fixture, client)
            let response = try await client.send(.post, "/v1/clients/\(id)/screenings", token: token, json: #"{"questionnaireId": "screening"}"#)
            #expect(response.status == .created)
            let screening = try #require(response.object["id"] as? String)
            #expect(response.headers[.location] == "/v1/clients/\(id)/screenings/\(screening)")
            let json = response.jsonBody
            #expect(json["status"] == .string("draft"))
            #expect(json["clientId"] == .string(id))
            #expect(json["questionnaireId"] == .string("screening"))
            #expect(json["questionnaireVersion"] == .number(1))
            #expect(json["createdBy"] == .string(trainer.id.uuidString))
            #expect(json["flags"] == .array([]))
            #expect(
                json["answers"]
                    == .object([
                        "givenName": .string("Ada"), "familyName": .string("Lovelace"), "email": .string("ada@example.com"),
                        "mobilePhone": .string("021 555 1234"), "birthDate": .string("1985-03-14"), "sex": .string("female"),
                        "height": .number(1.7), "mass": .number(60), "goal": .string("Run 5 km"),
                    ])
            )
            #expect(try await client.send(.get, "/v1/clients/\(id)/screenings/\(screening)", token: token).jsonBody == json)
        }
    }

    @Test func anUnknownQuestionnaireIdIs422() async throws {
        try await withAPI { fixture, client in
            let (token, _, id) = try await Self.setUp(fixture, client)
            let response = try await client.send(.post, "/v1/clients/\(id)/screenings", token: token, json: #"{"questionnaireId": "nope"}"#)
            expectProblem(response, .unprocessableContent, fields: ["questionnaireId"])
            expectProblem(
                try await client.send(.post, "/v1/clients/\(id)/screenings", token: token, json: "{}"),
                .unprocessableContent,
                fields: ["questionnaireId"]
            )
            #expect(try await client.send(.get, "/v1/clients/\(id)/screenings", token: token).listItems.isEmpty)
        }
    }

    @Test func startingRejectsUnknownAndServerOwnedFields() async throws {
        try await withAPI { fixture, client in
            let (token, _, id) = try await Self.setUp(fixture, client)
            let body = #"{"questionnaireId": "screening", "status": "completed"}"#
            expectProblem(
                try await client.send(.post, "/v1/clients/\(id)/screenings", token: token, json: body),
                .unprocessableContent,
                fields: ["status"]
            )
            // An id is an app's own (AppChosenIds), and must be a UUID.
            expectProblem(
                try await client.send(.post, "/v1/clients/\(id)/screenings", token: token, json: #"{"questionnaireId": "screening", "id": "x"}"#),
                .unprocessableContent,
                fields: ["id"]
            )
            let answering = try await client.startScreening(client: id, token: token)
            let patch = #"{"answers": {"smoker": true}, "status": "completed"}"#
            expectProblem(
                try await client.send(.patch, "/v1/clients/\(id)/screenings/\(answering)", token: token, json: patch),
                .unprocessableContent,
                fields: ["status"]
            )
            #expect(try await client.send(.get, "/v1/clients/\(id)/screenings", token: token).listItems.count == 1)
        }
    }

    @Test func screeningsAreListedNewestFirst() async throws {
        try await withAPI { fixture, client in
            let (token, _, id) = try await Self.setUp(fixture, client)
            let first = try await client.completeScreening(client: id, token: token)
            fixture.clock.advance(by: 3_600)
            let second = try await client.startScreening(client: id, token: token)
            let response = try await client.send(.get, "/v1/clients/\(id)/screenings", token: token)
            #expect(response.listItems.compactMap { $0["id"] as? String } == [second, first])
            #expect(response.listItems.compactMap { $0["status"] as? String } == ["draft", "completed"])
        }
    }

    // MARK: - Answering

    @Test func answersAreSavedNormalisedToSI() async throws {
        try await withAPI { fixture, client in
            let (token, _, id) = try await Self.setUp(fixture, client)
            let screening = try await client.startScreening(client: id, token: token)
            let path = "/v1/clients/\(id)/screenings/\(screening)"
            let body =
                #"{"answers": {"height": {"value": 5, "unit": "ft", "inches": 11}, "occupation": "  Nurse ", "activities": ["walking", "swimming"]}}"#
            let response = try await client.send(.patch, path, token: token, json: body)
            #expect(response.status == .ok, "body: \(response.text)")
            let answers = try #require(response.jsonBody["answers"])
            #expect(answers["height"] == .number(1.8034))
            #expect(answers["occupation"] == .string("Nurse"))
            #expect(answers["activities"] == .array([.string("walking"), .string("swimming")]))
            #expect(answers["givenName"] == .string("Ada"))
            #expect(try await client.send(.get, path, token: token).jsonBody["answers"] == answers)
        }
    }

    @Test func eachBadAnswerIsA422EntryNamingTheAnswer() async throws {
        try await withAPI { fixture, client in
            let (token, _, id) = try await Self.setUp(fixture, client)
            let screening = try await client.startScreening(client: id, token: token)
            let path = "/v1/clients/\(id)/screenings/\(screening)"
            let before = try await client.send(.get, path, token: token).jsonBody
            let body = """
                {"answers": {"smoker": "yes", "sleepHours": 30, "activityLevel": "extreme", "activities": ["flying"],
                 "occupation": 7, "birthDate": "14/03/1985", "height": {"value": 180, "unit": "furlong"}, "alcoholDrinksPerWeek": 3}}
                """
            let response = try await client.send(.patch, path, token: token, json: body)
            expectProblem(response, .unprocessableContent)
            #expect(
                Set(response.problemFields) == [
                    "answers.smoker", "answers.sleepHours", "answers.activityLevel", "answers.activities", "answers.occupation",
                    "answers.birthDate", "answers.height.unit",
                ]
            )
            #expect(response.problemFields.count == 7)
            #expect(try await client.send(.get, path, token: token).jsonBody == before)
        }
    }

    @Test func anUnknownAnswerKeyIs422() async throws {
        try await withAPI { fixture, client in
            let (token, _, id) = try await Self.setUp(fixture, client)
            let screening = try await client.startScreening(client: id, token: token)
            let response = try await client.send(
                .patch,
                "/v1/clients/\(id)/screenings/\(screening)",
                token: token,
                json: #"{"answers": {"favouriteColour": "blue"}}"#
            )
            expectProblem(response, .unprocessableContent, fields: ["answers.favouriteColour"])
        }
    }

    @Test func aHiddenFollowUpAnswerIs409() async throws {
        try await withAPI { fixture, client in
            let (token, _, id) = try await Self.setUp(fixture, client)
            let screening = try await client.startScreening(client: id, token: token)
            let path = "/v1/clients/\(id)/screenings/\(screening)"
            let hidden = #"{"answers": {"heartCondition": false, "heartConditionDetails": "High blood pressure"}}"#
            expectProblem(
                try await client.send(.patch, path, token: token, json: hidden),
                .conflict,
                fields: ["answers.heartConditionDetails"]
            )
            let shown = #"{"answers": {"heartCondition": true, "heartConditionDetails": "High blood pressure"}}"#
            #expect(try await client.send(.patch, path, token: token, json: shown).status == .ok)
        }
    }

    @Test func nullClearsAnAnswer() async throws {
        try await withAPI { fixture, client in
            let (token, _, id) = try await Self.setUp(fixture, client)
            let screening = try await client.startScreening(client: id, token: token)
            let path = "/v1/clients/\(id)/screenings/\(screening)"
            #expect(try await client.send(.patch, path, token: token, json: #"{"answers": {"occupation": "Nurse"}}"#).status == .ok)
            let cleared = try await client.send(.patch, path, token: token, json: #"{"answers": {"occupation": null}}"#)
            #expect(cleared.status == .ok)
            #expect(cleared.jsonBody["answers"]?["occupation"] == nil)
        }
    }

    // MARK: - Completing and the lock

    @Test func completingWithMissingRequiredAnswersIs409ListingThem() async throws {
        try await withAPI { fixture, client in
            let (token, _, id) = try await Self.setUp(fixture, client)
            let screening = try await client.startScreening(client: id, token: token)
            let path = "/v1/clients/\(id)/screenings/\(screening)"
            let partial = #"{"answers": {"heartCondition": true, "chestPain": false, "dizziness": false, "otherChronicCondition": false}}"#
            #expect(try await client.send(.patch, path, token: token, json: partial).status == .ok)
            let response = try await client.send(.post, "\(path)/complete", token: token)
            // The request is fine; the screening is not ready: a conflict with its state, naming what is missing.
            expectProblem(response, .conflict)
            #expect(response.object["type"] as? String == "urn:healthwheel:problem:screening-incomplete")
            #expect(
                Set(response.problemFields) == [
                    "answers.heartConditionDetails", "answers.prescribedMedication", "answers.boneJointProblem",
                    "answers.supervisedActivityOnly", "answers.activityLevel", "answers.smoker", "answers.currentInjuries",
                ]
            )
            #expect(try await client.send(.get, path, token: token).jsonBody["status"] == .string("draft"))
        }
    }

    @Test func completingLocksTheScreeningAndRecordsWhoAndWhen() async throws {
        try await withAPI { fixture, client in
            let (token, trainer, id) = try await Self.setUp(fixture, client)
            let screening = try await client.startScreening(client: id, token: token)
            let path = "/v1/clients/\(id)/screenings/\(screening)"
            #expect(try await client.send(.patch, path, token: token, json: ClientsAPI.healthyAnswers).status == .ok)
            fixture.clock.advance(by: 600)
            // No body, though declared JSON, as many clients send every request: nothing to read, not a 400.
            let completed = try await client.execute(
                uri: "\(path)/complete",
                method: .post,
                headers: [.authorization: "Bearer \(token)", .contentType: "application/json"]
            ) { $0 }
            #expect(completed.status == .ok, "\(completed.text)")
            #expect(completed.jsonBody["status"] == .string("completed"))
            #expect(completed.jsonBody["completedAt"] == .string("2027-01-15T08:10:00Z"))
            #expect(completed.jsonBody["completedBy"] == .string(trainer.id.uuidString))
            #expect(completed.jsonBody["flags"] == .array([]))
            #expect(try await client.send(.get, path, token: token).jsonBody == completed.jsonBody)
            expectProblem(try await client.send(.post, "\(path)/complete", token: token), .conflict)
        }
    }

    @Test func lockedFieldEditIsRejectedWith409() async throws {
        try await withAPI { fixture, client in
            let (token, _, id) = try await Self.setUp(fixture, client)
            let screening = try await client.completeScreening(client: id, token: token)
            let path = "/v1/clients/\(id)/screenings/\(screening)"
            let before = try await client.send(.get, path, token: token).jsonBody
            let response = try await client.send(.patch, path, token: token, json: #"{"answers": {"smoker": true, "goal": "Quit smoking"}}"#)
            expectProblem(response, .conflict, fields: ["answers.smoker"])
            #expect(try await client.send(.get, path, token: token).jsonBody == before)
            #expect(try await client.send(.get, "/v1/clients/\(id)", token: token).jsonBody["goal"] == .string("Run 5 km"))
            #expect(try await client.send(.get, "\(path)/history", token: token).listItems.isEmpty)
        }
    }

    @Test func resendingALockedAnswerUnchangedIsAccepted() async throws {
        try await withAPI { fixture, client in
            let (token, _, id) = try await Self.setUp(fixture, client)
            let screening = try await client.completeScreening(client: id, token: token)
            let path = "/v1/clients/\(id)/screenings/\(screening)"
            let response = try await client.send(.patch, path, token: token, json: #"{"answers": {"smoker": false, "activityLevel": "light"}}"#)
            #expect(response.status == .ok, "body: \(response.text)")
            #expect(response.jsonBody["status"] == .string("completed"))
            #expect(try await client.send(.get, "\(path)/history", token: token).listItems.isEmpty)
        }
    }

    @Test func editingTheGoalAfterCompletionAmendsAndUpdatesTheClient() async throws {
        try await withAPI { fixture, client in
            let (token, _, id) = try await Self.setUp(fixture, client)
            let screening = try await client.completeScreening(client: id, token: token)
            let path = "/v1/clients/\(id)/screenings/\(screening)"
            let response = try await client.send(.patch, path, token: token, json: #"{"answers": {"goal": "Swim 1 km"}}"#)
            #expect(response.status == .ok, "body: \(response.text)")
            #expect(response.jsonBody["status"] == .string("amended"))
            #expect(response.jsonBody["answers"]?["goal"] == .string("Swim 1 km"))
            #expect(try await client.send(.get, "/v1/clients/\(id)", token: token).jsonBody["goal"] == .string("Swim 1 km"))
            // An amendment is still a completed screening for the client overview.
            #expect(try await client.send(.get, "/v1/clients/\(id)", token: token).jsonBody["screeningStatus"] == .string("completed"))
        }
    }

    @Test func amendmentsAreListedInTheHistoryWithWhoWhenOldAndNew() async throws {
        try await withAPI { fixture, client in
            let company = try await fixture.company()
            let first = try await fixture.trainer(in: company)
            let second = try await fixture.trainer(in: company)
            let firstToken = try await client.token(for: first)
            let secondToken = try await client.token(for: second)
            let id = try await client.createClient(ClientsAPI.ada, token: firstToken)
            let screening = try await client.completeScreening(client: id, token: firstToken)
            let path = "/v1/clients/\(id)/screenings/\(screening)"

            fixture.clock.advance(by: 3_600)
            #expect(try await client.send(.patch, path, token: firstToken, json: #"{"answers": {"goal": "Swim 1 km"}}"#).status == .ok)
            fixture.clock.advance(by: 3_600)
            let mass = #"{"answers": {"mass": {"value": 154, "unit": "lb"}, "goal": "Swim 1 km"}}"#
            #expect(try await client.send(.patch, path, token: secondToken, json: mass).status == .ok)

            let history = try await client.send(.get, "\(path)/history", token: firstToken)
            #expect(history.status == .ok)
            let items = try #require(history.jsonBody["items"]?.array)
            #expect(
                items == [
                    .object([
                        "field": .string("goal"), "oldValue": .string("Run 5 km"), "newValue": .string("Swim 1 km"),
                        "changedBy": .string(first.trainer.id.uuidString), "changedAt": .string("2027-01-15T09:00:00Z"),
                    ]),
                    .object([
                        "field": .string("mass"), "oldValue": .number(60), "newValue": .number(69.8532),
                        "changedBy": .string(second.trainer.id.uuidString), "changedAt": .string("2027-01-15T10:00:00Z"),
                    ]),
                ]
            )
        }
    }

    @Test func aDraftHasNoHistory() async throws {
        try await withAPI { fixture, client in
            let (token, _, id) = try await Self.setUp(fixture, client)
            let screening = try await client.startScreening(client: id, token: token)
            let path = "/v1/clients/\(id)/screenings/\(screening)"
            #expect(try await client.send(.patch, path, token: token, json: #"{"answers": {"goal": "Swim", "smoker": true}}"#).status == .ok)
            let history = try await client.send(.get, "\(path)/history", token: token)
            #expect(history.status == .ok)
            #expect(history.listItems.isEmpty)
        }
    }

    // MARK: - Mirrored client details

    @Test func aMirroredMassInPoundsUpdatesTheClientInKilograms() async throws {
        try await withAPI { fixture, client in
            let (token, _, id) = try await Self.setUp(fixture, client)
            let screening = try await client.startScreening(client: id, token: token)
            let response = try await client.send(
                .patch,
                "/v1/clients/\(id)/screenings/\(screening)",
                token: token,
                json: #"{"answers": {"mass": {"value": 154, "unit": "lb"}}}"#
            )
            #expect(response.status == .ok, "body: \(response.text)")
            #expect(response.jsonBody["answers"]?["mass"] == .number(69.8532))
            #expect(try await client.send(.get, "/v1/clients/\(id)", token: token).jsonBody["mass"] == .number(69.8532))
        }
    }

    @Test func mirroredAnswersUpdateEveryMirroredClientField() async throws {
        try await withAPI { fixture, client in
            let (token, _, id) = try await Self.setUp(fixture, client)
            let screening = try await client.startScreening(client: id, token: token)
            let body = """
                {"answers": {"givenName": "Augusta", "familyName": "King", "sex": "male", "birthDate": "1990-12-10",
                 "height": {"value": 5, "unit": "ft", "inches": 11}, "mobilePhone": "+44 20 7946 0000",
                 "email": "Augusta@Example.org", "goal": null}}
                """
            #expect(try await client.send(.patch, "/v1/clients/\(id)/screenings/\(screening)", token: token, json: body).status == .ok)
            let shown = try await client.send(.get, "/v1/clients/\(id)", token: token).jsonBody
            #expect(shown["givenName"] == .string("Augusta"))
            #expect(shown["familyName"] == .string("King"))
            #expect(shown["sex"] == .string("male"))
            #expect(shown["birthDate"] == .string("1990-12-10"))
            #expect(shown["height"] == .number(1.8034))
            #expect(shown["phone"] == .string("+44 20 7946 0000"))
            #expect(shown["email"] == .string("augusta@example.org"))
            #expect(shown["goal"] == .null)
            #expect(try await client.send(.get, "/v1/clients?q=king", token: token).listItems.count == 1)
        }
    }

    @Test func aMirroredAnswerBreakingAClientRuleIs422NamingTheAnswer() async throws {
        try await withAPI { fixture, client in
            let (token, _, id) = try await Self.setUp(fixture, client)
            let screening = try await client.startScreening(client: id, token: token)
            let path = "/v1/clients/\(id)/screenings/\(screening)"
            let before = try await client.send(.get, path, token: token).jsonBody
            let clientBefore = try await client.send(.get, "/v1/clients/\(id)", token: token).jsonBody
            let body = """
                {"answers": {"mobilePhone": "call me", "email": "not-an-email", "height": 10, "birthDate": "2030-01-01",
                 "occupation": "Nurse"}}
                """
            let response = try await client.send(.patch, path, token: token, json: body)
            expectProblem(response, .unprocessableContent)
            #expect(Set(response.problemFields) == ["answers.mobilePhone", "answers.email", "answers.height", "answers.birthDate"])
            #expect(try await client.send(.get, path, token: token).jsonBody == before)
            #expect(try await client.send(.get, "/v1/clients/\(id)", token: token).jsonBody == clientBefore)
        }
    }

    @Test func clearingTheOnlyNameOfAClientIs409() async throws {
        try await withAPI { fixture, client in
            let account = try await fixture.trainer(in: try await fixture.company())
            let token = try await client.token(for: account)
            let id = try await client.createClient(given: "Cher", family: nil, token: token)
            let screening = try await client.startScreening(client: id, token: token)
            let response = try await client.send(
                .patch,
                "/v1/clients/\(id)/screenings/\(screening)",
                token: token,
                json: #"{"answers": {"givenName": null}}"#
            )
            expectProblem(response, .conflict, fields: ["answers.givenName"])
            #expect(response.object["type"] as? String == "urn:healthwheel:problem:name-required")
            #expect(try await client.send(.get, "/v1/clients/\(id)", token: token).jsonBody["givenName"] == .string("Cher"))
        }
    }
}

extension ScreeningsTests {
    @Test func identicalReadsOfAScreeningAreTheSameBytes() async throws {
        try await withAPI { fixture, client in
            let (token, _, id) = try await Self.setUp(fixture, client)
            let screening = try await client.startScreening(client: id, token: token)
            let path = "/v1/clients/\(id)/screenings/\(screening)"
            let answers = #"{"answers": {"smoker": true, "cigarettesPerDay": 5, "occupation": "Nurse", "sleepHours": 7, "chestPain": false}}"#
            #expect(try await client.send(.patch, path, token: token, json: answers).status == .ok)
            // Answers are written in key order; a dictionary's own order would change from one copy to the next.
            var reads: [String] = []
            for _ in 0..<5 { reads.append(try await client.send(.get, path, token: token).text) }
            #expect(Set(reads).count == 1)
            let keys = try #require(reads[0].firstMatch(of: /"answers":\{(.*?)\}/)?.output.1)
            let order = keys.matches(of: /"([A-Za-z]+)":/).map { String($0.output.1) }
            #expect(order == order.sorted())
            #expect(Set(["smoker", "cigarettesPerDay", "occupation", "sleepHours", "chestPain"]).isSubset(of: order))
        }
    }
}
