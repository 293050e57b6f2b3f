#if PostgreSQL
import Foundation
import HealthwheelCore
import Store
import StoreContract
import TestSupport
import Testing

/// On PostgreSQL, whose files are not encrypted, a dump of the database holds no health data in the clear: the
/// application seals it (AES-GCM under HEALTHWHEEL_DATA_KEY). Names, emails and phone numbers stay readable, as
/// the client list searches them.
@Suite(.enabled(if: TestBackend.current == .postgres, "PostgreSQL's own dump"))
struct SealedColumnsTests {
    @Test func aDumpHoldsNoNotesAnswersObservationsOrValuesButTheAPIReadsThemBack() async throws {
        try await withAPI { fixture, client in
            let company = try await fixture.company()
            let token = try await client.token(for: try await fixture.trainer(in: company))
            let mark = UUID().uuidString.prefix(8)
            let person = """
                {"givenName": "Wilhelmina\(mark)", "familyName": "Quill", "email": "wq\(mark)@example.com", "notes": "NOTE\(mark) knee",
                 "birthDate": "1980-01-02", "sex": "female", "height": 1.7, "mass": 64}
                """
            let id = try await client.createClient(person, token: token)
            let answers = #"{"answers": {"occupation": "OCCUPATION\#(mark)"}}"#
            _ = try await client.completeScreening(client: id, token: token, answers: answers)
            let result = #"{"exerciseId": "resting-heart-rate", "values": {"heartRate": 61.37}, "observations": "OBSERVED\#(mark)"}"#
            let recorded = try await client.send(.post, "/v1/clients/\(id)/results", token: token, json: result)
            #expect(recorded.status == .created, "body: \(recorded.text)")

            // What the API gives back is what was entered.
            #expect(try await client.send(.get, "/v1/clients/\(id)", token: token).text.contains("NOTE\(mark) knee"))
            let listed = try await client.send(.get, "/v1/clients/\(id)/results", token: token).text
            #expect(listed.contains("OBSERVED\(mark)") && listed.contains("61.37"), "\(listed)")
            let screenings = try await client.send(.get, "/v1/clients/\(id)/screenings", token: token).text
            #expect(screenings.contains("OCCUPATION\(mark)"))

            let database = try #require(fixture.database as? PostgreSQLDatabase)
            let dump = try PostgreSQLStoredBytes.pgDump(database.url)
            #expect(dump.contains("Wilhelmina\(mark)"), "the dump reads names: else it proves nothing")
            // Stored values are written `{"heartRate":61.37}` (the packs' examples use whole and half beats).
            for sealed in ["NOTE\(mark)", "OCCUPATION\(mark)", "OBSERVED\(mark)", #"{"heartRate":61.37}"#] {
                #expect(!dump.contains(sealed), "\(sealed) is in the dump")
            }
        }
    }
}
#endif
