import Foundation
import HTTPTypes
import HealthwheelCore
import HummingbirdTesting
import TestSupport
import Testing

@testable import API

/// `GET /v1/clients/{id}/fhir` and `GET /v1/questionnaires/{id}/fhir`: FHIR R4 that a real validator accepts,
/// coded with LOINC and UCUM where the exercise has codes.
@Suite struct FHIRTests {
    /// Every exercise of the shipped packs with the values of its first example (stored units).
    static func shippedExamples() throws -> [(id: String, values: [String: Double])] {
        let folder = RepositoryRoot.url.appendingPathComponent("Exercises")
        return try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".json") }.sorted().flatMap { file in
            let pack = try JSONDecoder().decode(ExercisePack.self, from: Data(contentsOf: folder.appendingPathComponent(file)))
            return pack.exercises.map { ($0.id, $0.examples[0].values) }
        }
    }

    private func resources(_ bundle: [String: Any], _ type: String) -> [[String: Any]] {
        (bundle["entry"] as? [[String: Any]] ?? []).compactMap { $0["resource"] as? [String: Any] }.filter { $0["resourceType"] as? String == type }
    }

    private func codes(_ concept: Any?) -> [String] {
        ((concept as? [String: Any])?["coding"] as? [[String: Any]] ?? []).compactMap { $0["code"] as? String }
    }

    @Test func aClientsWholeRecordIsAValidBundleCodedWithLOINCAndUCUM() async throws {
        try await withAPI { fixture, client in
            let company = try await fixture.company()
            let admin = try await client.token(for: try await fixture.trainer(in: company, role: .admin))
            let trainer = try await client.token(for: try await fixture.trainer(in: company))
            let id = try await client.screenedClient(token: trainer)

            var recorded: [String: String] = [:]
            for (exercise, values) in try Self.shippedExamples() {
                let body = jsonString(["exerciseId": exercise, "values": values, "observations": "steady, \(exercise)"])
                let response = try await client.send(.post, "/v1/clients/\(id)/results", token: trainer, json: body)
                #expect(response.status == .created, "\(exercise): \(response.text)")
                recorded[exercise] = response.object["id"] as? String
            }
            #expect(recorded.count >= 13)
            let corrected = try #require(recorded["resting-heart-rate"])
            #expect(try await client.send(.patch, "/v1/results/\(corrected)", token: trainer, json: #"{"values": {"heartRate": 57}}"#).status == .ok)
            let pressure = try #require(recorded["blood-pressure"])
            for (bytes, type) in [(MediaTests.photo, "image/jpeg"), (MediaTests.movie, "video/quicktime")] {
                let upload = try await client.execute(
                    uri: "/v1/results/\(pressure)/media?caption=cuff%20on%20left%20arm",
                    method: .post,
                    headers: [.authorization: "Bearer \(trainer)", .contentType: type],
                    body: .init(bytes: bytes)
                ) { $0 }
                #expect(upload.status == .created, "\(upload.text)")
            }

            let response = try await client.send(.get, "/v1/clients/\(id)/fhir", token: trainer)
            #expect(response.status == .ok, "\(response.text.prefix(400))")
            #expect(response.headers[.contentType]?.hasPrefix("application/fhir+json") == true)
            let verdict = try FHIRValidator.validate(Array(response.body.readableBytesView))
            #expect(verdict.passed, "\(verdict)")

            let bundle = response.object
            #expect(bundle["type"] as? String == "collection")
            let patient = try #require(resources(bundle, "Patient").first)
            #expect(patient["gender"] as? String == "female")
            #expect(patient["birthDate"] as? String == "1985-03-14")
            let observations = resources(bundle, "Observation")
            func observation(of exercise: String) -> [String: Any]? {
                observations.first { codes($0["code"]).contains(exercise) }
            }
            // Each result is an Observation, plus the profile's height and weight.
            #expect(observations.count == recorded.count + 2)
            let heart = try #require(observation(of: "resting-heart-rate"))
            #expect(codes(heart["code"]) == ["40443-4", "resting-heart-rate"])
            #expect(heart["status"] as? String == "amended", "corrected after it was recorded")
            let heartValue = try #require(heart["valueQuantity"] as? [String: Any])
            #expect(heartValue["value"] as? Double == 57)
            #expect(heartValue["code"] as? String == "/min")
            #expect(codes(heart["category"] as? [Any] == nil ? nil : (heart["category"] as? [Any])?.first) == ["vital-signs"])

            let panel = try #require(observation(of: "blood-pressure"))
            #expect(codes(panel["code"]).first == "85354-9")
            #expect(panel["valueQuantity"] == nil, "a panel's values are its components")
            let components = panel["component"] as? [[String: Any]] ?? []
            #expect(components.map { codes($0["code"]).first } == ["8480-6", "8462-4", "score"])
            #expect(((components[0]["valueQuantity"] as? [String: Any])?["code"] as? String) == "mm[Hg]")
            #expect((panel["derivedFrom"] as? [Any])?.count == 2, "its photo and video")
            #expect((panel["status"] as? String) == "final")
            #expect(((panel["note"] as? [[String: Any]])?.first?["text"] as? String) == "steady, blood-pressure")

            let bmi = try #require(observation(of: "bmi"))
            #expect(((bmi["valueQuantity"] as? [String: Any])?["code"] as? String) == "kg/m2")
            #expect(((bmi["component"] as? [[String: Any]])?.first.map { codes($0["code"]).first }) == "29463-7")
            let waist = try #require(observation(of: "waist-circumference"))
            #expect(((waist["valueQuantity"] as? [String: Any])?["code"] as? String) == "cm")
            let pushUps = try #require(observation(of: "push-ups"))
            #expect(codes(pushUps["code"]) == ["push-ups"], "no LOINC code: Healthwheel's own alone")
            #expect(((pushUps["valueQuantity"] as? [String: Any])?["code"] as? String) == "{count}")

            let media = resources(bundle, "Media")
            #expect(Set(media.compactMap { codes($0["type"]).first }) == ["image", "video"])
            let answers = try #require(resources(bundle, "QuestionnaireResponse").first)
            #expect(answers["status"] as? String == "completed")
            #expect(resources(bundle, "Questionnaire").count == 1)
            #expect(resources(bundle, "Practitioner").count == 1)

            // Another company's admin finds no such client; the export is in the audit trail.
            let stranger = try await client.token(for: try await fixture.trainer(in: try await fixture.company(), role: .admin))
            expectProblem(try await client.send(.get, "/v1/clients/\(id)/fhir", token: stranger), .notFound)
            let trail = try await client.send(.get, "/v1/audit?clientId=\(id)&action=client.exported", token: admin)
            #expect((trail.object["items"] as? [Any])?.count == 1)
        }
    }

    @Test func theScreeningQuestionnaireIsAValidQuestionnaire() async throws {
        try await withAPI { fixture, client in
            let token = try await client.token(for: try await fixture.trainer(in: try await fixture.company()))
            let response = try await client.send(.get, "/v1/questionnaires/screening/fhir", token: token)
            #expect(response.status == .ok)
            let verdict = try FHIRValidator.validate(Array(response.body.readableBytesView))
            #expect(verdict.passed, "\(verdict)")
            let questionnaire = response.object
            #expect(questionnaire["url"] as? String == "urn:healthwheel:questionnaire:screening")
            let sections = questionnaire["item"] as? [[String: Any]] ?? []
            #expect(sections.allSatisfy { $0["type"] as? String == "group" })
            let fields = sections.flatMap { $0["item"] as? [[String: Any]] ?? [] }
            #expect(fields.contains { $0["linkId"] as? String == "height" && $0["type"] as? String == "quantity" })
            #expect(fields.contains { $0["enableWhen"] != nil }, "follow-up questions keep their conditions")
            expectProblem(try await client.send(.get, "/v1/questionnaires/nope/fhir", token: token), .notFound)
        }
    }

    @Test func theValidatorRefusesWhatIsNotFHIR() throws {
        // The validator must be able to fail: a Patient with an unknown member and a gender outside its value set.
        let verdict = try FHIRValidator.validate(Array(#"{"resourceType": "Patient", "gender": "frau", "nickname": "x"}"#.utf8))
        #expect(!verdict.passed)
        #expect(verdict.output.contains("nickname") && verdict.output.contains("frau"))
    }
}
