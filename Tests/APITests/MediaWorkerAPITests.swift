import Foundation
import HTTPTypes
import HealthwheelCore
import HummingbirdTesting
import Media
import NIOCore
import TestSupport
import Testing

@testable import API

/// Uploads whose files are read in media workers, as clients see it: a file a worker cannot read in time, or
/// the probe's hostile files, are a 422 naming the body, and the server goes on answering.
@Suite struct MediaWorkerAPITests {
    /// Every file of the media headers' fuzzing corpus, the probe's hostile files among them.
    static let corpus: [(name: String, bytes: [UInt8])] = {
        let folder = RepositoryRoot.url.appendingPathComponent("Fuzz/corpus/mediaheaders")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()) ?? []
        return names.compactMap { name in (try? Data(contentsOf: folder.appendingPathComponent(name))).map { (name, Array($0)) } }
    }()

    @Test func aPhotoItsWorkerCannotReadInTimeIsRefusedNamingTheBody() async throws {
        let impatient = MediaWorkers(executable: HealthwheelExecutable.url.path, workers: 1, deadline: .milliseconds(1))
        defer { impatient.shutdown() }
        try await withAPI(mediaWorkers: impatient) { fixture, client in
            let setup = try await MediaTests.setup(fixture, client)
            let photo = TestPictures.blackPNG(width: 4000, height: 3000)
            let response = try await MediaTests.upload(client, setup, photo, type: "image/png")
            expectProblem(response, .unprocessableContent, fields: ["body"])
            #expect(String(buffer: response.body).contains("took longer than 0.001 s"))
            #expect(try fixture.storedMedia().isEmpty, "nothing of it is kept")
            #expect(try await client.send(.get, "/health").status == .ok)
        }
    }

    @Test func theProbesHostileFilesAreAnsweredAndTheServerGoesOn() async throws {
        #expect(Self.corpus.count >= 10)
        try await withAPI { fixture, client in
            let setup = try await MediaTests.setup(fixture, client)
            for (name, bytes) in Self.corpus {
                let type = MediaFormat.sniff(bytes)?.contentType ?? "image/jpeg"
                let response = try await MediaTests.upload(client, setup, bytes, type: type)
                #expect([.created, .unprocessableContent, .unsupportedMediaType].contains(response.status), "\(name): \(response.status)")
                if name.hasPrefix("regression-heic-ispe") || name.hasPrefix("regression-jpeg") {
                    expectProblem(response, .unprocessableContent, fields: ["body"])
                }
            }
            #expect(try await client.send(.get, "/health").status == .ok)
        }
    }
}
