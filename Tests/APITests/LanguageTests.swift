import Foundation
import HTTPTypes
import HealthwheelCore
import HummingbirdTesting
import Testing

@testable import API

/// Pack texts in the reader's language (`?lang=`, else `Accept-Language`, else the company theme's) on the
/// exercise routes, the wheel and its pictures; and the wheel's outline of an earlier date (`?compare=`).
@Suite struct LanguageTests {
    @Test func exercisesAndCategoriesSpeakTheAskedLanguage() async throws {
        try await withAPI { fixture, client in
            let token = try await client.token(for: try await fixture.trainer(in: try await fixture.company()))
            let spanish = try await client.send(.get, "/v1/exercises?category=endurance&lang=es", token: token)
            #expect(spanish.status == .ok && spanish.headers[.contentLanguage] == "es")
            let items = spanish.listItems
            #expect(items.compactMap { $0["name"] as? String } == ["Flexiones", "Test de Cooper de 12 minutos"])
            let field = try #require((items.first?["fields"] as? [[String: Any]])?.first)
            #expect(field["unitLabel"] as? String == "flexiones" && field["unit"] as? String == "count" && field["key"] as? String == "count")

            let header = try await client.send(.get, "/v1/categories", token: token, headers: [.acceptLanguage: "fr-FR, es-MX;q=0.8, en;q=0.5"])
            #expect(
                header.listItems.compactMap { $0["name"] as? String } == [
                    "Cardiovascular", "Composición corporal", "Fuerza", "Flexibilidad", "Resistencia",
                ]
            )

            let detail = try await client.send(.get, "/v1/exercises/chair-stand-30s?lang=es", token: token)
            let steps = try #require(detail.object["steps"] as? [[String: Any]])
            #expect(detail.object["name"] as? String == "Levantarse de la silla en 30 s")
            #expect(
                steps.allSatisfy { ($0["text"] as? String)?.isEmpty == false } && (detail.object["source"] as? String)?.contains("Rikli RE") == true
            )
            #expect(
                detail.object["conversionAlgorithm"] as? String == (try await client.send(.get, "/v1/exercises/chair-stand-30s", token: token))
                    .object["conversionAlgorithm"] as? String
            )

            let english = try await client.send(.get, "/v1/exercises/push-ups", token: token)
            #expect(english.object["name"] as? String == "Push-ups" && english.headers[.contentLanguage] == "en", "the default theme speaks English")
            expectProblem(try await client.send(.get, "/v1/exercises?lang=fr", token: token), .unprocessableContent, fields: ["lang"])
        }
    }

    /// The theme's version read with the session picks the resolved theme: a change of theme is spoken by the
    /// very next wheel, for the trainer who changed it and for another.
    @Test func theWheelSpeaksTheCompanyThemesLanguageFromTheNextRequest() async throws {
        try await withAPI { fixture, client in
            let company = try await fixture.company()
            let admin = try await client.token(for: try await fixture.trainer(in: company, role: .admin))
            let trainer = try await client.token(for: try await fixture.trainer(in: company))
            let id = try await client.screenedClient(ResultsTests.sam, token: admin)
            #expect(try await client.send(.get, "/v1/clients/\(id)/wheel", token: trainer).headers[.contentLanguage] == "en")
            #expect(try await client.send(.put, "/v1/theme", token: admin, json: ThemeAPITests.ownTheme).status == .ok)
            #expect(try await client.send(.get, "/v1/clients/\(id)/wheel", token: trainer).headers[.contentLanguage] == "es")
            #expect(try await client.send(.put, "/v1/theme", token: admin, json: #"{"themeId": "default"}"#).status == .ok)
            #expect(try await client.send(.get, "/v1/clients/\(id)/wheel", token: admin).headers[.contentLanguage] == "en")
        }
    }

    @Test func theWheelAndItsPicturesSpeakTheAskedLanguage() async throws {
        try await withAPI { fixture, client in
            let token = try await client.token(for: try await fixture.trainer(in: try await fixture.company(), role: .admin))
            let id = try await client.screenedClient(ResultsTests.sam, token: token)
            try await WheelTests.record(client, id, token: token, #"{"exerciseId": "push-ups", "values": {"count": 2}}"#)
            let wheel = try await client.send(.get, "/v1/clients/\(id)/wheel?lang=es", token: token)
            let slices = try #require(wheel.object["slices"] as? [[String: Any]])
            #expect(
                slices.compactMap { $0["name"] as? String } == ["Cardiovascular", "Composición corporal", "Fuerza", "Flexibilidad", "Resistencia"]
            )
            #expect(wheel.headers[.contentLanguage] == "es")
            let english = try await client.send(.get, "/v1/clients/\(id)/wheel", token: token)
            #expect((english.object["slices"] as? [[String: Any]])?.last?["name"] as? String == "Endurance", "each language is cached apart")

            let svg = try await client.send(.get, "/v1/clients/\(id)/wheel.svg?lang=es", token: token).text
            for text in [
                ">Resistencia</text>", ">Flexiones</text>", "Fuerza sin puntuación", "Resistencia 2, necesita atención: Flexiones",
                "<title>Rueda de salud</title>",
            ] {
                #expect(svg.contains(text), "\(text)")
            }
            #expect(!svg.contains("Push-ups") && !svg.contains("no score yet"))
            expectProblem(try await client.send(.get, "/v1/clients/\(id)/wheel.png?lang=de", token: token), .unprocessableContent, fields: ["lang"])
        }
    }

    @Test func aComparedWheelDrawsTheEarlierWheelAsAnOutlineWithItsDate() async throws {
        try await withAPI { fixture, client in
            let token = try await client.token(for: try await fixture.trainer(in: try await fixture.company(), role: .admin))
            let id = try await client.screenedClient(ResultsTests.sam, token: token)
            try await WheelTests.record(
                client,
                id,
                token: token,
                #"{"exerciseId": "push-ups", "values": {"count": 2}, "recordedAt": "2026-06-01T09:00:00Z"}"#
            )
            try await WheelTests.record(
                client,
                id,
                token: token,
                #"{"exerciseId": "push-ups", "values": {"count": 40}, "recordedAt": "2027-01-10T09:00:00Z"}"#
            )
            let plain = try await client.send(.get, "/v1/clients/\(id)/wheel.svg", token: token).text
            let compared = try await client.send(.get, "/v1/clients/\(id)/wheel.svg?compare=2026-07-01", token: token)
            #expect(compared.status == .ok)
            let svg = compared.text
            #expect(!plain.contains("fill-opacity=\"0.16\"") && !plain.contains("Outline:"))
            #expect(svg.contains("Outline: the wheel on 1 Jul 2026"))
            // One faint area and one dashed edge, for the one category scored on that date.
            #expect(svg.components(separatedBy: "fill-opacity=\"0.16\"").count == 2)
            #expect(svg.components(separatedBy: "stroke-opacity=\"0.6\"").count == 3, "the edge, and the legend's sample")
            let before = try await client.send(.get, "/v1/clients/\(id)/wheel.svg?compare=2026-01-01", token: token).text
            #expect(before.contains("Outline: the wheel on 1 Jan 2026") && !before.contains("fill-opacity=\"0.16\""), "nothing was scored then")
            let png = try await client.send(.get, "/v1/clients/\(id)/wheel.png?compare=2026-07-01&size=640", token: token)
            #expect(png.status == .ok && WheelPictureTests.pngSize(png.bodyBytes) == (640, 480))
            for bad in ["2026-13-01", "yesterday", "2026-07-01T00:00:00Z"] {
                expectProblem(
                    try await client.send(.get, "/v1/clients/\(id)/wheel.svg?compare=\(bad)", token: token),
                    .unprocessableContent,
                    fields: ["compare"]
                )
            }
        }
    }
}
