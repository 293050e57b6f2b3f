import Foundation
import HTTPTypes
import HealthwheelCore
import HummingbirdTesting
import Services
import Store
import StoreContract
import TestSupport
import Testing

@testable import API

/// `PUT /v1/theme/logo` measures a logo by its header before anything decodes it (at most 2048 × 2048 pixels),
/// decodes it once and keeps a normalised copy; reports draw that copy and never decode the logo again.
@Suite struct LogoPictureTests {
    struct Admin {
        let company: UUID
        let token: String
    }

    func admin(_ fixture: Fixture, _ client: any TestClientProtocol) async throws -> Admin {
        let company = try await fixture.company()
        return Admin(company: company.id, token: try await client.token(for: try await fixture.trainer(in: company, role: .admin)))
    }

    func putLogo(_ bytes: [UInt8], _ admin: Admin, _ client: any TestClientProtocol) async throws -> TestResponse {
        try await client.sendBytes(.put, "/v1/theme/logo", token: admin.token, contentType: "image/png", bytes: bytes)
    }

    func pdf(_ clientId: String, _ admin: Admin, _ client: any TestClientProtocol) async throws -> String {
        let response = try await client.send(.get, "/v1/clients/\(clientId)/report", token: admin.token, headers: [.accept: "application/pdf"])
        #expect(response.status == .ok && response.headers[.contentType] == "application/pdf")
        return String(decoding: response.bodyBytes, as: UTF8.self)
    }

    /// The lines the server logged each time it decoded a logo.
    func decodings(_ logs: LogRecorder) -> [String] {
        logs.all.filter { $0.hasPrefix("debug logo decoded") }
    }

    /// Stores `logo` as a server before normalised copies did: the original only.
    func storeWithoutNormalisedCopy(_ logo: [UInt8], of company: UUID, _ fixture: Fixture) async throws {
        try await fixture.database.write { db in
            try await db.run(
                "INSERT INTO company_themes (company_id, logo, version, updated_at) VALUES (?, ?, 1, ?)",
                company,
                logo,
                Date(timeIntervalSince1970: 1_700_000_000)
            )
        }
    }

    @Test func aLogoOver2048PixelsIs422NamingItsSizeAndChangesNothing() async throws {
        try await withAPI { fixture, client in
            let admin = try await admin(fixture, client)
            let kept = TestPictures.png(width: 64, height: 64)
            #expect(try await putLogo(kept, admin, client).status == .ok)

            // 20000 × 20000 in a few hundred KiB: 1.6 GB once decoded.
            let bomb = TestPictures.blackPNG(width: 20000, height: 20000)
            #expect(bomb.count < ThemeCatalog.maximumLogoBytes)
            let refused = try await putLogo(bomb, admin, client)
            expectProblem(refused, .unprocessableContent, fields: ["body"])
            #expect(refused.problemMessages == ["is 20000×20000 pixels; at most 2048×2048 are accepted"])
            let oneTooWide = try await putLogo(TestPictures.blackPNG(width: 2049, height: 2048), admin, client)
            expectProblem(oneTooWide, .unprocessableContent, fields: ["body"])
            #expect(oneTooWide.problemMessages == ["is 2049×2048 pixels; at most 2048×2048 are accepted"])

            let theme = try await client.send(.get, "/v1/theme", token: admin.token)
            #expect(theme.jsonBody["version"] == .number(1))
            #expect(try await client.send(.get, "/v1/theme/logo", token: admin.token).bodyBytes == kept)
        }
    }

    @Test func aLogoOf2048By2048IsAcceptedAndKeptWithANormalisedCopy() async throws {
        try await withAPI { fixture, client in
            let admin = try await admin(fixture, client)
            let logo = TestPictures.png(width: 2048, height: 2048)
            let saved = try await putLogo(logo, admin, client)
            #expect(saved.status == .ok && saved.jsonBody["logo"] == .string("/v1/theme/logo"))
            #expect(try await client.send(.get, "/v1/theme/logo", token: admin.token).bodyBytes == logo, "served as uploaded")
            let stored = try await fixture.store.themes.find(company: admin.company)
            #expect(stored.logo == logo)
            let copy = try #require(stored.reportLogo)
            #expect(try PictureHeader.read(copy) == PictureHeader(format: .png, width: 512, height: 512))
        }
    }

    @Test func truncatedAndLyingLogosAre422AndChangeNothing() async throws {
        try await withAPI { fixture, client in
            let admin = try await admin(fixture, client)
            let good = TestPictures.png(width: 64, height: 64)
            var lyingSize = good
            lyingSize[16...19] = [0, 0, 0x4E, 0x20]  // says 20000 wide; its checksum says otherwise
            let shortData = TestPictures.png(width: 64, height: 64, colourType: 6, bitDepth: 8, row: [UInt8](repeating: 9, count: 40))
            let textFirst = TestPictures.pngSignature + TestPictures.chunk("tEXt", Array("a\0b".utf8)) + good.dropFirst(8)
            let cases: [([UInt8], String)] = [
                (TestPictures.pngSignature, "is a PNG that ends inside its header (IHDR)"),
                (Array(good.prefix(20)), "is a PNG that ends inside its header (IHDR)"),
                (lyingSize, "is a PNG whose header (IHDR) does not match its checksum"),
                (textFirst, "is a PNG whose first chunk is not a 13-byte header (IHDR)"),
                (shortData, "is a PNG that does not decode"),
                (Array(good.prefix(200)), "is a PNG that does not decode"),
            ]
            for (bytes, reason) in cases {
                let response = try await putLogo(bytes, admin, client)
                expectProblem(response, .unprocessableContent, fields: ["body"])
                #expect(response.problemMessages == [reason])
            }
            #expect(try await client.send(.get, "/v1/theme", token: admin.token).jsonBody["version"] == .number(0))
            expectProblem(try await client.send(.get, "/v1/theme/logo", token: admin.token), .notFound)
        }
    }

    @Test func reportsDrawTheLogoDecodedOnceNotOncePerReport() async throws {
        let logs = LogRecorder()
        try await withAPI(logs: logs) { fixture, client in
            let admin = try await admin(fixture, client)
            let clientId = try await client.createClient(given: "Sam", family: "Okafor", token: admin.token)
            #expect(try await putLogo(TestPictures.png(width: 2048, height: 1536), admin, client).status == .ok)
            #expect(decodings(logs).count == 1 && decodings(logs)[0].contains("logo.size=512x384 logo.source=upload"))

            for _ in 0..<3 {
                let pdf = try await pdf(clientId, admin, client)
                #expect(pdf.contains("/Subtype /Image") && pdf.contains("/Width 176") && pdf.contains("/Height 132"))
            }
            let html = try await client.send(.get, "/v1/clients/\(clientId)/report", token: admin.token).text
            let copy = try #require(try await fixture.store.themes.find(company: admin.company).reportLogo)
            #expect(html.contains("data:image/png;base64," + Data(copy).base64EncodedString()), "the page shows the normalised copy")
            // A new theme is a new version; the logo is the same and is not decoded again.
            #expect(try await client.send(.put, "/v1/theme", token: admin.token, json: #"{"themeId": "high-contrast"}"#).status == .ok)
            #expect(try await pdf(clientId, admin, client).contains("/Width 176"))
            #expect(decodings(logs).count == 1, "\(decodings(logs))")
        }
    }

    @Test func aLogoStoredBeforeNormalisedCopiesIsNormalisedOnceOnFirstUse() async throws {
        let logs = LogRecorder()
        try await withAPI(logs: logs) { fixture, client in
            let admin = try await admin(fixture, client)
            let clientId = try await client.createClient(given: "Sam", family: nil, token: admin.token)
            try await storeWithoutNormalisedCopy(TestPictures.png(width: 1024, height: 256), of: admin.company, fixture)

            #expect(try await pdf(clientId, admin, client).contains("/Width 176"))
            #expect(decodings(logs).count == 1 && decodings(logs)[0].contains("logo.size=512x128 logo.source=original"))
            let stored = try await fixture.store.themes.find(company: admin.company)
            #expect(stored.version == 1, "keeping the copy is not a change of branding")
            #expect(try stored.reportLogo.map(PictureHeader.read) == PictureHeader(format: .png, width: 512, height: 128))
            #expect(try await pdf(clientId, admin, client).contains("/Height 44"))
            #expect(decodings(logs).count == 1)
        }
    }

    @Test func aStoredLogoOverTheLimitIsLeftOutOfReportsWithAWarning() async throws {
        let logs = LogRecorder()
        try await withAPI(logs: logs) { fixture, client in
            let admin = try await admin(fixture, client)
            let clientId = try await client.createClient(given: "Sam", family: nil, token: admin.token)
            let bomb = TestPictures.blackPNG(width: 20000, height: 20000)
            try await storeWithoutNormalisedCopy(bomb, of: admin.company, fixture)

            #expect(!(try await pdf(clientId, admin, client).contains("/Subtype /Image")))
            let html = try await client.send(.get, "/v1/clients/\(clientId)/report", token: admin.token)
            #expect(html.status == .ok && !html.text.contains("alt=\"Company"))
            #expect(decodings(logs).isEmpty)
            let warnings = logs.all.filter { $0.hasPrefix("warning the company's logo is not shown in reports") }
            #expect(warnings.count == 1 && warnings[0].contains("20000×20000"), "\(warnings)")
            #expect(try await client.send(.get, "/v1/theme/logo", token: admin.token).bodyBytes == bomb, "served as stored, not decoded")
        }
    }
}
