import Foundation
import HTTPTypes
import HealthwheelCore
import HummingbirdTesting
import NIOCore
import Testing

@testable import API

@Suite struct VCardImportTests {
    static let jpeg = ClientsAPI.jpeg(size: 40)

    static let appleCard = """
        BEGIN:VCARD\r
        VERSION:3.0\r
        PRODID:-//Apple Inc.//macOS 14.5//EN\r
        N:Ångström;Zoë;;;\r
        FN:Zoë Ångström\r
        item1.EMAIL;type=INTERNET;type=pref:Zoe@Example.com\r
        TEL;type=CELL;type=VOICE;type=pref:+64 21 555 1234\r
        BDAY:1985-03-14\r
        X-GENDER:Female\r
        PHOTO;ENCODING=b;TYPE=JPEG:\(Data(jpeg).base64EncodedString())\r
        UID:APPLE-UID-1\r
        END:VCARD\r

        """

    static let googleCard = """
        BEGIN:VCARD
        VERSION:3.0
        FN:Jane Doe
        N:Doe;Jane;;;
        EMAIL;TYPE=INTERNET;TYPE=HOME:jane.doe@gmail.com
        BDAY:19901201
        PHOTO:https://lh3.googleusercontent.com/contacts/ABCDEF
        END:VCARD

        """

    func importCards(_ text: String, token: String, client: any TestClientProtocol) async throws -> TestResponse {
        try await client.send(.post, "/v1/clients/import", token: token, json: text, headers: [.contentType: "text/vcard"])
    }

    func items(_ response: TestResponse) -> [[String: Any]] {
        response.object["items"] as? [[String: Any]] ?? []
    }

    @Test func importCreatesClientsAndReportsEachCard() async throws {
        try await withAPI { fixture, client in
            let token = try await client.token(for: try await fixture.trainer(in: try await fixture.company()))
            let broken = "BEGIN:VCARD\nVERSION:3.0\nEMAIL:nameless@example.com\nEND:VCARD\n"
            let badEmail = "BEGIN:VCARD\nVERSION:3.0\nN:Bad;Email;;;\nEMAIL:not-an-email\nEND:VCARD\n"
            let response = try await importCards(Self.appleCard + broken + Self.googleCard + badEmail, token: token, client: client)
            #expect(response.status == .ok)
            #expect(response.object["created"] as? Int == 2 && response.object["skipped"] as? Int == 2)
            let statuses = items(response).compactMap { $0["status"] as? String }
            #expect(statuses == ["created", "skipped", "created", "skipped"])
            #expect((items(response)[3]["reason"] as? String)?.contains("email") == true)
            #expect((items(response)[2]["notes"] as? [String])?.contains { $0.contains("photo") } == true)

            let zoeId = try #require(items(response)[0]["clientId"] as? String)
            let zoe = try await client.send(.get, "/v1/clients/\(zoeId)", token: token)
            #expect(zoe.object["email"] as? String == "zoe@example.com")
            #expect(zoe.object["birthDate"] as? String == "1985-03-14")
            #expect(zoe.object["sex"] as? String == "female")
            #expect(zoe.object["hasPhoto"] as? Bool == true)
            let photo = try await client.send(.get, "/v1/clients/\(zoeId)/photo", token: token)
            #expect(Array(photo.body.readableBytesView) == Self.jpeg)
        }
    }

    @Test func reimportMatchesByUidThenEmailThenNameAndKeepsWhatTheCardLacks() async throws {
        try await withAPI { fixture, client in
            let token = try await client.token(for: try await fixture.trainer(in: try await fixture.company()))
            _ = try await importCards(Self.appleCard + Self.googleCard, token: token, client: client)
            let list = try await client.send(.get, "/v1/clients", token: token)
            let jane = try #require((list.object["items"] as? [[String: Any]])?.first { $0["familyName"] as? String == "Doe" })
            let janeId = try #require(jane["id"] as? String)
            #expect(try await client.send(.patch, "/v1/clients/\(janeId)", token: token, json: #"{"goal":"Marathon"}"#).status == .ok)

            // Same UID, new phone: updates Zoë. Same email, no UID: updates Jane and keeps her goal.
            let zoeAgain = Self.appleCard.replacingOccurrences(of: "+64 21 555 1234", with: "+64 21 999 0000")
            let janeAgain = "BEGIN:VCARD\nVERSION:3.0\nN:Doe-Smith;Jane;;;\nEMAIL:JANE.DOE@gmail.com\nEND:VCARD\n"
            let byName = "BEGIN:VCARD\nVERSION:4.0\nFN:Zoë Ångström\nN:Ångström;Zoë;;;\nGENDER:F\nEND:VCARD\n"
            let response = try await importCards(zoeAgain + janeAgain + byName, token: token, client: client)
            #expect(items(response).compactMap { $0["status"] as? String } == ["updated", "updated", "updated"])

            let after = try await client.send(.get, "/v1/clients", token: token)
            let clients = after.object["items"] as? [[String: Any]] ?? []
            #expect(clients.count == 2)
            #expect(clients.contains { $0["phone"] as? String == "+64 21 999 0000" })
            let janeAfter = try #require(clients.first { $0["id"] as? String == janeId })
            #expect(janeAfter["familyName"] as? String == "Doe-Smith")
            #expect(janeAfter["goal"] as? String == "Marathon")
            #expect(janeAfter["birthDate"] as? String == "1990-12-01")
        }
    }

    @Test func exportedCardsReimportToTheSameClients() async throws {
        try await withAPI { fixture, client in
            let token = try await client.token(for: try await fixture.trainer(in: try await fixture.company()))
            let created = try await client.send(
                .post,
                "/v1/clients",
                token: token,
                json: #"{"givenName":"Ana","familyName":"Núñez","email":"ana@example.es","birthDate":"2000-02-29","sex":"female"}"#
            )
            let id = try #require(created.object["id"] as? String)
            let one = try await client.send(.get, "/v1/clients/\(id)", token: token, headers: [.accept: "text/vcard"])
            #expect(one.headers[.contentType]?.hasPrefix("text/vcard") == true)
            #expect(one.text.contains("VERSION:4.0") && one.text.contains("BDAY:20000229"))

            _ = try await importCards(Self.googleCard, token: token, client: client)
            let all = try await client.send(.get, "/v1/clients/export.vcf", token: token)
            #expect(all.status == .ok)
            #expect(all.text.components(separatedBy: "BEGIN:VCARD").count - 1 == 2)

            let reimport = try await importCards(all.text, token: token, client: client)
            #expect(reimport.object["created"] as? Int == 0 && reimport.object["updated"] as? Int == 2)
            let list = try await client.send(.get, "/v1/clients", token: token)
            #expect((list.object["items"] as? [[String: Any]])?.count == 2)
            let ana = try await client.send(.get, "/v1/clients/\(id)", token: token)
            #expect(ana.object["familyName"] as? String == "Núñez" && ana.object["birthDate"] as? String == "2000-02-29")
        }
    }

    @Test func importRefusesWhatIsNotVCardAndImportsNothingFromTextWithoutCards() async throws {
        try await withAPI { fixture, client in
            let token = try await client.token(for: try await fixture.trainer(in: try await fixture.company()))
            let json = try await client.send(.post, "/v1/clients/import", token: token, json: #"{"cards":[]}"#)
            expectProblem(json, .unsupportedMediaType, fields: ["Content-Type"])
            // Text with no card imports nothing, and says so.
            for text in ["hello", ""] {
                let nothing = try await importCards(text, token: token, client: client)
                #expect(nothing.status == .ok)
                #expect(nothing.object["created"] as? Int == 0 && nothing.object["skipped"] as? Int == 0)
                #expect((nothing.object["items"] as? [Any])?.isEmpty == true)
            }
        }
    }

    @Test func aCardsPhotoOverThePixelLimitOrWithABrokenHeaderIsLeftOutWithANote() async throws {
        try await withAPI { fixture, client in
            let token = try await client.token(for: try await fixture.trainer(in: try await fixture.company()))
            let huge = ClientsAPI.jpeg(size: 200, width: 10_000, height: 6_000)
            let truncated = Array(ClientsAPI.jpeg(size: 200).prefix(12))
            let card = { (name: String, photo: [UInt8]) in
                "BEGIN:VCARD\r\nVERSION:3.0\r\nN:\(name);Kim;;;\r\nPHOTO;ENCODING=b;TYPE=JPEG:\(Data(photo).base64EncodedString())\r\nEND:VCARD\r\n"
            }
            let response = try await importCards(card("Huge", huge) + card("Cut", truncated), token: token, client: client)
            #expect(response.object["created"] as? Int == 2)
            let notes = items(response).map { $0["notes"] as? [String] ?? [] }
            #expect(notes[0] == ["photo not imported: it is 10000×6000 pixels; at most 8192×8192 are accepted"])
            #expect(notes[1] == ["photo not imported: it is a JPEG that ends before its frame header (SOF)"])
            for item in items(response) {
                let id = try #require(item["clientId"] as? String)
                #expect(try await client.send(.get, "/v1/clients/\(id)", token: token).object["hasPhoto"] as? Bool == false)
            }
        }
    }

    @Test func importAndExportStayInsideTheCompany() async throws {
        try await withAPI { fixture, client in
            let first = try await client.token(for: try await fixture.trainer(in: try await fixture.company()))
            let second = try await client.token(for: try await fixture.trainer(in: try await fixture.company()))
            _ = try await importCards(Self.appleCard, token: first, client: client)
            // The same card in another company creates that company's own client; nothing is shared.
            let other = try await importCards(Self.appleCard, token: second, client: client)
            #expect(other.object["created"] as? Int == 1)
            let exported = try await client.send(.get, "/v1/clients/export.vcf", token: second)
            #expect(exported.text.components(separatedBy: "BEGIN:VCARD").count - 1 == 1)
            let firstList = try await client.send(.get, "/v1/clients", token: first)
            let firstId = try #require((firstList.object["items"] as? [[String: Any]])?.first?["id"] as? String)
            expectProblem(try await client.send(.get, "/v1/clients/\(firstId)", token: second, headers: [.accept: "text/vcard"]), .notFound)
        }
    }
}
