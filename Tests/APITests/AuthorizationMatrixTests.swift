import Foundation
import HTTPTypes
import HealthwheelCore
import HummingbirdTesting
import NIOCore
import Services
import Store
import StoreContract
import TestSupport
import Testing
import Webhooks

@testable import API
@testable import Credentials

/// Every operation of the served `openapi.yaml`, called by six callers against records of company A: no token, an
/// expired token, a trainer and an admin of company B, a trainer of company A who neither looks after the client
/// nor recorded the result, and an admin of company A. Each cell's status is asserted; an operation missing from
/// the matrix fails the test. A leak is a caller outside company A answered 2xx for an A record, or any answer to
/// such a caller that carries an A marker (the client's name, an A id, A's company name).
@Suite struct AuthorizationMatrixTests {
    enum Caller: String, CaseIterable, Sendable {
        case noToken, expiredToken, trainerB, adminB, otherTrainerA, adminA

        var inCompanyA: Bool { self == .otherTrainerA || self == .adminA }
    }

    /// What each caller gets. `trainer` and `admin` are company A's; company B's get 404 on a route naming an A
    /// record, else what A's caller of the same role gets (they act on their own company).
    struct Expectation {
        var admin: Int
        var trainer: Int
        var isPublic = false
        var body: Body? = nil
    }

    enum Body {
        case json(String)
        case bytes(contentType: String, [UInt8])
        /// Company A's admin's email and password.
        case login
    }

    static let vCard = "BEGIN:VCARD\r\nVERSION:4.0\r\nFN:Imported Person\r\nN:Person;Imported;;;\r\nEND:VCARD\r\n"

    /// Records of company A that a route's path names; a fresh set per mutating cell, so one cell cannot spoil the next.
    struct World {
        var client: String
        var screening: String
        var result: String
        var media: String
        var delivery: String
        var trainer: String
        var webhook = ""
        var webhookDelivery = ""
    }

    static let resultJSON = ResultsTests.heartRate(64)

    /// The matrix: every operation of the API, and what the two company-A callers get.
    static let matrix: [String: Expectation] = [
        "GET /health": .init(admin: 200, trainer: 200, isPublic: true),
        "GET /metrics": .init(admin: 200, trainer: 200, isPublic: true),
        "GET /openapi.yaml": .init(admin: 200, trainer: 200, isPublic: true),
        "POST /v1/auth/login": .init(admin: 200, trainer: 200, isPublic: true, body: .login),
        "POST /v1/auth/logout": .init(admin: 204, trainer: 204),
        "GET /v1/me": .init(admin: 200, trainer: 200),
        "GET /v1/company": .init(admin: 200, trainer: 200),
        "PATCH /v1/company": .init(admin: 200, trainer: 403, body: .json(#"{"correctionWindowSeconds": 600}"#)),
        "GET /v1/themes": .init(admin: 200, trainer: 200),
        "GET /v1/theme": .init(admin: 200, trainer: 200),
        "PUT /v1/theme": .init(admin: 200, trainer: 403, body: .json(#"{"themeId": "harbour-fitness"}"#)),
        "GET /v1/theme/logo": .init(admin: 200, trainer: 200),
        "PUT /v1/theme/logo": .init(admin: 200, trainer: 403, body: .bytes(contentType: "image/png", TestPictures.png(width: 80, height: 40))),
        "DELETE /v1/theme/logo": .init(admin: 200, trainer: 403),
        "GET /v1/trainers": .init(admin: 200, trainer: 403),
        "GET /v1/audit": .init(admin: 200, trainer: 403),
        "GET /v1/changes": .init(admin: 200, trainer: 200),
        "GET /v1/webhooks": .init(admin: 200, trainer: 403),
        "POST /v1/webhooks": .init(
            admin: 201,
            trainer: 403,
            body: .json(#"{"url": "https://hooks.example.com/matrix", "events": ["client.created"]}"#)
        ),
        "GET /v1/webhooks/{id}": .init(admin: 200, trainer: 403),
        "PATCH /v1/webhooks/{id}": .init(admin: 200, trainer: 403, body: .json(#"{"events": ["client.created", "result.recorded"]}"#)),
        "DELETE /v1/webhooks/{id}": .init(admin: 204, trainer: 403),
        "POST /v1/webhooks/{id}/rotate-secret": .init(admin: 200, trainer: 403),
        "GET /v1/webhooks/{id}/deliveries": .init(admin: 200, trainer: 403),
        "POST /v1/webhooks/{id}/deliveries/{deliveryId}/replay": .init(admin: 202, trainer: 403),
        "POST /v1/trainers": .init(admin: 201, trainer: 403, body: .json(TrainerTests.newTrainerJSON())),
        "GET /v1/trainers/{id}": .init(admin: 200, trainer: 403),
        "PATCH /v1/trainers/{id}": .init(admin: 200, trainer: 403, body: .json(#"{"name": "Renamed"}"#)),
        "DELETE /v1/trainers/{id}": .init(admin: 204, trainer: 403),
        "GET /v1/clients": .init(admin: 200, trainer: 200),
        "POST /v1/clients": .init(admin: 201, trainer: 201, body: .json(#"{"givenName": "New", "familyName": "Client"}"#)),
        "POST /v1/clients/import": .init(admin: 200, trainer: 200, body: .bytes(contentType: "text/vcard", Array(vCard.utf8))),
        "GET /v1/clients/export.vcf": .init(admin: 200, trainer: 200),
        "GET /v1/clients/{id}": .init(admin: 200, trainer: 200),
        "PATCH /v1/clients/{id}": .init(admin: 200, trainer: 200, body: .json(#"{"goal": "Swim 1 km"}"#)),
        "DELETE /v1/clients/{id}": .init(admin: 204, trainer: 403),
        // A variant of an operation by its query: erasure is for admins alone.
        "DELETE /v1/clients/{id}?erase=true": .init(admin: 204, trainer: 403),
        "GET /v1/clients/{id}/photo": .init(admin: 200, trainer: 200),
        "GET /v1/clients/{id}/fhir": .init(admin: 200, trainer: 200),
        // The trainer of company A in the matrix is not the client's assigned trainer.
        "GET /v1/clients/{id}/export": .init(admin: 200, trainer: 403),
        "PUT /v1/clients/{id}/photo": .init(admin: 204, trainer: 204, body: .bytes(contentType: "image/png", ClientsAPI.png())),
        "DELETE /v1/clients/{id}/photo": .init(admin: 204, trainer: 204),
        "GET /v1/clients/{id}/screenings": .init(admin: 200, trainer: 200),
        "POST /v1/clients/{id}/screenings": .init(admin: 201, trainer: 201, body: .json(#"{"questionnaireId": "screening"}"#)),
        "GET /v1/clients/{id}/screenings/{screeningId}": .init(admin: 200, trainer: 200),
        "PATCH /v1/clients/{id}/screenings/{screeningId}": .init(admin: 200, trainer: 200, body: .json(#"{"answers": {"smoker": true}}"#)),
        "POST /v1/clients/{id}/screenings/{screeningId}/complete": .init(admin: 200, trainer: 200),
        "GET /v1/clients/{id}/screenings/{screeningId}/history": .init(admin: 200, trainer: 200),
        "GET /v1/clients/{id}/results": .init(admin: 200, trainer: 200),
        "POST /v1/clients/{id}/results": .init(admin: 201, trainer: 201, body: .json(resultJSON)),
        "POST /v1/clients/{id}/rescore": .init(admin: 200, trainer: 403),
        "GET /v1/clients/{id}/wheel": .init(admin: 200, trainer: 200),
        "GET /v1/clients/{id}/wheel.svg": .init(admin: 200, trainer: 200),
        "GET /v1/clients/{id}/wheel.png": .init(admin: 200, trainer: 200),
        "GET /v1/clients/{id}/report": .init(admin: 200, trainer: 200),
        "POST /v1/clients/{id}/report/email": .init(admin: 202, trainer: 202, body: .json(#"{"to": "family@example.com"}"#)),
        "GET /v1/clients/{id}/deliveries": .init(admin: 200, trainer: 200),
        "GET /v1/deliveries/{id}": .init(admin: 200, trainer: 200),
        "GET /v1/results/{id}": .init(admin: 200, trainer: 200),
        "PATCH /v1/results/{id}": .init(admin: 200, trainer: 200, body: .json(#"{"observations": "Relaxed"}"#)),
        "DELETE /v1/results/{id}": .init(admin: 204, trainer: 403),
        "GET /v1/results/{id}/history": .init(admin: 200, trainer: 200),
        "GET /v1/results/{id}/media": .init(admin: 200, trainer: 200),
        "POST /v1/results/{id}/media": .init(admin: 201, trainer: 201, body: .bytes(contentType: "image/jpeg", MediaTests.photo)),
        "GET /v1/media/{id}": .init(admin: 200, trainer: 200),
        "PATCH /v1/media/{id}": .init(admin: 200, trainer: 403, body: .json(#"{"caption": "Side view"}"#)),
        "DELETE /v1/media/{id}": .init(admin: 204, trainer: 403),
        "GET /v1/media/{id}/thumbnail": .init(admin: 200, trainer: 200),
        "GET /v1/questionnaires": .init(admin: 200, trainer: 200),
        "GET /v1/questionnaires/{questionnaireId}": .init(admin: 200, trainer: 200),
        "GET /v1/questionnaires/{questionnaireId}/fhir": .init(admin: 200, trainer: 200),
        "GET /v1/categories": .init(admin: 200, trainer: 200),
        "GET /v1/exercises": .init(admin: 200, trainer: 200),
        "GET /v1/exercises/{exerciseId}": .init(admin: 200, trainer: 200),
        "POST /v1/exercises/{exerciseId}/score": .init(
            admin: 200,
            trainer: 200,
            body: .json(#"{"client": {"sex": "male", "age": 40, "height": 1.8, "mass": 80}, "values": {"time": 30}}"#)
        ),
        "POST /v1/exercise-packs": .init(
            admin: 201,
            trainer: 403,
            body: .json(jsonString(ExercisesTests.pack(id: "matrix-pack", exercise: "matrix-stand")))
        ),
        "GET /v1/exercise-images/{path}": .init(admin: 200, trainer: 200),
    ]

    /// The operations `openapi.yaml` declares, as "METHOD /path".
    static func operations(in yaml: String) -> Set<String> {
        var operations: Set<String> = []
        var path: String?
        // Empty lines skipped: a description's paragraphs are separated by them, inside a path.
        for line in yaml.split(separator: "\n", omittingEmptySubsequences: true) {
            if !line.hasPrefix(" ") { path = line == "paths:" ? "" : nil }
            guard let current = path else { continue }
            if line.hasPrefix("  /"), line.hasSuffix(":"), !line.hasPrefix("   ") {
                path = String(line.dropFirst(2).dropLast())
            } else if !current.isEmpty, let method = ["get", "put", "post", "patch", "delete"].first(where: { line == "    \($0):" }) {
                operations.insert("\(method.uppercased()) \(current)")
            }
        }
        return operations
    }

    @Test func everyRouteAnswersEveryCallerAsItShouldAndNothingLeaks() async throws {
        var webhooks = WebhookSettings()
        webhooks.poster = WebhookPosterSettings(policy: WebhookAddressPolicy(allowed: [IPRange("127.0.0.1/32")!]))
        try await withAPI(webhooks: webhooks) { fixture, client in
            let companyA = try await fixture.company("Alpha Gym \(UUID().uuidString.prefix(6))")
            let companyB = try await fixture.company("Beta Gym")
            let adminA = try await fixture.trainer(in: companyA, role: .admin)
            let otherTrainerA = try await fixture.trainer(in: companyA)
            let adminB = try await fixture.trainer(in: companyB, role: .admin)
            let trainerB = try await fixture.trainer(in: companyB)
            let adminToken = try await client.token(for: adminA)  // for building the records; cells log in apart
            // A company-A-only exercise, so that the exercise routes name an A record too.
            let pack = jsonString(ExercisesTests.pack(id: "alpha-balance", exercise: "alpha-stand"))
            #expect(try await client.send(.post, "/v1/exercise-packs", token: adminToken, json: pack).status == .created)
            let expiredToken = AccessToken.generate()
            try await fixture.store.sessions.create(
                tokenDigest: expiredToken.digest,
                trainer: adminA.trainer.id,
                createdAt: fixture.clock.now.addingTimeInterval(-13 * 3600),
                expiresAt: fixture.clock.now.addingTimeInterval(-3600)
            )
            let passwordHash = try PasswordHasher().hash(Fixture.password)

            let yaml = try await client.send(.get, "/openapi.yaml").text
            let declared = Self.operations(in: yaml)
            #expect(declared.count > 50)
            let rows = Set(Self.matrix.keys.map { String($0.prefix { $0 != "?" }) })
            #expect(declared.subtracting(rows).sorted() == [], "operations missing from the matrix")
            #expect(rows.subtracting(declared).sorted() == [], "matrix rows the API does not declare")

            var markers: [String] = [companyA.name, companyA.id.uuidString, adminA.trainer.id.uuidString]
            /// The records `template` names (all of them for the shared world of the reads).
            var shared: World?
            func makeWorld(for template: String?) async throws -> World {
                func needs(_ prefix: String) -> Bool { template.map { $0.hasPrefix(prefix) } ?? true }
                let name = "Zephyrine-\(UUID().uuidString.prefix(8))"
                let json = jsonString([
                    "givenName": name, "familyName": "Quill", "sex": "female", "birthDate": "1980-05-01", "height": 1.7, "mass": 64,
                ])
                let id = try await client.screenedClient(json, token: adminToken)
                var world = World(client: id, screening: "", result: "", media: "", delivery: "", trainer: "")
                markers += [name, id]
                if needs("/v1/clients/{id}/screenings") {
                    world.screening = try await client.startScreening(client: id, token: adminToken)
                    let path = "/v1/clients/\(id)/screenings/\(world.screening)"
                    let answered = try await client.send(.patch, path, token: adminToken, json: ClientsAPI.healthyAnswers)
                    #expect(answered.status == .ok, "\(answered.text)")
                    markers.append(world.screening)
                }
                if needs("/v1/clients/{id}/photo") {
                    let photo = try await client.sendBytes(
                        .put,
                        "/v1/clients/\(id)/photo",
                        token: adminToken,
                        contentType: "image/jpeg",
                        bytes: ClientsAPI.jpeg()
                    )
                    #expect(photo.status == .noContent)
                }
                if needs("/v1/results") || needs("/v1/media") {
                    let result = try await client.send(.post, "/v1/clients/\(id)/results", token: adminToken, json: Self.resultJSON)
                    world.result = try #require(result.object["id"] as? String, "\(result.text)")
                    markers.append(world.result)
                }
                if needs("/v1/media") {
                    let media = try await client.sendBytes(
                        .post,
                        "/v1/results/\(world.result)/media",
                        token: adminToken,
                        contentType: "image/jpeg",
                        bytes: MediaTests.photo
                    )
                    world.media = try #require(media.object["id"] as? String, "\(media.text)")
                    markers.append(world.media)
                }
                if needs("/v1/deliveries") {
                    let mailed = try await client.send(
                        .post,
                        "/v1/clients/\(id)/report/email",
                        token: adminToken,
                        json: #"{"to": "coach@example.com"}"#
                    )
                    world.delivery = try #require(mailed.object["id"] as? String, "\(mailed.text)")
                    markers.append(world.delivery)
                }
                if needs("/v1/webhooks/{id}") {
                    // A company has at most 20 endpoints: those of earlier cells go (the shared world's stays).
                    let existing = try await client.send(.get, "/v1/webhooks", token: adminToken).object["items"] as? [[String: Any]] ?? []
                    for endpoint in existing.compactMap({ $0["id"] as? String }) where endpoint != shared?.webhook {
                        _ = try await client.send(.delete, "/v1/webhooks/\(endpoint)", token: adminToken)
                    }
                    // An endpoint on a closed port of this machine (allowed, as an operator may allow a range): its
                    // first attempt is refused at once and waits for a retry the test's clock never brings, so the
                    // delivery is queued, not being sent, in every cell.
                    let registered = try await client.send(
                        .post,
                        "/v1/webhooks",
                        token: adminToken,
                        json: #"{"url": "https://127.0.0.1:1/matrix", "events": ["client.created"]}"#
                    )
                    world.webhook = try #require(registered.object["id"] as? String, "\(registered.text)")
                    markers.append(world.webhook)
                    _ = try await client.createClient(given: "Hook", family: "Event", token: adminToken)
                    var seen = ""
                    for _ in 0..<1_200 {
                        let log = try await client.send(.get, "/v1/webhooks/\(world.webhook)/deliveries", token: adminToken)
                        seen = log.text
                        let first = (log.object["items"] as? [[String: Any]])?.first
                        if first?["status"] as? String == "queued", first?["attempts"] as? Int == 1, let id = first?["id"] as? String {
                            world.webhookDelivery = id
                            break
                        }
                        try await Task.sleep(for: .milliseconds(50))
                    }
                    #expect(!world.webhookDelivery.isEmpty, "the endpoint's first delivery was attempted: \(seen)")
                }
                if needs("/v1/trainers/{id}") {
                    let trainer = Trainer(
                        companyId: companyA.id,
                        email: "target-\(UUID().uuidString.prefix(8).lowercased())@example.com",
                        name: "Target Trainer",
                        role: .trainer,
                        createdAt: fixture.clock.now,
                        updatedAt: fixture.clock.now
                    )
                    try await fixture.store.trainers.create(trainer, passwordHash: passwordHash, audit: .byTest)
                    world.trainer = trainer.id.uuidString
                    markers.append(world.trainer)
                }
                return world
            }

            var tokens: [Caller: String] = [:]
            func token(_ caller: Caller) async throws -> String? {
                if let token = tokens[caller] { return token }
                let account: Fixture.Account
                switch caller {
                case .noToken: return nil
                case .expiredToken: return expiredToken.value
                case .trainerB: account = trainerB
                case .adminB: account = adminB
                case .otherTrainerA: account = otherTrainerA
                case .adminA: account = adminA
                }
                let token = try await client.token(for: account)
                tokens[caller] = token
                return token
            }

            func uri(_ template: String, _ world: World) -> String {
                var uri = template
                if template.hasPrefix("/v1/clients/{id}") { uri = uri.replacingOccurrences(of: "{id}", with: world.client) }
                if template.hasPrefix("/v1/trainers/{id}") { uri = uri.replacingOccurrences(of: "{id}", with: world.trainer) }
                if template.hasPrefix("/v1/results/{id}") { uri = uri.replacingOccurrences(of: "{id}", with: world.result) }
                if template.hasPrefix("/v1/media/{id}") { uri = uri.replacingOccurrences(of: "{id}", with: world.media) }
                if template.hasPrefix("/v1/deliveries/{id}") { uri = uri.replacingOccurrences(of: "{id}", with: world.delivery) }
                if template.hasPrefix("/v1/webhooks/{id}") { uri = uri.replacingOccurrences(of: "{id}", with: world.webhook) }
                return
                    uri
                    .replacingOccurrences(of: "{screeningId}", with: world.screening)
                    .replacingOccurrences(of: "{deliveryId}", with: world.webhookDelivery)
                    .replacingOccurrences(of: "{questionnaireId}", with: "screening")
                    .replacingOccurrences(of: "{exerciseId}", with: "alpha-stand")
                    .replacingOccurrences(of: "{path}", with: "images/back-scratch-1.svg")
            }

            _ = try await token(.adminA)
            var cells = 0
            var leaks: [String] = []
            for operation in Self.matrix.keys.sorted() {
                let expectation = try #require(Self.matrix[operation])
                let parts = operation.split(separator: " ", maxSplits: 1).map(String.init)
                let method = HTTPRequest.Method(rawValue: parts[0])!
                let template = parts[1]
                // A record of company A is in the path, except the shipped catalog's (questionnaires, images).
                let namesARecord = template.contains("{id}") || template.contains("{screeningId}") || template.contains("{exerciseId}")
                for caller in Caller.allCases {
                    let world: World
                    if method == .get {
                        if shared == nil { shared = try await makeWorld(for: nil) }
                        world = try #require(shared)
                    } else {
                        world = try await makeWorld(for: template)
                    }
                    let token = try await token(caller)
                    // Logging out ends the token: the next cell logs in again.
                    if operation == "POST /v1/auth/logout" { tokens[caller] = nil }
                    let expected: Int
                    if expectation.isPublic {
                        expected = expectation.admin
                    } else {
                        switch caller {
                        case .noToken, .expiredToken: expected = 401
                        case .trainerB: expected = namesARecord ? 404 : expectation.trainer
                        case .adminB: expected = namesARecord ? 404 : expectation.admin
                        case .otherTrainerA: expected = expectation.trainer
                        case .adminA: expected = expectation.admin
                        }
                    }
                    var headers: HTTPFields = [:]
                    if let token { headers[.authorization] = "Bearer \(token)" }
                    var body: ByteBuffer?
                    switch expectation.body {
                    case .json(let text):
                        headers[.contentType] = "application/json"
                        body = ByteBuffer(string: text)
                    case .bytes(let type, let bytes):
                        headers[.contentType] = type
                        body = ByteBuffer(bytes: bytes)
                    case .login:
                        headers[.contentType] = "application/json"
                        body = ByteBuffer(string: jsonString(["email": adminA.email, "password": adminA.password]))
                    case nil: break
                    }
                    // Both companies have a logo before each cell of the logo's routes, which remove and replace it.
                    if template == "/v1/theme/logo" {
                        for admin in [adminA, adminB] {
                            let logo = TestPictures.png(width: 80, height: 40)
                            let put = try await client.sendBytes(
                                .put,
                                template,
                                token: try await client.token(for: admin),
                                contentType: "image/png",
                                bytes: logo
                            )
                            #expect(put.status == .ok)
                        }
                    }
                    let response = try await client.execute(uri: uri(template, world), method: method, headers: headers, body: body) { $0 }
                    cells += 1
                    let status = Int(response.status.code)
                    #expect(status == expected, "\(operation) as \(caller.rawValue): \(response.text.prefix(300))")
                    if !caller.inCompanyA, !expectation.isPublic {
                        let text = String(decoding: response.body.readableBytesView, as: UTF8.self)
                        let seen = markers.filter { text.contains($0) }
                        if (namesARecord && (200..<300).contains(status)) || !seen.isEmpty {
                            leaks.append("\(operation) as \(caller.rawValue): \(status) \(seen)")
                        }
                    }
                }
            }
            #expect(leaks == [])
            #expect(cells == Self.matrix.count * Caller.allCases.count)
            print("authz: \(cells) cells, \(leaks.count) leaks")
        }
    }
}
