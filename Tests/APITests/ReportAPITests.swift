import Foundation
import HTTPTypes
import HealthwheelCore
import HummingbirdTesting
import TestSupport
import Testing

@testable import API

/// `GET /v1/clients/{id}/report`: the client's progress report as one HTML page, pictures inside, nothing
/// fetched from outside, in the reader's language and units, over a period.
@Suite struct ReportAPITests {
    struct Setup {
        let token: String
        let client: String
    }

    func setup(_ fixture: Fixture, _ client: some TestClientProtocol) async throws -> Setup {
        let token = try await client.token(for: try await fixture.trainer(in: try await fixture.company(), name: "Ana Trainer"))
        let id = try await client.screenedClient(ResultsTests.sam, token: token)
        _ = try await client.send(.patch, "/v1/clients/\(id)", token: token, json: #"{"notes": "private: knee surgery 2019", "goal": "Run 10 km"}"#)
        let old = #", "recordedAt": "2025-12-01T09:00:00Z", "observations": "An old visit, outside the year""#
        try await WheelTests.record(client, id, token: token, ResultsTests.heartRate(70, extra: old))
        let first = #", "recordedAt": "2026-03-01T09:00:00Z", "observations": "Nervous at first""#
        try await WheelTests.record(client, id, token: token, ResultsTests.heartRate(72, extra: first))
        try await WheelTests.record(client, id, token: token, ResultsTests.heartRate(60, extra: #", "recordedAt": "2026-11-01T09:00:00Z""#))
        try await WheelTests.record(client, id, token: token, #"{"exerciseId": "push-ups", "values": {"count": 2}}"#)
        return Setup(token: token, client: id)
    }

    @Test func theReportIsOneHTMLPageWithItsPicturesInsideAndNothingFromOutside() async throws {
        try await withAPI { fixture, client in
            let setup = try await setup(fixture, client)
            let response = try await client.send(.get, "/v1/clients/\(setup.client)/report", token: setup.token)
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "text/html; charset=utf-8")
            #expect(response.headers[.contentSecurityPolicy] == "default-src 'none'; img-src data:; style-src 'unsafe-inline'")
            let html = response.text
            #expect(!html.lowercased().contains("<script") && !html.contains("http://") && !html.contains("https://"))
            let sources = html.components(separatedBy: "src=\"").dropFirst().map { $0.prefix { $0 != "\"" } }
            #expect(sources.count == 2, "the wheel and the heart rate's trend (push-ups has one result)")
            #expect(sources.allSatisfy { $0.hasPrefix("data:image/png;base64,") })
            for text in [
                "Progress report", "Prepared for Sam Okafor", "Run 10 km", "Your trainer: Ana Trainer", "Cardiovascular", "Endurance",
                "Needs attention", "Held back most by Push-ups", "Nervous at first", "60 bpm", "▲",
            ] {
                #expect(html.contains(text), "\(text)")
            }
            #expect(!html.contains("knee surgery"), "the trainer's private notes stay out of the client's report")
            #expect(!html.contains("An old visit"), "results before the period are not shown")
        }
    }

    @Test func theReaderPicksTheLanguageAndThePeriod() async throws {
        try await withAPI { fixture, client in
            let setup = try await setup(fixture, client)
            let path = "/v1/clients/\(setup.client)/report"
            let spanish = try await client.send(.get, path + "?lang=es", token: setup.token).text
            #expect(spanish.contains("Informe de progreso") && spanish.contains("lang=\"es\""))
            let byHeader = try await client.send(.get, path, token: setup.token, headers: [.acceptLanguage: "fr-FR, es;q=0.8, en;q=0.5"])
            #expect(byHeader.text.contains("Informe de progreso"))
            let earlier = try await client.send(.get, path + "?from=2025-11-01&to=2025-12-31", token: setup.token).text
            #expect(earlier.contains("An old visit") && !earlier.contains("Nervous at first"))
            expectProblem(try await client.send(.get, path + "?lang=fr", token: setup.token), .unprocessableContent, fields: ["lang"])
            expectProblem(try await client.send(.get, path + "?units=cubits", token: setup.token), .unprocessableContent, fields: ["units"])
            // A period that ends before it starts holds no results (a rule across two fields is no refusal).
            let inverted = try await client.send(.get, path + "?from=2027-01-02&to=2027-01-01", token: setup.token)
            #expect(inverted.status == .ok)
            #expect(!inverted.text.contains("An old visit") && !inverted.text.contains("Nervous at first"))
        }
    }

    @Test func aPastPeriodShowsTheWheelAsItStoodAtItsEnd() async throws {
        try await withAPI { fixture, client in
            let setup = try await setup(fixture, client)
            let path = "/v1/clients/\(setup.client)/report"
            let now = try await client.send(.get, path, token: setup.token).text
            #expect(now.contains("Held back most by Push-ups"), "push-ups were recorded today")
            let summer = try await client.send(.get, path + "?from=2026-01-01&to=2026-06-30", token: setup.token).text
            #expect(!summer.contains("Held back most by Push-ups") && !summer.contains("Needs attention"), "no push-ups by June")
            #expect(summer.contains("72 bpm") && !summer.contains("60 bpm"))
            let wheel = try await client.send(.get, "/v1/clients/\(setup.client)/wheel", token: setup.token).object
            let cardio = (wheel["slices"] as? [[String: Any]])?.first { $0["categoryId"] as? String == "cardiovascular" }
            #expect(cardio?["score"] as? Double != nil, "today's wheel is unchanged by asking for a past report")
        }
    }

    @Test func aReaderWhoAsksForPDFGetsAnA4PDF() async throws {
        try await withAPI { fixture, client in
            let setup = try await setup(fixture, client)
            let path = "/v1/clients/\(setup.client)/report"
            let pdf = try await client.send(.get, path, token: setup.token, headers: [.accept: "application/pdf"])
            #expect(pdf.status == .ok && pdf.headers[.contentType] == "application/pdf")
            #expect(pdf.bodyBytes.starts(with: Array("%PDF-".utf8)))
            let folder = TemporaryDirectory()
            let file = folder.url.appendingPathComponent("report.pdf")
            try Data(pdf.bodyBytes).write(to: file)
            let text = try RunningProcess.run(URL(fileURLWithPath: "/usr/bin/pdftotext"), [file.path, "-"]).output
            #expect(text.contains("Prepared for Sam Okafor") && text.contains("Nervous at first") && !text.contains("knee surgery"))
            let info = try RunningProcess.run(URL(fileURLWithPath: "/usr/bin/pdfinfo"), [file.path]).output
            #expect(info.contains("(A4)"))

            let preferred = try await client.send(.get, path, token: setup.token, headers: [.accept: "text/html;q=0.5, application/pdf"])
            #expect(preferred.headers[.contentType] == "application/pdf")
            let html = try await client.send(.get, path, token: setup.token, headers: [.accept: "application/pdf;q=0.2, */*;q=0.5"])
            #expect(html.headers[.contentType] == "text/html; charset=utf-8")
            expectProblem(try await client.send(.get, path, token: setup.token, headers: [.accept: "image/png"]), .notAcceptable)
        }
    }

    @Test func anotherCompanysClientIs404() async throws {
        try await withAPI { fixture, client in
            let setup = try await setup(fixture, client)
            let stranger = try await client.token(for: try await fixture.trainer(in: try await fixture.company()))
            expectProblem(try await client.send(.get, "/v1/clients/\(setup.client)/report", token: stranger), .notFound)
        }
    }
}
