import Foundation
import HTTPTypes
import HealthwheelCore
import HummingbirdTesting
import Services
import StoreContract
import TestSupport
import Testing

@testable import API

/// Photos and videos an app took offline, uploaded under ids of its own (`?id=`): sent again they are the same
/// file, an id holding another file is a 409 with the file as stored, a file deleted meanwhile is a 410, and two
/// uploads under one id never write the same files.
@Suite struct MediaAppIdsTests {
    static func upload(
        _ client: some TestClientProtocol,
        _ setup: MediaTests.Setup,
        id: String,
        _ bytes: [UInt8] = MediaTests.photo,
        type: String = "image/jpeg",
        caption: String = "Squat",
        token: String? = nil
    ) async throws -> TestResponse {
        try await MediaTests.upload(client, setup, bytes, type: type, query: "?id=\(id)&caption=\(caption)", token: token)
    }

    @Test func aPhotoTakenOfflineIsStoredOnceAndItsRetriesAreAnsweredAsTheFirstTime() async throws {
        try await withAPI { fixture, client in
            let setup = try await MediaTests.setup(fixture, client)
            let id = UUID().uuidString
            let first = try await Self.upload(client, setup, id: id)
            #expect(first.status == .created, "\(first.text)")
            #expect((first.object["id"] as? String)?.uppercased() == id.uppercased())
            #expect(first.headers[.location] == "/v1/media/\(id.uppercased())")
            #expect(first.headers[IdempotentRequests.replayedHeader] == nil)
            let files = try fixture.storedMedia().count
            let used = try await fixture.store.media.usedBytes(by: setup.company.id)

            // The same photo again (its GPS block is taken out again, so it matches what is stored), raw or multipart.
            let again = try await Self.upload(client, setup, id: id)
            #expect(again.status == .created && again.headers[IdempotentRequests.replayedHeader] == "true", "\(again.text)")
            #expect(again.text == first.text, "the same answer")
            let part = MediaTests.multipart([
                (#"Content-Disposition: form-data; name="caption""#, Array("Squat".utf8)),
                ("Content-Disposition: form-data; name=\"file\"; filename=\"a.jpg\"\r\nContent-Type: image/jpeg", MediaTests.photo),
            ])
            let multipart = try await MediaTests.upload(
                client,
                setup,
                part,
                type: "multipart/form-data; boundary=hw-boundary-42",
                query: "?id=\(id)"
            )
            #expect(multipart.status == .created && multipart.headers[IdempotentRequests.replayedHeader] == "true", "\(multipart.text)")
            let list = try await client.send(.get, "/v1/results/\(setup.result)/media", token: setup.token).object["items"] as? [Any]
            #expect(list?.count == 1, "stored once")
            #expect(try fixture.storedMedia().count == files, "a retry's bytes are compared, not kept")
            #expect(try await fixture.store.media.usedBytes(by: setup.company.id) == used)

            // Another file, another caption or another result under the id: a 409 naming it, with the file as stored.
            let otherResult = try await client.send(
                .post,
                "/v1/clients/\(setup.client)/results",
                token: setup.token,
                json: ResultsTests.heartRate(70)
            )
            let elsewhere = MediaTests.Setup(
                token: setup.token,
                client: setup.client,
                result: try #require(otherResult.object["id"] as? String),
                trainer: setup.trainer,
                company: setup.company
            )
            for refused in [
                try await Self.upload(client, setup, id: id, MediaTests.movie, type: "video/quicktime"),
                try await Self.upload(client, setup, id: id, caption: "Lunge"),
                try await Self.upload(client, elsewhere, id: id),
            ] {
                expectProblem(refused, .conflict, fields: ["id"])
                let current = try #require(refused.object["current"] as? [String: Any], "\(refused.text)")
                #expect(current["id"] as? String == first.object["id"] as? String && current["caption"] as? String == "Squat")
            }
            #expect(try fixture.storedMedia().count == files, "nothing of the refused uploads is left")
            expectProblem(try await Self.upload(client, setup, id: "nope"), .unprocessableContent, fields: ["id"])
        }
    }

    @Test func anIdOfAnotherCompanysFileIsTakenWithoutSayingMoreAndTheirFileIsUntouched() async throws {
        try await withAPI { fixture, client in
            let theirs = try await MediaTests.setup(fixture, client)
            let mine = try await MediaTests.setup(fixture, client)
            let id = UUID().uuidString
            let stored = try await Self.upload(client, theirs, id: id, MediaTests.movie, type: "video/quicktime")
            #expect(stored.status == .created, "\(stored.text)")
            let before = Array(try await MediaTests.download(client, id, token: theirs.token).body.readableBytesView)
            for bytes in [MediaTests.movie, TestMedia.movie(turned: false)] {
                let taken = try await Self.upload(client, mine, id: id, bytes, type: "video/quicktime")
                expectProblem(taken, .conflict, fields: ["id"])
                #expect(taken.object["current"] == nil, "nothing of another company's file")
            }
            #expect(Array(try await MediaTests.download(client, id, token: theirs.token).body.readableBytesView) == before)
            expectProblem(try await MediaTests.download(client, id, token: mine.token), .notFound)
            #expect(try await fixture.store.media.usedBytes(by: mine.company.id) == 0)
        }
    }

    /// A retry is compared with the file as stored when it ends, not when it began.
    @Test func aRetryIsComparedWithTheFileAsItIsWhenItEnds() async throws {
        try await withAPI { fixture, client in
            let setup = try await MediaTests.setup(fixture, client)
            let id = UUID()
            #expect(try await Self.upload(client, setup, id: id.uuidString, MediaTests.movie, type: "video/quicktime").status == .created)
            let library = try testUseCases(fixture).media.library
            let resultId = try #require(UUID(uuidString: setup.result))
            func retry(changing change: () async throws -> Void) async throws -> AppChosenIds.Outcome<MediaFile> {
                let upload = try await library.begin(to: resultId, by: setup.trainer.trainer, contentType: "video/quicktime", length: nil, appId: id)
                try await upload.append(MediaTests.movie)
                fixture.clock.advance(by: 60)
                try await change()
                return try await upload.finish(caption: "Squat")
            }
            await #expect(throws: ServiceError.self) {
                _ = try await retry { _ = try await library.setCaption("Lunge", of: id, by: setup.trainer.trainer) }
            }
            let replayed = try await retry { _ = try await library.setCaption("Squat", of: id, by: setup.trainer.trainer) }
            #expect(replayed.record.caption == "Squat" && replayed.record.updatedAt == fixture.clock.now, "as stored now")
            await #expect(throws: ServiceError.self) { _ = try await retry { try await library.delete(id, by: setup.trainer.trainer) } }
        }
    }

    @Test func aFileDeletedMeanwhileIsGone() async throws {
        try await withAPI { fixture, client in
            let setup = try await MediaTests.setup(fixture, client)
            let id = UUID().uuidString
            #expect(try await Self.upload(client, setup, id: id).status == .created)
            #expect(try await client.send(.delete, "/v1/media/\(id)", token: setup.token).status == .noContent)
            expectProblem(try await Self.upload(client, setup, id: id), .gone, fields: ["id"])
            try await MediaTests.expectNothingStored(fixture, client, setup)
        }
    }

    /// An app's retry sent while its first upload is still coming in must not write into the same files: the id
    /// is held by the first until it is stored or dropped, and one held by a process that stopped is let go at
    /// the next start.
    @Test func twoUploadsUnderOneIdNeverWriteTheSameFiles() async throws {
        try await withAPI { fixture, client in
            let setup = try await MediaTests.setup(fixture, client)
            let library = try testUseCases(fixture).media.library
            let resultId = try #require(UUID(uuidString: setup.result))
            let id = UUID()
            func begin() async throws -> MediaUpload {
                try await library.begin(to: resultId, by: setup.trainer.trainer, contentType: "video/quicktime", length: nil, appId: id)
            }
            let first = try await begin()
            try await first.append(Array(MediaTests.movie.prefix(100)))
            await #expect(throws: ServiceError.self) { _ = try await begin() }
            await first.abort()
            try await MediaTests.expectNothingStored(fixture, client, setup)

            let second = try await begin()
            try await second.append(MediaTests.movie)
            await #expect(throws: ServiceError.self) { _ = try await begin() }
            #expect(try await second.finish(caption: nil).record.id == id)
            let stored = try await MediaTests.download(client, id.uuidString, token: setup.token)
            #expect(Array(stored.body.readableBytesView) == MediaTests.movie)

            // A reservation a killed process left: taken over after an hour; on one node, let go at the next start
            // (where nodes share the store, another's upload may be under way then).
            let stale = UUID()
            try await fixture.store.media.reserve(stale, in: setup.company.id, at: fixture.clock.now - 7_200, abandonedBefore: .distantPast)
            #expect(try await Self.upload(client, setup, id: stale.uuidString).status == .created)
            let orphan = UUID()
            try await fixture.store.media.reserve(orphan, in: setup.company.id, at: fixture.clock.now, abandonedBefore: .distantPast)
            expectProblem(try await Self.upload(client, setup, id: orphan.uuidString), .conflict, fields: ["id"])
            _ = try await testUseCases(fixture).media.files.sweep()
            let afterStart = try await Self.upload(client, setup, id: orphan.uuidString)
            if fixture.database.dialect == .postgres {
                expectProblem(afterStart, .conflict, fields: ["id"])
            } else {
                #expect(afterStart.status == .created, "\(afterStart.text)")
            }
        }
    }
}
