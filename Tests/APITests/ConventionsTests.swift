import Foundation
import HTTPTypes
import HealthwheelCore
import Hummingbird
import Logging
import Services
import Store
import StoreContract
import TestSupport
import Testing

@testable import API

@Suite struct ConventionsTests {
    @Test func healthAnswersWithoutAuthentication() async throws {
        try await withAPI { _, client in
            let response = try await client.send(.get, "/health")
            #expect(response.status == .ok)
            #expect(response.object["status"] as? String == "ok")
        }
    }

    @Test func everyResponseCarriesARequestId() async throws {
        try await withAPI { _, client in
            let generated = try await client.send(.get, "/health")
            let first = try #require(generated.headers[HTTPField.Name("X-Request-Id")!])
            let second = try await client.send(.get, "/nowhere").headers[HTTPField.Name("X-Request-Id")!]
            #expect(!first.isEmpty && first != second)
            let echoed = try await client.send(.get, "/health", headers: [HTTPField.Name("X-Request-Id")!: "trace-abc-123"])
            #expect(echoed.headers[HTTPField.Name("X-Request-Id")!] == "trace-abc-123")
            let unsafe = try await client.send(.get, "/health", headers: [HTTPField.Name("X-Request-Id")!: "has space"])
            #expect(unsafe.headers[HTTPField.Name("X-Request-Id")!] != "has space")
        }
    }

    @Test func unknownRoutesAreProblemDocuments() async throws {
        try await withAPI { _, client in
            expectProblem(try await client.send(.get, "/v1/nothing-here"), .notFound)
        }
    }

    @Test func malformedJSONIs400() async throws {
        try await withAPI { fixture, client in
            let token = try await client.token(for: try await fixture.trainer(in: try await fixture.company(), role: .admin))
            expectProblem(try await client.send(.post, "/v1/trainers", token: token, json: #"{"email": "#), .badRequest)
            expectProblem(try await client.send(.post, "/v1/trainers", token: token, json: #"["not","an","object"]"#), .badRequest)
        }
    }

    /// No store keeps U+0000 in text (PostgreSQL's cannot): refused by name on every backend, nothing stored.
    @Test func aNULCharacterInAnyTextIs422NamingItsFieldAndStoresNothing() async throws {
        try await withAPI { fixture, client in
            let token = try await client.token(for: try await fixture.trainer(in: try await fixture.company(), role: .admin))
            let person = #"{"givenName": "Nul", "familyName": "Byte", "notes": "before\u0000after"}"#
            expectProblem(try await client.send(.post, "/v1/clients", token: token, json: person), .unprocessableContent, fields: ["notes"])
            #expect(try await client.send(.get, "/v1/clients", token: token).listItems.isEmpty)
            let id = try await client.screenedClient(token: token)
            let path = "/v1/clients/\(id)/screenings"
            let screening = try #require(try await client.send(.get, path, token: token).listItems.first?["id"] as? String)
            let answers = #"{"answers": {"occupation": "nurse\u0000"}}"#
            expectProblem(
                try await client.send(.patch, "\(path)/\(screening)", token: token, json: answers),
                .unprocessableContent,
                fields: ["answers.occupation"]
            )
            let result = #"{"exerciseId": "push-ups", "values": {"count": 3}, "observations": "\u0000"}"#
            expectProblem(
                try await client.send(.post, "/v1/clients/\(id)/results", token: token, json: result),
                .unprocessableContent,
                fields: ["observations"]
            )
            #expect(try await client.send(.get, "/v1/clients/\(id)/results", token: token).listItems.isEmpty)
            // An escaped backslash before `u0000` is text, not a NUL.
            let literal = #"{"exerciseId": "push-ups", "values": {"count": 3}, "observations": "\\u0000"}"#
            #expect(try await client.send(.post, "/v1/clients/\(id)/results", token: token, json: literal).status == .created)
        }
    }

    @Test func unknownAndServerOwnedFieldsAre422NamingThem() async throws {
        try await withAPI { fixture, client in
            let token = try await client.token(for: try await fixture.trainer(in: try await fixture.company(), role: .admin))
            let body = jsonString([
                "email": "x@example.com", "name": "X", "role": "trainer", "password": "long enough password",
                "id": UUID().uuidString, "createdAt": "2020-01-01T00:00:00Z", "nickname": "Xy",
            ])
            let response = try await client.send(.post, "/v1/trainers", token: token, json: body)
            expectProblem(response, .unprocessableContent, fields: ["createdAt", "id", "nickname"])
            let messages = (response.object["errors"] as? [[String: Any]] ?? []).compactMap { $0["message"] as? String }
            #expect(messages.filter { $0.contains("set by the server") }.count == 2)
            let count: Int = try fixture.database.readBlocking { try await $0.scalar("SELECT count(*) FROM trainers") }
            #expect(count == 1)
        }
    }

    @Test func missingAndMistypedFieldsAre422NamingThem() async throws {
        try await withAPI { fixture, client in
            let token = try await client.token(for: try await fixture.trainer(in: try await fixture.company(), role: .admin))
            let missing = try await client.send(.post, "/v1/trainers", token: token, json: #"{"email":"x@example.com","name":"X","role":"trainer"}"#)
            expectProblem(missing, .unprocessableContent, fields: ["password"])
            let mistyped = try await client.send(
                .post,
                "/v1/trainers",
                token: token,
                json: #"{"email":"x@example.com","name":42,"role":"trainer","password":"long enough password"}"#
            )
            expectProblem(mistyped, .unprocessableContent, fields: ["name"])
        }
    }

    @Test func aBodyThatIsNotJSONIs415() async throws {
        try await withAPI { fixture, client in
            let token = try await client.token(for: try await fixture.trainer(in: try await fixture.company(), role: .admin))
            let response = try await client.send(
                .post,
                "/v1/trainers",
                token: token,
                json: "email=x@example.com",
                headers: [.contentType: "application/x-www-form-urlencoded"]
            )
            expectProblem(response, .unsupportedMediaType, fields: ["Content-Type"])
        }
    }

    @Test func jsonIsRecognisedInAnyCaseWithOrWithoutParameters() async throws {
        for declared in ["application/json", "Application/JSON", "application/json; charset=utf-8", "application/json;charset=UTF-8"] {
            #expect(Request.isPlainJSON(declared), "\(declared)")
        }
        for declared in ["application/jsonx", "application/json5", "text/json", "application/jso", "", "application/json ; charset=utf-8"] {
            #expect(!Request.isPlainJSON(declared), "\(declared)")
        }
        try await withAPI { fixture, client in
            let token = try await client.token(for: try await fixture.trainer(in: try await fixture.company(), role: .admin))
            // What the quick check passes by is parsed: a +json subtype is JSON too.
            for declared in ["APPLICATION/JSON", "application/problem+json"] {
                let body = jsonString([
                    "email": "\(UUID().uuidString.prefix(8))@example.com", "name": "N", "role": "trainer", "password": "a long password 1",
                ])
                let response = try await client.send(.post, "/v1/trainers", token: token, json: body, headers: [.contentType: declared])
                #expect(response.status == .created, "\(declared)")
            }
            for declared in ["application/json5", "text/plain"] {
                let body = jsonString(["email": "x@example.com", "name": "N", "role": "trainer", "password": "a long password 1"])
                let response = try await client.send(.post, "/v1/trainers", token: token, json: body, headers: [.contentType: declared])
                expectProblem(response, .unsupportedMediaType, fields: ["Content-Type"])
            }
        }
    }

    @Test func aBodyOverOneMebibyteIs413() async throws {
        try await withAPI { fixture, client in
            let token = try await client.token(for: try await fixture.trainer(in: try await fixture.company(), role: .admin))
            let huge = jsonString(["email": "x@example.com", "name": String(repeating: "n", count: 1 << 20), "role": "trainer", "password": "p"])
            expectProblem(try await client.send(.post, "/v1/trainers", token: token, json: huge), .contentTooLarge)
            let count: Int = try fixture.database.readBlocking { try await $0.scalar("SELECT count(*) FROM trainers") }
            #expect(count == 1)
        }
    }

    @Test func metricsAreExposedInPrometheusFormat() async throws {
        try await withAPI { _, client in
            _ = try await client.send(.get, "/health")
            let metrics = try await client.send(.get, "/metrics")
            #expect(metrics.status == .ok)
            #expect(metrics.headers[.contentType]?.hasPrefix("text/plain") == true)
            #expect(metrics.text.contains("# TYPE hb_requests counter"))
            #expect(metrics.text.contains(#"http_route="/health""#))
        }
    }

    @Test func openAPIDocumentsExactlyTheRoutesTheRouterServes() async throws {
        try await withAPI { fixture, client in
            let served = try await client.send(.get, "/openapi.yaml")
            #expect(served.status == .ok)
            let documented = Set(OpenAPIPaths.operations(in: served.text))

            let router = buildRouter(useCases: try testUseCases(fixture))
            let routed = Set(
                router.routes.map { route in
                    // `**` (the rest of the path) is documented as `{path}`.
                    let path = route.path.description.split(separator: "/").map {
                        $0 == "**" ? "{path}" : $0.hasPrefix(":") ? "{\($0.dropFirst())}" : String($0)
                    }
                    return "\(route.method.rawValue) /\(path.joined(separator: "/"))"
                }
            )
            #expect(!routed.isEmpty)
            #expect(routed.subtracting(documented).sorted() == [], "routes missing from openapi.yaml")
            #expect(documented.subtracting(routed).sorted() == [], "documented routes the router does not serve")
        }
    }
}

extension ConventionsTests {
    @Test func aMethodAPathDoesNotTakeIs405WithAllow() async throws {
        try await withAPI { fixture, client in
            let token = try await client.token(for: try await fixture.trainer(in: try await fixture.company(), role: .admin))
            let documented = OpenAPIPaths.operations(in: try await client.send(.get, "/openapi.yaml").text)
            var byPath: [String: Set<String>] = [:]
            for operation in documented {
                let parts = operation.split(separator: " ", maxSplits: 1)
                byPath[String(parts[1]), default: []].insert(String(parts[0]))
            }
            #expect(byPath.count > 30)
            for (path, methods) in byPath {
                let concrete = path.replacingOccurrences(of: #"\{[^}]+\}"#, with: "01A213A1-0000-7000-8000-000000000000", options: .regularExpression)
                let allowed = methods.contains("GET") ? methods.union(["HEAD"]) : methods
                let every = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "TRACE", "QUERY"]
                let allow = every.filter(allowed.contains).joined(separator: ", ")
                for method in every where !allowed.contains(method) {
                    let response = try await client.send(HTTPRequest.Method(method)!, concrete, token: token)
                    #expect(response.status == .methodNotAllowed, "\(method) \(path)")
                    if method != "HEAD" { expectProblem(response, .methodNotAllowed) }
                    #expect(response.headers[.allow] == allow, "\(method) \(path)")
                }
            }
        }
    }
}

extension ConventionsTests {
    @Test func anEmptyQueryParameterIsAbsentAndNumbersAreDigitsOnly() async throws {
        try await withAPI { fixture, client in
            let token = try await client.token(for: try await fixture.trainer(in: try await fixture.company(), role: .admin))
            let id = try await client.screenedClient(token: token)
            // Free text left blank is absent.
            for uri in [
                "/v1/trainers?cursor=", "/v1/clients?q=&cursor=", "/v1/clients/\(id)/results?cursor=&exercise=&from=&to=",
                "/v1/clients/\(id)/deliveries?cursor=", "/v1/exercises?category=", "/v1/clients/\(id)/report?from=&to=",
            ] {
                #expect(try await client.send(.get, uri, token: token).status == .ok, "\(uri)")
            }
            // A period that ends before it starts filters a list to nothing, and a report of it shows nothing.
            let inverted = try await client.send(.get, "/v1/clients/\(id)/results?from=2027-01-01&to=2026-01-01", token: token)
            #expect(inverted.status == .ok && (inverted.object["items"] as? [Any])?.isEmpty == true)
            #expect(try await client.send(.get, "/v1/clients/\(id)/report?from=2027-01-01&to=2026-01-01", token: token).status == .ok)
            // A typed parameter holds a value when given; numbers are digits.
            for (uri, field) in [
                ("/v1/clients/\(id)/wheel.png?size=+512", "size"), ("/v1/clients/\(id)/wheel.png?size=512.0", "size"),
                ("/v1/clients/\(id)/wheel.svg?size=%20512", "size"), ("/v1/trainers?limit=+5", "limit"), ("/v1/trainers?limit=0x10", "limit"),
                ("/v1/clients/\(id)/wheel.svg?size=", "size"), ("/v1/clients/\(id)/wheel.svg?compare=", "compare"), ("/v1/trainers?limit=", "limit"),
                ("/v1/clients/\(id)/wheel?units=", "units"), ("/v1/exercises?lang=", "lang"), ("/v1/clients/\(id)/report?units=", "units"),
            ] {
                expectProblem(try await client.send(.get, uri, token: token), .unprocessableContent, fields: [field])
            }
        }
    }
}

extension ConventionsTests {
    @Test func aQueryIsReadAsAFormEncodesIt() async throws {
        try await withAPI { fixture, client in
            let token = try await client.token(for: try await fixture.trainer(in: try await fixture.company(), role: .admin))
            _ = try await client.createClient(given: "Ada", family: "Lovelace", token: token)
            func found(_ query: String) async throws -> Int {
                (try await client.send(.get, "/v1/clients?\(query)", token: token).object["items"] as? [Any])?.count ?? -1
            }
            #expect(try await found("q=ada+lovelace") == 1, "+ is a space, as forms and HTTP clients send it")
            #expect(try await found("q=ada%20lovelace") == 1)
            #expect(try await found("q=ada%2Blovelace") == 0, "%2B is a plus sign")
            #expect(try await found("q=ada&q=nobody") == 1, "the first occurrence counts")
            expectProblem(try await client.send(.get, "/v1/clients?limit=%", token: token), .unprocessableContent, fields: ["limit"])
        }
    }

    @Test func theContractsListsOfIdsAreTheServers() async throws {
        try await withAPI { fixture, client in
            let token = try await client.token(for: try await fixture.trainer(in: try await fixture.company(), role: .admin))
            let spec = try await client.send(.get, "/openapi.yaml").text
            func listed(after key: String) throws -> Set<String> {
                let line = try #require(spec.split(separator: "\n").first { $0.contains("\(key): { type: string, enum: [") })
                let inside = line.split(separator: "[", maxSplits: 1)[1].split(separator: "]")[0]
                return Set(inside.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
            }
            func ids(_ path: String) async throws -> Set<String> {
                let items = try #require(try await client.send(.get, path, token: token).object["items"] as? [[String: Any]])
                return Set(items.compactMap { $0["id"] as? String })
            }
            #expect(try listed(after: "questionnaireId") == (try await ids("/v1/questionnaires")))
            #expect(try listed(after: "themeId") == (try await ids("/v1/themes")))
        }
    }
}

extension ConventionsTests {
    @Test func aNullForAFieldThatTakesNoNullIsRefusedAndChangesNothing() async throws {
        try await withAPI { fixture, client in
            let token = try await client.token(for: try await fixture.trainer(in: try await fixture.company(), role: .admin))
            let before = try await client.send(.get, "/v1/company", token: token).text
            let company = try await client.send(.patch, "/v1/company", token: token, json: #"{"correctionWindowSeconds": 0, "wheelFlagBelow": null}"#)
            expectProblem(company, .unprocessableContent, fields: ["wheelFlagBelow"])
            #expect(try await client.send(.get, "/v1/company", token: token).text == before)
            let theme = try await client.send(.put, "/v1/theme", token: token, json: #"{"themeId": "high-contrast", "theme": null}"#)
            expectProblem(theme, .unprocessableContent, fields: ["theme"])
            // Where null means "clear", it still does.
            let id = try await client.screenedClient(token: token)
            #expect(try await client.send(.patch, "/v1/clients/\(id)", token: token, json: #"{"phone": null}"#).status == .ok)
        }
    }
}

/// Reads `METHOD /path` pairs from the `paths:` section of an OpenAPI YAML document written in this project's
/// layout (paths indented two spaces, operations four).
enum OpenAPIPaths {
    static let methods: Set<String> = ["get", "put", "post", "delete", "patch", "head", "options"]

    static func operations(in yaml: String) -> [String] {
        var operations: [String] = []
        var inPaths = false
        var currentPath: String?
        for line in yaml.split(separator: "\n", omittingEmptySubsequences: false) {
            if !line.hasPrefix(" ") && !line.isEmpty { inPaths = line == "paths:" }
            guard inPaths else { continue }
            if line.hasPrefix("  /"), line.hasSuffix(":"), !line.hasPrefix("   ") {
                currentPath = String(line.dropFirst(2).dropLast())
            } else if let currentPath, line.hasPrefix("    "), !line.hasPrefix("     ") {
                let key = line.trimmingCharacters(in: .whitespaces).split(separator: ":").first.map(String.init) ?? ""
                if methods.contains(key) { operations.append("\(key.uppercased()) \(currentPath)") }
            }
        }
        return operations
    }
}
