import Foundation
import HealthwheelCore
import TestSupport
import Testing

@testable import API

/// The schemas the served document generates from the loaded catalog: present for every shipped exercise and
/// question, every reference resolving, and their bounds the very ones the server applies.
@Suite(.storeIndependent) struct OpenAPICatalogTests {
    /// The generated schema `name` of the served document, parsed as the server parses bodies (`JSONDecoder`
    /// reads every digit of a number; Linux's `JSONSerialization` may round the last one).
    static func schema(_ name: String, in document: String) throws -> [String: JSONValue] {
        let line = try #require(document.split(separator: "\n").first { $0.hasPrefix("    \(name): {") })
        let json = line.dropFirst("    \(name): ".count)
        return try #require(try JSONDecoder().decode(JSONValue.self, from: Data(json.utf8)).object)
    }

    @Test func everyShippedExerciseAndQuestionHasItsSchemaAndEveryReferenceResolves() async throws {
        try await withAPI { fixture, client in
            let token = try await client.token(for: try await fixture.trainer(in: try await fixture.company(), role: .admin))
            let document = try await client.send(.get, "/openapi.yaml").text
            let defined = Set(
                document.split(separator: "\n").compactMap { line -> String? in
                    guard line.hasPrefix("    "), !line.hasPrefix("     "), let colon = line.firstIndex(of: ":") else { return nil }
                    return String(line[line.index(line.startIndex, offsetBy: 4)..<colon])
                }
            )
            let referenced = Set(document.matches(of: /#\/components\/schemas\/([A-Za-z0-9._-]+)/).map { String($0.output.1) })
            #expect(referenced.count > 20)
            #expect(referenced.subtracting(defined).sorted() == [], "references without a schema")
            // Numbers in plain decimals: YAML 1.1 readers take `1e-05` for a string.
            #expect(document.firstMatch(of: /[:,\[]-?[0-9.]+[eE][-+]?[0-9]+[,\]}]/) == nil)

            let exercises = try #require(try await client.send(.get, "/v1/exercises", token: token).object["items"] as? [[String: Any]])
            #expect(exercises.count >= 13)
            for exercise in exercises {
                let id = try #require(exercise["id"] as? String)
                let keys = try #require(exercise["fields"] as? [[String: Any]]).compactMap { $0["key"] as? String }
                let values = try Self.schema("ExerciseValues.\(id)", in: document)
                #expect(values["required"]?.array?.compactMap(\.string) == keys, "\(id)")
                #expect(Set(values["properties"]?.object?.keys ?? [:].keys) == Set(keys), "\(id)")
            }

            let questionnaire = try await client.send(.get, "/v1/questionnaires/screening", token: token).object
            let sections = try #require(questionnaire["sections"] as? [[String: Any]])
            let questions = Set(sections.flatMap { ($0["fields"] as? [[String: Any]] ?? []).compactMap { $0["key"] as? String } })
            let answers = try Self.schema("ScreeningAnswers.screening", in: document)
            #expect(questions.count > 30)
            #expect(Set(answers["properties"]?.object?.keys ?? [:].keys) == questions)
            #expect(answers["additionalProperties"] == .bool(false))
        }
    }

    @Test func aStatedBoundIsTheServersBoundInEveryUnit() async throws {
        try await withAPI { fixture, client in
            let token = try await client.token(for: try await fixture.trainer(in: try await fixture.company(), role: .admin))
            let document = try await client.send(.get, "/openapi.yaml").text
            let waist = try #require(try Self.schema("ExerciseValues.waist-circumference", in: document)["properties"]?.object)
            let anyOf = try #require(waist["waist"]?.object?["anyOf"]?.array)
            let forms = anyOf.compactMap(\.object)
            let subject = #""client": {"sex": "female", "age": 30, "height": 1.65, "mass": 60}"#
            var checked = 0
            for form in forms {
                guard let properties = form["properties"]?.object, form["required"] == ["value", "unit"],
                    let unit = properties["unit"]?.object?["const"]?.string,
                    let maximum = properties["value"]?.object?["maximum"]?.number
                else { continue }
                func score(_ value: Double) async throws -> Int {
                    let body = #"{\#(subject), "values": {"waist": {"value": \#(value), "unit": "\#(unit)"}}}"#
                    return Int(try await client.send(.post, "/v1/exercises/waist-circumference/score", token: token, json: body).status.code)
                }
                #expect(try await score(maximum) == 200, "\(maximum) \(unit) is the stated maximum")
                #expect(try await score(maximum.nextUp) == 422, "just above \(maximum) \(unit)")
                checked += 1
            }
            #expect(checked == 5, "m, cm, mm, in, ft")
        }
    }
}
