import Credentials
import Foundation
import HealthwheelCore
import Store
import StoreContract
import TestSupport
import Testing

@testable import Services

/// What the web console added to the use cases: sliding sessions, the summaries the roster lists.
@Suite struct ConsoleUseCaseTests {
    typealias Fixture = UseCaseTests.Fixture

    @Test func aSlidingSessionEndsAfterIdleTimeAndAtTheLatestAfterItsLifetime() async throws {
        let fixture = try Fixture()
        let trainer = try await fixture.trainer(.trainer, in: try await fixture.company(), email: "ana@example.com")
        let sessions = Sessions(
            store: fixture.store,
            passwords: UseCaseTests.PlainPasswords(),
            policy: Sessions.Policy(tokenLifetime: 3_600, idleLimit: 600),
            clock: fixture.clock
        )
        let login = try await sessions.login(email: trainer.email, password: "password 123456", from: "10.0.0.1", sliding: true)
        #expect(login.expiresAt == fixture.clock.now.addingTimeInterval(600))
        // Used every nine minutes, it lasts its hour and no more.
        var minutes = 0
        while minutes + 9 <= 60 {
            fixture.clock.advance(by: 9 * 60)
            minutes += 9
            #expect(try await sessions.principal(bearing: login.token, sliding: true) != nil, "at \(minutes) minutes")
        }
        fixture.clock.advance(by: 7 * 60)
        #expect(try await sessions.principal(bearing: login.token, sliding: true) == nil, "past its lifetime")

        let idle = try await sessions.login(email: trainer.email, password: "password 123456", from: "10.0.0.1", sliding: true)
        fixture.clock.advance(by: 601)
        #expect(try await sessions.principal(bearing: idle.token, sliding: true) == nil, "ten minutes unused")

        // An API session is not slid, however it is used.
        let api = try await sessions.login(email: trainer.email, password: "password 123456", from: "10.0.0.1")
        #expect(api.expiresAt == fixture.clock.now.addingTimeInterval(3_600))
        _ = try await sessions.principal(bearing: api.token, sliding: true)
        let principal = try #require(try await sessions.principal(bearing: api.token))
        #expect(principal.principal.session.end == api.expiresAt)
    }

    @Test func aSummaryReadsBackExactlyAsItWasKept() throws {
        var client = Client(companyId: UUID(), createdAt: Date(timeIntervalSince1970: 1_700_000_000))
        client.givenName = "Zoë \u{1F}"
        client.familyName = String(repeating: "é", count: 300)
        client.email = "zoe@example.com"
        client.birthDate = CalendarDate(year: 1990, month: 2, day: 28)
        client.assignedTrainerId = UUID()
        let facts = ScreeningOverview.Facts(
            latestCompletedAt: Date(timeIntervalSince1970: 1_700_000_123.456),
            latestCompletedFlags: ["a", "b"],
            hasDraft: true
        )
        let summary = ClientSummary(ClientRecord(client: client, hasPhoto: true, screening: facts))
        #expect(ClientSummary(bytes: summary.bytes) == summary)
        let bare = ClientSummary(
            ClientRecord(
                client: Client(companyId: UUID(), createdAt: Date()),
                hasPhoto: false,
                screening: .init(latestCompletedAt: nil, latestCompletedFlags: [], hasDraft: false)
            )
        )
        #expect(ClientSummary(bytes: bare.bytes) == bare)
        #expect(bare.bytes.count < 64, "a few dozen bytes a client")
    }

    @Test func aClientPagesKeptWheelTrendsAndNewestResultsReadBackExactly() {
        let latest = [
            ResultSummary(
                id: UUID(),
                exerciseId: "push-ups",
                recordedAt: Date(timeIntervalSince1970: 1_700_000_000.5),
                values: ["count": 21],
                score: 6.5,
                observations: "ok é"
            ),
            ResultSummary(
                id: UUID(),
                exerciseId: "bp",
                recordedAt: Date(timeIntervalSince1970: 1_600_000_000),
                values: ["a": 120, "b": 80],
                score: nil,
                observations: nil
            ),
        ]
        let slices = [
            HealthWheel.Slice(
                categoryId: "strength",
                name: "Fuerza",
                colour: "#336699",
                score: 4.5,
                flagged: false,
                exercises: [HealthWheel.ExerciseScore(exerciseId: "push-ups", name: "Flexiones", score: 4.5, latest: nil)]
            ),
            HealthWheel.Slice(categoryId: "empty", name: "Empty", colour: "#000000", score: nil, flagged: true),
        ]
        let trends = ["push-ups": [ClientOverview.TrendPoint(recordedAt: Date(timeIntervalSince1970: 1_699_000_000), score: 3)]]
        var reader = ByteReader(ClientOverview.encode(latest: latest, slices: slices, trends: trends))
        #expect(ClientOverview.readLatest(&reader) == latest)
        let (readSlices, readTrends) = ClientOverview.readWheel(&reader)
        #expect(readSlices == slices && readTrends == trends)
    }
}
