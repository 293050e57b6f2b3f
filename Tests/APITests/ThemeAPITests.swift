import Foundation
import HTTPTypes
import HealthwheelCore
import HummingbirdTesting
import TestSupport
import Testing

@testable import API

/// `/v1/theme` and `/v1/themes`: every trainer reads the company's branding; an admin picks a shipped theme,
/// uploads the company's own, or its logo. A refused change changes nothing.
@Suite struct ThemeAPITests {
    static let ownTheme = """
        {"theme": {"id": "our-brand", "name": "Our Brand", "colours": {"tint": "#0B6E69", "background": "#ffffff",
        "text": "#111111", "muted": "#595959", "flag": "#c0392b", "target": "#0b6e69"},
        "categoryColours": {"strength": "#0072b2"}, "font": "DejaVu Serif", "locale": "es", "units": "imperial",
        "reportFooter": "Gracias"}}
        """

    struct Accounts {
        let admin: String
        let trainer: String
    }

    func accounts(_ fixture: Fixture, _ client: any TestClientProtocol) async throws -> Accounts {
        let company = try await fixture.company()
        return Accounts(
            admin: try await client.token(for: try await fixture.trainer(in: company, role: .admin)),
            trainer: try await client.token(for: try await fixture.trainer(in: company))
        )
    }

    @Test func aNewCompanyHasTheDefaultThemeAndNoLogo() async throws {
        try await withAPI { fixture, client in
            let token = try await accounts(fixture, client).trainer
            let theme = try await client.send(.get, "/v1/theme", token: token)
            #expect(theme.status == .ok)
            #expect(theme.jsonBody["id"] == .string("default") && theme.jsonBody["source"] == .string("shipped"))
            #expect(theme.jsonBody["version"] == .number(0) && theme.jsonBody["logo"] == .null)
            #expect(theme.jsonBody["colours"]?["flag"] == .string("#d32f2f"))
            expectProblem(try await client.send(.get, "/v1/theme/logo", token: token), .notFound)

            let shipped = try await client.send(.get, "/v1/themes", token: token)
            let ids = shipped.jsonBody["items"]?.array?.compactMap { $0["id"]?.string }
            #expect(ids == ["default", "harbour-fitness", "high-contrast"])
        }
    }

    @Test func anAdminPicksAShippedThemeAndItsLogoIsServed() async throws {
        try await withAPI { fixture, client in
            let tokens = try await accounts(fixture, client)
            let picked = try await client.send(.put, "/v1/theme", token: tokens.admin, json: #"{"themeId": "harbour-fitness"}"#)
            #expect(picked.status == .ok)
            #expect(picked.jsonBody["version"] == .number(1) && picked.jsonBody["logo"] == .string("/v1/theme/logo"))

            let seen = try await client.send(.get, "/v1/theme", token: tokens.trainer)
            #expect(seen.jsonBody["id"] == .string("harbour-fitness") && seen.jsonBody["font"] == .string("DejaVu Serif"))
            let logo = try await client.send(.get, "/v1/theme/logo", token: tokens.trainer)
            #expect(logo.status == .ok && logo.headers[.contentType] == "image/png")
            let file = try Data(contentsOf: RepositoryRoot.url.appendingPathComponent("Themes/harbour-fitness-logo.png"))
            #expect(logo.bodyBytes == Array(file))
        }
    }

    @Test func anAdminUploadsTheCompanysOwnTheme() async throws {
        try await withAPI { fixture, client in
            let tokens = try await accounts(fixture, client)
            let uploaded = try await client.send(.put, "/v1/theme", token: tokens.admin, json: Self.ownTheme)
            #expect(uploaded.status == .ok)
            let theme = try await client.send(.get, "/v1/theme", token: tokens.trainer).jsonBody
            #expect(theme["source"] == .string("company") && theme["id"] == .string("our-brand"))
            #expect(theme["colours"]?["tint"] == .string("#0b6e69"))
            #expect(theme["categoryColours"] == .object(["strength": .string("#0072b2")]))
            #expect(theme["locale"] == .string("es") && theme["units"] == .string("imperial") && theme["reportFooter"] == .string("Gracias"))
        }
    }

    @Test func aBadThemeIs422NamingEveryKeyAndChangesNothing() async throws {
        try await withAPI { fixture, client in
            let tokens = try await accounts(fixture, client)
            let bad = """
                {"theme": {"id": "x", "name": "X", "colour": "#ffffff", "colours": {"tint": "teal", "background": "#ffffff",
                "text": "#eeeeee", "muted": "#595959", "flag": "#c0392b", "target": "#0b6e69"}, "logo": "logo.png"}}
                """
            let refused = try await client.send(.put, "/v1/theme", token: tokens.admin, json: bad)
            expectProblem(refused, .unprocessableContent, fields: ["theme.colour", "theme.colours.tint", "theme.colours.text", "theme.logo"])
            let namingALogo = Self.ownTheme.replacingOccurrences(of: #""font""#, with: #""logo": "ours.png", "font""#)
            expectProblem(
                try await client.send(.put, "/v1/theme", token: tokens.admin, json: namingALogo),
                .unprocessableContent,
                fields: ["theme.logo"]
            )
            // A cardiovascular slice as red as the flag would hide the needs-attention marker beside it.
            let redSlice = Self.ownTheme.replacingOccurrences(of: ##""strength": "#0072b2""##, with: ##""cardiovascular": "#d7263d""##)
            let close = try await client.send(.put, "/v1/theme", token: tokens.admin, json: redSlice)
            expectProblem(close, .unprocessableContent, fields: ["theme.categoryColours.cardiovascular", "theme.colours.flag"])
            #expect(close.problemMessages.first?.contains("too close to colours.flag") == true)
            // A colour for a category the company does not have names nothing: 404, naming the key.
            let invented = Self.ownTheme.replacingOccurrences(of: ##""strength": "#0072b2""##, with: ##""yoga": "#0072b2""##)
            let missing = try await client.send(.put, "/v1/theme", token: tokens.admin, json: invented)
            expectProblem(missing, .notFound, fields: ["theme.categoryColours.yoga"])
            #expect(missing.object["type"] as? String == "urn:healthwheel:problem:reference-not-found")
            let unknown = try await client.send(.put, "/v1/theme", token: tokens.admin, json: #"{"themeId": "neon"}"#)
            expectProblem(unknown, .unprocessableContent, fields: ["themeId"])
            let both = try await client.send(.put, "/v1/theme", token: tokens.admin, json: #"{"themeId": "default", "theme": {}}"#)
            expectProblem(both, .unprocessableContent, fields: ["themeId"])
            expectProblem(
                try await client.send(.put, "/v1/theme", token: tokens.admin, json: #"{"themeID": "default"}"#),
                .unprocessableContent,
                fields: ["themeID"]
            )

            let theme = try await client.send(.get, "/v1/theme", token: tokens.admin).jsonBody
            #expect(theme["id"] == .string("default") && theme["version"] == .number(0))
        }
    }

    @Test func aTrainerWhoIsNotAnAdminCannotChangeTheTheme() async throws {
        try await withAPI { fixture, client in
            let tokens = try await accounts(fixture, client)
            expectProblem(try await client.send(.put, "/v1/theme", token: tokens.trainer, json: #"{"themeId": "high-contrast"}"#), .forbidden)
            let png = TestPictures.png(width: 64, height: 64)
            expectProblem(try await client.sendBytes(.put, "/v1/theme/logo", token: tokens.trainer, contentType: "image/png", bytes: png), .forbidden)
            expectProblem(try await client.send(.delete, "/v1/theme/logo", token: tokens.trainer), .forbidden)
            #expect(try await client.send(.get, "/v1/theme", token: tokens.trainer).jsonBody["version"] == .number(0))
        }
    }

    @Test func theCompanysLogoIsCheckedServedAndRemoved() async throws {
        try await withAPI { fixture, client in
            let tokens = try await accounts(fixture, client)
            let path = "/v1/theme/logo"
            expectProblem(
                try await client.sendBytes(.put, path, token: tokens.admin, contentType: "image/jpeg", bytes: ClientsAPI.jpeg()),
                .unsupportedMediaType
            )
            expectProblem(
                try await client.sendBytes(.put, path, token: tokens.admin, contentType: "image/png", bytes: ClientsAPI.jpeg()),
                .unprocessableContent,
                fields: ["body"]
            )
            let tooLarge = ClientsAPI.png(size: (1 << 20) + 1)
            expectProblem(try await client.sendBytes(.put, path, token: tokens.admin, contentType: "image/png", bytes: tooLarge), .contentTooLarge)
            #expect(try await client.send(.get, "/v1/theme", token: tokens.admin).jsonBody["version"] == .number(0))

            let logo = TestPictures.png(width: 300, height: 100)
            let saved = try await client.sendBytes(.put, path, token: tokens.admin, contentType: "image/png", bytes: logo)
            #expect(saved.status == .ok && saved.jsonBody["logo"] == .string(path))
            // The company's own logo wins over the shipped theme's, and stays when the theme changes.
            _ = try await client.send(.put, "/v1/theme", token: tokens.admin, json: #"{"themeId": "harbour-fitness"}"#)
            #expect(try await client.send(.get, path, token: tokens.trainer).bodyBytes == logo)

            let removed = try await client.send(.delete, path, token: tokens.admin)
            #expect(removed.status == .ok && removed.jsonBody["version"] == .number(3))
            let shipped = try Data(contentsOf: RepositoryRoot.url.appendingPathComponent("Themes/harbour-fitness-logo.png"))
            #expect(try await client.send(.get, path, token: tokens.trainer).bodyBytes == Array(shipped))
        }
    }

    @Test func oneCompanysBrandingNeverReachesAnother() async throws {
        try await withAPI { fixture, client in
            let first = try await accounts(fixture, client)
            let second = try await accounts(fixture, client)
            _ = try await client.send(.put, "/v1/theme", token: first.admin, json: Self.ownTheme)
            _ = try await client.sendBytes(
                .put,
                "/v1/theme/logo",
                token: first.admin,
                contentType: "image/png",
                bytes: TestPictures.png(width: 64, height: 64)
            )
            let other = try await client.send(.get, "/v1/theme", token: second.trainer).jsonBody
            #expect(other["id"] == .string("default") && other["version"] == .number(0) && other["logo"] == .null)
            expectProblem(try await client.send(.get, "/v1/theme/logo", token: second.trainer), .notFound)
        }
    }
}
