import Foundation
import HTTPTypes
import HealthwheelCore
import HummingbirdTesting
import Testing

@testable import API

/// Nothing a card holds vanishes: its NOTE, and every property the server does not keep, are accounted for.
@Suite struct VCardImportNotesTests {
    let cards = VCardImportTests()

    static let noted = """
        BEGIN:VCARD\r
        VERSION:3.0\r
        N:Walker;Sam;;;\r
        FN:Sam Walker\r
        EMAIL:sam@example.com\r
        NOTE:Knee surgery 2019\\, cleared for squats.\\nPrefers mornings.\r
        ADR;TYPE=HOME:;;1 Main St;Springfield;;;\r
        ORG:Acme\r
        URL:https://example.com/sam\r
        END:VCARD\r

        """

    @Test func newClientGetsTheCardsNoteAndTheReportNamesWhatWasNotKept() async throws {
        try await withAPI { fixture, client in
            let token = try await client.token(for: try await fixture.trainer(in: try await fixture.company()))
            let response = try await cards.importCards(Self.noted, token: token, client: client)
            #expect(response.status == .ok, "\(response.text)")
            let item = try #require(cards.items(response).first)
            #expect(item["status"] as? String == "created")
            let notes = (item["notes"] as? [String] ?? []).joined(separator: " | ")
            for property in ["ADR", "ORG", "URL"] { #expect(notes.contains(property), "\(notes)") }
            let id = try #require(item["clientId"] as? String)
            let stored = try await client.send(.get, "/v1/clients/\(id)", token: token)
            #expect(stored.object["notes"] as? String == "Knee surgery 2019, cleared for squats.\nPrefers mornings.")
        }
    }

    @Test func existingClientKeepsTheTrainersNotesAndTheReportSaysSo() async throws {
        try await withAPI { fixture, client in
            let token = try await client.token(for: try await fixture.trainer(in: try await fixture.company()))
            let first = try await cards.importCards(Self.noted, token: token, client: client)
            let id = try #require(cards.items(first).first?["clientId"] as? String)
            let edited = try await client.send(.patch, "/v1/clients/\(id)", token: token, json: #"{"notes": "Trainer's own notes"}"#)
            #expect(edited.status == .ok, "\(edited.text)")

            let again = try await cards.importCards(Self.noted, token: token, client: client)
            let item = try #require(cards.items(again).first)
            #expect(item["status"] as? String == "updated")
            #expect((item["notes"] as? [String])?.contains { $0.contains("NOTE") && $0.contains("kept") } == true, "\(item)")
            let stored = try await client.send(.get, "/v1/clients/\(id)", token: token)
            #expect(stored.object["notes"] as? String == "Trainer's own notes")
        }
    }

    @Test func twoCardsForOnePersonInOneFileMakeOneClient() async throws {
        try await withAPI { fixture, client in
            let token = try await client.token(for: try await fixture.trainer(in: try await fixture.company()))
            let second = "BEGIN:VCARD\r\nVERSION:3.0\r\nN:Walker;Sam;;;\r\nEMAIL:sam@example.com\r\nTEL:+64 21 555 0000\r\nEND:VCARD\r\n"
            let response = try await cards.importCards(Self.noted + second, token: token, client: client)
            let items = cards.items(response)
            #expect(items.compactMap { $0["status"] as? String } == ["created", "updated"], "\(response.text)")
            #expect(items[0]["clientId"] as? String == items[1]["clientId"] as? String)
            let listed = try await client.send(.get, "/v1/clients", token: token).listItems
            #expect(listed.count == 1)
            #expect(listed.first?["phone"] as? String != nil)
        }
    }

    /// 300,000 folded lines took 478 s of one core before unfolding was made linear: it must simply finish.
    @Test func foldBombImportFinishes() async throws {
        try await withAPI { fixture, client in
            let token = try await client.token(for: try await fixture.trainer(in: try await fixture.company()))
            let body = "BEGIN:VCARD\r\nVERSION:4.0\r\nFN:F" + String(repeating: "\r\n x", count: 300_000) + "\r\nEND:VCARD\r\n"
            let response = try await cards.importCards(body, token: token, client: client)
            #expect(response.status == .ok || response.status == .unprocessableContent, "\(response.status)")
            #expect(response.object["skipped"] as? Int == 1 || response.status == .unprocessableContent, "\(response.text.prefix(300))")
        }
    }
}
