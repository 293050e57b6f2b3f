import Foundation
import HealthwheelCore
import Hummingbird
import NIOCore
import Services
import Zip

/// `GET /v1/clients/{id}/export`: everything held about one client as one ZIP, written while it is sent. The
/// JSON files are the API's own shapes; media go in as stored, a chunk at a time, so memory stays flat whatever
/// their size. For an admin or the client's assigned trainer.
public struct ExportController: Sendable {
    let export: ClientExport

    func addRoutes(to group: RouterGroup<AuthenticatedContext>) {
        group.get("clients/:id/export", use: download)
    }

    struct ExportedScreening: Encodable {
        var screening: Screening
        var history: [AnswerRevision]
    }

    struct ExportedResult: Encodable {
        var result: ResultBody
        var revisions: [RevisionBody]
        var media: [ExportedMedia]
    }

    struct ExportedMedia: Encodable {
        /// Where the file is inside the export.
        var file: String
        var media: MediaController.MediaBody
    }

    /// The export of `client` made for `trainer`, for both doors that offer one (the API and the web console).
    public init(export: ClientExport) {
        self.export = export
    }

    @Sendable func download(request: Request, context: AuthenticatedContext) async throws -> Response {
        try await archive(of: try context.id(of: "client"), by: context.trainer)
    }

    /// Everything held about `client` as a ZIP response, written while it is sent.
    public func archive(of client: UUID, by trainer: Trainer) async throws -> Response {
        let contents = try await export.contents(client, by: trainer)
        let encoder = ResponseJSONEncoder()
        let record = contents.record
        // Text is deflated; a photo or a PDF is compressed already.
        var files: [(name: String, method: ZipStream.Method, bytes: [UInt8])] = [
            ("README.txt", .deflated, Array(Self.readme(contents).utf8)),
            ("client.json", .deflated, try encoder.encode(ClientBody(record, now: contents.exportedAt, imperial: false))),
            (
                "screenings.json", .deflated,
                try encoder.encode(contents.screenings.map { ExportedScreening(screening: $0.screening, history: $0.history) })
            ),
            (
                "results.json",
                .deflated,
                try encoder.encode(
                    contents.results.map { item in
                        ExportedResult(
                            result: ResultBody(result: item.result),
                            revisions: item.revisions.map { RevisionBody(revision: $0) },
                            media: item.media.map { ExportedMedia(file: ClientExport.mediaPath($0), media: .init(file: $0)) }
                        )
                    }
                )
            ),
            ("deliveries.json", .deflated, try encoder.encode(contents.deliveries.map(DeliveryBody.init))),
            ("fhir.json", .deflated, try encoder.encode(contents.fhir)),
            ("client.vcf", .deflated, Array(ClientRoster.vCard(record.client, photo: contents.photo).utf8)),
        ]
        if let photo = contents.photo {
            files.append(("photo.\(MediaFormat(contentType: photo.contentType)?.fileExtension ?? "bin")", .stored, photo.bytes))
        }
        if case .success(let pdf) = contents.report { files.append(("report.pdf", .stored, pdf)) }
        let media = contents.results.flatMap(\.media)
        let export = self.export
        let entries = files
        let modified = contents.exportedAt
        let body = ResponseBody { writer in
            let zip = ZipStream()
            func send(_ bytes: [UInt8]) async throws {
                if !bytes.isEmpty { try await writer.write(ByteBuffer(bytes: bytes)) }
            }
            for file in entries {
                try await send(zip.begin(file.name, method: file.method, modified: modified))
                try await send(try zip.write(file.bytes))
                try await send(try zip.end())
            }
            for file in media {
                let reader = try await export.open(file)
                defer { reader.close() }
                try await send(zip.begin(ClientExport.mediaPath(file), method: .stored, modified: file.createdAt))
                try await export.stream(reader) { pieces in
                    for piece in pieces { try await send(try zip.write(piece)) }
                }
                try await send(try zip.end())
            }
            try await send(zip.finish())
            try await writer.finish(nil)
        }
        let day = CalendarDate(contents.exportedAt).description
        return Response(
            status: .ok,
            headers: [
                .contentType: "application/zip",
                .contentDisposition: "attachment; filename=\"healthwheel-client-\(record.client.id.lowercaseHyphenated)-\(day).zip\"",
                .cacheControl: "no-store",
            ],
            body: body
        )
    }

    /// What each file holds, in plain words, for the client and whoever they hand the download to.
    static func readme(_ contents: ClientExport.Contents) -> String {
        let client = contents.record.client
        let name = client.fullName.isEmpty ? "this client" : client.fullName
        var lines = [
            "Everything Healthwheel holds about \(name)",
            "Exported \(contents.exportedAt.formatted(.iso8601)) (UTC).",
            "",
            "Each file is plain text (JSON, vCard) or an ordinary picture, video or PDF: no Healthwheel software is needed to read it.",
            "Times are UTC in ISO 8601. Measurements are in SI units: metres, kilograms, seconds, beats per minute, mmHg, percent.",
            "",
            "client.json      The personal details: name, contact details, date of birth, sex, height, weight, goal and the",
            "                 trainer's notes, with the screening status and when the record was made and last changed.",
            "client.vcf       The same contact details as a vCard, which address books and phones import.",
            "screenings.json  Every health screening questionnaire (PAR-Q+ style): each answer as given, the flags it raised,",
            "                 who completed it and when, and under \"history\" every answer changed after completion: the old",
            "                 value, the new one, who changed it and when.",
            "results.json     Every assessment result: the exercise, the values measured, the trainer's observations, the",
            "                 1-10 score the exercise's published norms gave, and the age, sex, height and weight the score",
            "                 was worked out for. Under \"revisions\" each earlier state of a result that was corrected or",
            "                 rescored, with who replaced it, when and why; under \"media\" its photos and videos.",
        ]
        lines +=
            contents.results.allSatisfy { $0.media.isEmpty }
            ? ["media/           (none: no photos or videos were recorded with the results)"]
            : [
                "media/           The photos and videos recorded with results, exactly as uploaded (a photo without its GPS",
                "                 location). results.json names the result each belongs to.",
            ]
        lines += [
            "deliveries.json  Every progress report emailed about them: to whom, when, and whether it was delivered.",
            "fhir.json        The same record in HL7 FHIR R4, the format health systems exchange: a Bundle with a Patient,",
            "                 the screenings as QuestionnaireResponses and the results as Observations (LOINC codes where",
            "                 they exist), which a doctor's or physiotherapist's system can import.",
        ]
        if contents.photo != nil { lines.append("photo.*          The profile photo, as uploaded.") }
        switch contents.report {
        case .success: lines.append("report.pdf       The progress report of the last year, with the health wheel and the trend of each exercise.")
        case .failure(let error): lines.append("report.pdf       (missing: the report could not be drawn: \(error))")
        }
        lines += [
            "",
            "In all: "
                + [
                    count(contents.screenings.count, "screening"), count(contents.results.count, "result"),
                    count(contents.results.reduce(0) { $0 + $1.revisions.count }, "earlier revision"),
                    count(contents.results.reduce(0) { $0 + $1.media.count }, "media file"), count(contents.deliveries.count, "report email"),
                ].joined(separator: ", ") + ".",
        ]
        return lines.joined(separator: "\n") + "\n"
    }

    static func count(_ number: Int, _ noun: String) -> String { "\(number) \(noun)\(number == 1 ? "" : "s")" }
}
