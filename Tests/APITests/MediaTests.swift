import Cryptography
import Foundation
import HTTPTypes
import HealthwheelCore
import HummingbirdTesting
import NIOCore
import Reports
import Services
import Store
import StoreContract
import TestSupport
import Testing

@testable import API

/// Photos and videos on results, through real HTTP: uploads (raw and multipart), every limit, signatures, ranges,
/// 304, captions, deletes and their cascades, cross-company 404s, encryption on disk, aborted uploads.
@Suite struct MediaTests {
    struct Setup {
        let token: String
        let client: String
        let result: String
        let trainer: Fixture.Account
        let company: Company
    }

    static func setup(_ fixture: Fixture, _ client: some TestClientProtocol) async throws -> Setup {
        let company = try await fixture.company()
        let account = try await fixture.trainer(in: company)
        let token = try await client.token(for: account)
        let id = try await client.screenedClient(ResultsTests.sam, token: token)
        let response = try await client.send(.post, "/v1/clients/\(id)/results", token: token, json: ResultsTests.heartRate(64))
        let result = try #require(response.object["id"] as? String)
        return Setup(token: token, client: id, result: result, trainer: account, company: company)
    }

    static func upload(
        _ client: some TestClientProtocol,
        _ setup: Setup,
        _ bytes: [UInt8],
        type: String?,
        query: String = "",
        token: String? = nil
    ) async throws -> TestResponse {
        var headers: HTTPFields = [.authorization: "Bearer \(token ?? setup.token)"]
        if let type { headers[.contentType] = type }
        return try await client.execute(
            uri: "/v1/results/\(setup.result)/media\(query)",
            method: .post,
            headers: headers,
            body: ByteBuffer(bytes: bytes)
        ) { $0 }
    }

    static func multipart(_ parts: [(headers: String, body: [UInt8])], boundary: String = "hw-boundary-42") -> [UInt8] {
        var body: [UInt8] = []
        for part in parts {
            body += Array("--\(boundary)\r\n\(part.headers)\r\n\r\n".utf8) + part.body + Array("\r\n".utf8)
        }
        return body + Array("--\(boundary)--\r\n".utf8)
    }

    /// A real 200 × 100 JPEG shown turned (100 × 200), with GPS: see `turnedJPEG`.
    static let photo = try! turnedJPEG()
    static let movie = TestMedia.movie(turned: true)

    static func sha256(_ bytes: [UInt8]) -> String { SHA256.digest(bytes).map { String(format: "%02x", $0) }.joined() }

    static func download(_ client: some TestClientProtocol, _ id: String, token: String, headers: HTTPFields = [:]) async throws -> TestResponse {
        var fields = headers
        fields[.authorization] = "Bearer \(token)"
        return try await client.execute(uri: "/v1/media/\(id)", method: .get, headers: fields) { $0 }
    }

    @Test func aPhotoIsStoredWithoutItsLocationAndServedAsStored() async throws {
        try await withAPI { fixture, client in
            let setup = try await Self.setup(fixture, client)
            let response = try await Self.upload(client, setup, Self.photo, type: "image/jpeg", query: "?caption=Squat%20depth")
            #expect(response.status == .created, "\(response.text)")
            let body = response.object
            let id = try #require(body["id"] as? String)
            #expect(response.headers[.location] == "/v1/media/\(id)")
            #expect(body["resultId"] as? String == setup.result)
            #expect(body["kind"] as? String == "photo" && body["contentType"] as? String == "image/jpeg")
            #expect(body["width"] as? Int == 100 && body["height"] as? Int == 200, "as shown: turned by its EXIF orientation")
            #expect(body["caption"] as? String == "Squat depth")
            #expect(body["durationSeconds"] is NSNull)
            let stored = try await Self.download(client, id, token: setup.token)
            #expect(stored.status == .ok)
            let bytes = Array(stored.body.readableBytesView)
            #expect(bytes.count == Self.photo.count && bytes != Self.photo)
            #expect(!bytes.contains(TestPictures.gpsMarker), "the GPS block is gone")
            #expect(bytes.contains(Array("TestPhone".utf8)), "the rest of the EXIF stays")
            #expect(body["sha256"] as? String == Self.sha256(bytes) && body["bytes"] as? Int == bytes.count)
            #expect(stored.headers[.eTag] == "\"\(Self.sha256(bytes))\"")
            #expect(stored.headers[.contentType] == "image/jpeg" && stored.headers[.acceptRanges] == "bytes")
            let list = try await client.send(.get, "/v1/results/\(setup.result)/media", token: setup.token).object
            #expect((list["items"] as? [[String: Any]])?.map { $0["id"] as? String } == [id])
        }
    }

    @Test func aMultipartVideoWithACaptionKeepsItsLengthAndTurnedSize() async throws {
        try await withAPI { fixture, client in
            let setup = try await Self.setup(fixture, client)
            let body = Self.multipart([
                (#"Content-Disposition: form-data; name="caption""#, Array("Plank, side view".utf8)),
                ("Content-Disposition: form-data; name=\"file\"; filename=\"IMG_0001.MOV\"\r\nContent-Type: video/quicktime", Self.movie),
            ])
            let response = try await Self.upload(client, setup, body, type: "multipart/form-data; boundary=hw-boundary-42")
            #expect(response.status == .created, "\(response.text)")
            let object = response.object
            #expect(object["kind"] as? String == "video" && object["contentType"] as? String == "video/quicktime")
            #expect(object["durationSeconds"] as? Double == 5 && object["width"] as? Int == 1080 && object["height"] as? Int == 1920)
            #expect(object["caption"] as? String == "Plank, side view")
            let id = try #require(object["id"] as? String)
            let stored = try await Self.download(client, id, token: setup.token)
            #expect(Array(stored.body.readableBytesView) == Self.movie, "a video is kept byte for byte")
        }
    }

    @Test func aLargeMultipartVideoWithBinaryBytesArrivesWhole() async throws {
        // Random bytes hold CRs and near-boundaries everywhere; 3 MiB spans many reads of the body.
        var generator = SystemRandomNumberGenerator()
        let payload = (0..<(3 << 20)).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        let video = TestMedia.ftyp("isom") + TestMedia.box("mdat", payload)
        try await withAPI { fixture, client in
            let setup = try await Self.setup(fixture, client)
            let body = Self.multipart([("Content-Disposition: form-data; name=\"file\"; filename=\"a.mp4\"\r\nContent-Type: video/mp4", video)])
            let response = try await Self.upload(client, setup, body, type: "multipart/form-data; boundary=hw-boundary-42")
            #expect(response.status == .created, "\(response.text)")
            #expect(response.object["bytes"] as? Int == video.count)
            let id = try #require(response.object["id"] as? String)
            #expect(Array(try await Self.download(client, id, token: setup.token).body.readableBytesView) == video)
        }
    }

    @Test func aDeclaredTypeTheBytesDoNotShowIs415AndStoresNothing() async throws {
        try await withAPI { fixture, client in
            let setup = try await Self.setup(fixture, client)
            for (bytes, type) in [
                (Self.photo, "image/png"), (Self.movie, "video/mp4"), (Self.photo, "image/gif"), (Array("GIF89a-not-a-photo".utf8), "image/jpeg"),
            ] {
                let response = try await Self.upload(client, setup, bytes, type: type)
                expectProblem(response, .unsupportedMediaType)
            }
            expectProblem(try await Self.upload(client, setup, Self.photo, type: nil), .unsupportedMediaType)
            let wrongPart = Self.multipart([
                ("Content-Disposition: form-data; name=\"file\"; filename=\"a.png\"\r\nContent-Type: image/png", Self.photo)
            ])
            expectProblem(
                try await Self.upload(client, setup, wrongPart, type: "multipart/form-data; boundary=hw-boundary-42"),
                .unsupportedMediaType
            )
            try await Self.expectNothingStored(fixture, client, setup)
        }
    }

    static func expectNothingStored(
        _ fixture: Fixture,
        _ client: some TestClientProtocol,
        _ setup: Setup,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let list = try await client.send(.get, "/v1/results/\(setup.result)/media", token: setup.token).object
        #expect((list["items"] as? [Any])?.isEmpty == true, sourceLocation: sourceLocation)
        #expect(try await fixture.store.media.usedBytes(by: setup.company.id) == 0, sourceLocation: sourceLocation)
        #expect(try fixture.storedMedia().isEmpty, "no file, not even a partial one", sourceLocation: sourceLocation)
    }

    @Test func badPartsAndEmptyBodiesAreNamed() async throws {
        try await withAPI { fixture, client in
            let setup = try await Self.setup(fixture, client)
            let type = "multipart/form-data; boundary=hw-boundary-42"
            let file = ("Content-Disposition: form-data; name=\"file\"; filename=\"a.jpg\"\r\nContent-Type: image/jpeg", Self.photo)
            expectProblem(
                try await Self.upload(client, setup, Self.multipart([(#"Content-Disposition: form-data; name="note""#, [65])]), type: type),
                .unprocessableContent,
                fields: ["note"]
            )
            expectProblem(try await Self.upload(client, setup, Self.multipart([file, file]), type: type), .unprocessableContent, fields: ["file"])
            let captionOnly = Self.multipart([(#"Content-Disposition: form-data; name="caption""#, Array("no file".utf8))])
            expectProblem(try await Self.upload(client, setup, captionOnly, type: type), .unprocessableContent, fields: ["file"])
            // A part header's name that is not a token is a 400, and the server stays up (MultipartKit trapped on it).
            let accented = Self.multipart([("X-Caf\u{E9}: 1\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.jpg\"", Self.photo)])
            expectProblem(try await Self.upload(client, setup, accented, type: type), .badRequest)
            #expect(try await client.send(.get, "/health").status == .ok)
            // A value may hold any byte: the filename is the client's business.
            let named = ("Content-Disposition: form-data; name=\"file\"; filename=\"caf\u{E9}.jpg\"\r\nContent-Type: image/jpeg", Self.photo)
            let stored = try await Self.upload(client, setup, Self.multipart([named]), type: type)
            #expect(stored.status == .created, "\(stored.text)")
            #expect(
                try await client.send(.delete, "/v1/media/\(try #require(stored.object["id"] as? String))", token: setup.token).status == .noContent
            )
            // A multipart body needs at least one part (RFC 2046).
            expectProblem(try await Self.upload(client, setup, Self.multipart([]), type: type), .badRequest)
            expectProblem(try await Self.upload(client, setup, [], type: "image/jpeg"), .unprocessableContent, fields: ["body"])
            let long = String(repeating: "x", count: 501)
            expectProblem(
                try await Self.upload(client, setup, Self.photo, type: "image/jpeg", query: "?caption=\(long)"),
                .unprocessableContent,
                fields: ["caption"]
            )
            let huge = TestPictures.jpegHeader(width: 20_000, height: 20_000) + [0xFF, 0xD9]
            expectProblem(try await Self.upload(client, setup, huge, type: "image/jpeg"), .unprocessableContent, fields: ["body"])
            try await Self.expectNothingStored(fixture, client, setup)
        }
    }

    @Test func aFileOverItsLimitIs413AndStoresNothing() async throws {
        try await withAPI { fixture, client in
            let setup = try await Self.setup(fixture, client)
            let tooBig = TestPictures.jpeg(size: (10 << 20) + 1)
            let response = try await Self.upload(client, setup, tooBig, type: "image/jpeg")
            expectProblem(response, .contentTooLarge)
            #expect(response.text.contains("10485760"))
            try await Self.expectNothingStored(fixture, client, setup)
        }
    }

    @Test func aFullQuotaIs507AndStoresNothing() async throws {
        try await withAPI(mediaQuota: Self.photo.count + 10) { fixture, client in
            let setup = try await Self.setup(fixture, client)
            #expect(try await Self.upload(client, setup, Self.photo, type: "image/jpeg").status == .created)
            let response = try await Self.upload(client, setup, Self.photo, type: "image/jpeg")
            expectProblem(response, HTTPResponse.Status(code: 507))
            #expect(try await fixture.store.media.usedBytes(by: setup.company.id) == Self.photo.count)
            #expect(try fixture.storedMedia().count == 3, "the photo and its two previews")
        }
    }

    @Test func rangesConditionalsAndTheirLimits() async throws {
        try await withAPI { fixture, client in
            let setup = try await Self.setup(fixture, client)
            let id = try #require(try await Self.upload(client, setup, Self.movie, type: "video/quicktime").object["id"] as? String)
            let length = Self.movie.count
            let cases: [(String, Range<Int>)] = [
                ("bytes=0-0", 0..<1), ("bytes=100-1099", 100..<1100), ("bytes=-10", (length - 10)..<length),
                ("bytes=\(length - 5)-", (length - 5)..<length), ("bytes=10-99999999", 10..<length),
            ]
            for (header, range) in cases {
                let response = try await Self.download(client, id, token: setup.token, headers: [.range: header])
                #expect(response.status == .partialContent, "\(header)")
                #expect(Array(response.body.readableBytesView) == Array(Self.movie[range]), "\(header)")
                #expect(response.headers[.contentRange] == "bytes \(range.lowerBound)-\(range.upperBound - 1)/\(length)")
                #expect(response.headers[.contentLength] == String(range.count))
            }
            for header in ["bytes=\(length)-", "bytes=-0"] {
                let response = try await Self.download(client, id, token: setup.token, headers: [.range: header])
                expectProblem(response, .rangeNotSatisfiable)
                #expect(response.headers[.contentRange] == "bytes */\(length)")
            }
            // Several ranges, or another unit: the whole file, as RFC 9110 allows.
            let whole = try await Self.download(client, id, token: setup.token, headers: [.range: "bytes=0-1,5-6"])
            #expect(whole.status == .ok && whole.body.readableBytes == length)
            let tag = try #require(whole.headers[.eTag])
            let unchanged = try await Self.download(client, id, token: setup.token, headers: [.ifNoneMatch: tag])
            #expect(unchanged.status == .notModified && unchanged.body.readableBytes == 0 && unchanged.headers[.eTag] == tag)
            let changed = try await Self.download(client, id, token: setup.token, headers: [.ifNoneMatch: "\"other\""])
            #expect(changed.status == .ok)
        }
    }

    @Test func captionsChangeAndOnlyTheRecordingTrainerOrAnAdminMayDelete() async throws {
        try await withAPI { fixture, client in
            let setup = try await Self.setup(fixture, client)
            let other = try await client.token(for: try await fixture.trainer(in: setup.company))
            let admin = try await client.token(for: try await fixture.trainer(in: setup.company, role: .admin))
            // Any trainer of the company may add media; only the result's trainer or an admin may change them.
            let id = try #require(try await Self.upload(client, setup, Self.photo, type: "image/jpeg", token: other).object["id"] as? String)
            let patched = try await client.send(.patch, "/v1/media/\(id)", token: setup.token, json: #"{"caption": "  Left knee "}"#)
            #expect(patched.status == .ok && patched.object["caption"] as? String == "Left knee")
            expectProblem(
                try await client.send(.patch, "/v1/media/\(id)", token: setup.token, json: #"{"id": "x"}"#),
                .unprocessableContent,
                fields: ["id"]
            )
            expectProblem(try await client.send(.patch, "/v1/media/\(id)", token: other, json: #"{"caption": null}"#), .forbidden)
            expectProblem(try await client.send(.delete, "/v1/media/\(id)", token: other), .forbidden)
            #expect(try await client.send(.delete, "/v1/media/\(id)", token: admin).status == .noContent)
            #expect(try await Self.download(client, id, token: setup.token).status == .notFound)
            try await Self.expectNothingStored(fixture, client, setup)
        }
    }

    @Test func deletingAResultOrAClientDeletesTheirMediaAndFiles() async throws {
        try await withAPI { fixture, client in
            let setup = try await Self.setup(fixture, client)
            let photo = try #require(try await Self.upload(client, setup, Self.photo, type: "image/jpeg").object["id"] as? String)
            #expect(try await client.send(.delete, "/v1/results/\(setup.result)", token: setup.token).status == .noContent)
            #expect(try await Self.download(client, photo, token: setup.token).status == .notFound)
            #expect(try fixture.storedMedia().isEmpty)

            let second = try await client.send(.post, "/v1/clients/\(setup.client)/results", token: setup.token, json: ResultsTests.heartRate(60))
            let next = Setup(
                token: setup.token,
                client: setup.client,
                result: try #require(second.object["id"] as? String),
                trainer: setup.trainer,
                company: setup.company
            )
            _ = try await Self.upload(client, next, Self.movie, type: "video/quicktime")
            #expect(try fixture.storedMedia().count == 1)
            let admin = try await client.token(for: try await fixture.trainer(in: setup.company, role: .admin))
            #expect(try await client.send(.delete, "/v1/clients/\(setup.client)", token: admin).status == .noContent)
            #expect(try fixture.storedMedia().isEmpty)
            #expect(try await fixture.store.media.allIDs().isEmpty)
            #expect(try await fixture.store.media.removed().isEmpty)
        }
    }

    @Test func anotherCompanysTrainerGets404OnEveryRoute() async throws {
        try await withAPI { fixture, client in
            let setup = try await Self.setup(fixture, client)
            let id = try #require(try await Self.upload(client, setup, Self.photo, type: "image/jpeg").object["id"] as? String)
            let stranger = try await client.token(for: try await fixture.trainer(in: try await fixture.company(), role: .admin))
            expectProblem(try await Self.upload(client, setup, Self.photo, type: "image/jpeg", token: stranger), .notFound)
            expectProblem(try await client.send(.get, "/v1/results/\(setup.result)/media", token: stranger), .notFound)
            expectProblem(try await Self.download(client, id, token: stranger), .notFound)
            expectProblem(try await client.send(.patch, "/v1/media/\(id)", token: stranger, json: #"{"caption": "x"}"#), .notFound)
            expectProblem(try await client.send(.delete, "/v1/media/\(id)", token: stranger), .notFound)
            #expect(try await Self.download(client, id, token: setup.token).status == .ok, "nothing changed")
        }
    }

    /// The probe held 60 photo uploads of 10 MiB open before their last byte: each held its whole photo in
    /// memory (691 MB in all). A photo now streams into a sealed spool as a video does; what is in memory is at
    /// most one write batch, and a photo dropped midway leaves nothing, its spool included.
    @Test func aPhotoOnItsWayInHoldsABatchInMemoryNotThePhoto() async throws {
        try await withAPI { fixture, client in
            let setup = try await Self.setup(fixture, client)
            let media = try testUseCases(fixture).media.library
            let upload = try await media.begin(
                to: try #require(UUID(uuidString: setup.result)),
                by: setup.trainer.trainer,
                contentType: "image/jpeg",
                length: nil
            )
            let piece = [UInt8](repeating: 0x5A, count: 64 << 10)
            try await upload.append(Array(Self.photo.prefix(2_000)))
            var largest = 0
            for _ in 0..<(9 << 20) / piece.count {
                try await upload.append(piece)
                largest = max(largest, upload.bytesInMemory)
            }
            #expect(largest < MediaUpload.photoWriteBatch, "held \(largest) bytes of a 9 MiB photo")
            #expect(!(try fixture.storedMedia().isEmpty), "the photo so far is in its sealed spool")
            await upload.abort()
            try await Self.expectNothingStored(fixture, client, setup)
        }
    }

    @Test func whatReachesTheDiskIsSealed() async throws {
        try await withAPI { fixture, client in
            let setup = try await Self.setup(fixture, client)
            let marker = Array("PLAINTEXT-MARKER-\(UUID().uuidString)".utf8)
            let video = Self.movie + marker + Array(repeating: 0x41, count: 300_000) + marker
            #expect(try await Self.upload(client, setup, video, type: "video/quicktime").status == .created)
            let files = try filesUnder(fixture.folder.url) + fixture.storedMedia()
            #expect(!files.isEmpty)
            #expect(!files.contains { $0.contains(marker) }, "nothing under the data folder or in the database holds the upload's plain bytes")
        }
    }

    @Test func anUploadCutOffMidwayLeavesNothing() async throws {
        try await withAPI { fixture, client in
            let setup = try await Self.setup(fixture, client)
            let port = try #require(client.port)
            let connection = try RawHTTPConnection(port: port)
            // An MP4 whose bytes are all ASCII: ftyp, then an mdat of which only a part is sent.
            let head = "\u{0}\u{0}\u{0}\u{18}ftypisom\u{0}\u{0}\u{0}\u{0}isommp41\u{0}\u{10}\u{0}\u{0}mdat"
            try await connection.send(
                "POST /v1/results/\(setup.result)/media HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer \(setup.token)\r\n"
                    + "Content-Type: video/mp4\r\nContent-Length: \(1 << 20)\r\n\r\n" + head + String(repeating: "v", count: 200_000)
            )
            try await Task.sleep(for: .milliseconds(300))
            connection.close()
            // The server notices the closed connection and drops the upload (waiting up to 20 s on a busy machine).
            for _ in 0..<400 where try !fixture.storedMedia().isEmpty {
                try await Task.sleep(for: .milliseconds(50))
            }
            try await Self.expectNothingStored(fixture, client, setup)
        }
    }

    /// A client that stops sending midway, without closing: the server's idle timeout (1 s here, a minute in
    /// production) closes the connection and the upload leaves nothing, counting nothing against the quota.
    @Test func anUploadThatStallsIsDroppedAfterTheIdleTimeoutAndLeavesNothing() async throws {
        let fixture = try Fixture()
        let setup = try await withAPIValue(fixture: fixture) { fixture, client in try await Self.setup(fixture, client) }
        // The same store behind a server that closes connections idle for a second.
        try await withAPI(fixture: fixture, idleTimeout: .seconds(1)) { fixture, client in
            let connection = try RawHTTPConnection(port: try #require(client.port))
            let head = "\u{0}\u{0}\u{0}\u{18}ftypisom\u{0}\u{0}\u{0}\u{0}isommp41\u{0}\u{10}\u{0}\u{0}mdat"
            try await connection.send(
                "POST /v1/results/\(setup.result)/media HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer \(setup.token)\r\n"
                    + "Content-Type: video/mp4\r\nContent-Length: \(1 << 20)\r\n\r\n" + head + String(repeating: "v", count: 300_000)
            )
            // Nothing more is sent. The server closes the connection (before the test's own 10-second read timeout):
            // reading sees its end, not a response.
            await #expect(throws: RawHTTPConnection.Failure.closed("")) { _ = try await connection.receive(until: "HTTP/1.1") }
            for _ in 0..<100 where try !fixture.storedMedia().isEmpty {
                try await Task.sleep(for: .milliseconds(50))
            }
            // Read from the store: the test client's own idle connection has been closed by the same timeout.
            #expect(try await fixture.store.media.list(result: try #require(UUID(uuidString: setup.result)), in: setup.company.id).isEmpty)
            #expect(try await fixture.store.media.usedBytes(by: setup.company.id) == 0)
            #expect(try fixture.storedMedia().isEmpty, "no file, not even a partial one")
        }
    }

    /// A real (decodable) 200 × 100 JPEG, encoded by libvips from a PNG, with an EXIF block saying "turn a quarter
    /// clockwise to show" (orientation 6) and carrying GPS.
    static func turnedJPEG() throws -> [UInt8] {
        let jpeg = try MediaThumbnail.photo(TestPictures.blackPNG(width: 200, height: 100), fitting: 200)
        let exif = TestPictures.segment(0xE1, Array("Exif".utf8) + [0, 0] + TestPictures.exif(orientation: 6))
        return Array(jpeg[0..<2]) + exif + Array(jpeg[2...])
    }

    @Test func thumbnailsAreUprightCachedAndBounded() async throws {
        try await withAPI { fixture, client in
            let setup = try await Self.setup(fixture, client)
            let photo = try #require(try await Self.upload(client, setup, Self.photo, type: "image/jpeg").object["id"] as? String)
            let video = try #require(try await Self.upload(client, setup, Self.movie, type: "video/quicktime").object["id"] as? String)
            func get(_ id: String, _ query: String, _ headers: HTTPFields = [:]) async throws -> TestResponse {
                var fields = headers
                fields[.authorization] = "Bearer \(setup.token)"
                return try await client.execute(uri: "/v1/media/\(id)/thumbnail\(query)", method: .get, headers: fields) { $0 }
            }
            let small = try await get(photo, "?size=64")
            #expect(small.status == .ok && small.headers[.contentType] == "image/jpeg")
            let header = try PictureHeader.read(Array(small.body.readableBytesView))
            #expect(header.width == 32 && header.height == 64, "turned upright: \(header)")
            #expect(!Array(small.body.readableBytesView).contains(TestPictures.gpsMarker), "no metadata in a thumbnail")
            let tag = try #require(small.headers[.eTag])
            #expect(try await get(photo, "?size=64", [.ifNoneMatch: tag]).status == .notModified)
            let byDefault = try PictureHeader.read(Array(try await get(photo, "").body.readableBytesView))
            #expect(byDefault.height == 200, "never larger than the photo")
            let card = try await get(video, "?size=128")
            #expect(card.status == .ok && card.headers[.contentType] == "image/png")
            let cardHeader = try PictureHeader.read(Array(card.body.readableBytesView))
            #expect(cardHeader.width == 72 && cardHeader.height == 128, "a portrait video's card is portrait")
            expectProblem(try await get(photo, "?size=5"), .unprocessableContent, fields: ["size"])
            expectProblem(try await get(photo, "?size=big"), .unprocessableContent, fields: ["size"])
            let stranger = try await client.token(for: try await fixture.trainer(in: try await fixture.company()))
            expectProblem(
                try await client.execute(uri: "/v1/media/\(photo)/thumbnail", method: .get, headers: [.authorization: "Bearer \(stranger)"]) { $0 },
                .notFound
            )
        }
    }

    @Test func aPhotoKeepsTwoPreviewsAndEachThumbnailIsDrawnFromOneLargeEnough() async throws {
        try await withAPI { fixture, client in
            let setup = try await Self.setup(fixture, client)
            let large = try MediaThumbnail.photo(TestPictures.blackPNG(width: 1600, height: 1200), fitting: 1600)
            let id = try #require(try await Self.upload(client, setup, large, type: "image/jpeg").object["id"] as? String)
            let mediaID = try #require(UUID(uuidString: id))
            let stored = try #require(try await fixture.store.media.find(mediaID, in: setup.company.id))
            #expect(stored.file.previewBytes != nil && stored.file.smallPreviewBytes != nil)
            #expect(try fixture.storedMedia().count == 3, "the photo and its two previews")
            for (size, expected) in [(64, (64, 48)), (320, (320, 240)), (400, (400, 300)), (800, (800, 600)), (1024, (1024, 768))] {
                let thumbnail = try await client.execute(
                    uri: "/v1/media/\(id)/thumbnail?size=\(size)",
                    method: .get,
                    headers: [.authorization: "Bearer \(setup.token)"]
                ) { $0 }
                let header = try PictureHeader.read(Array(thumbnail.body.readableBytesView))
                #expect(header.width == expected.0 && header.height == expected.1, "size \(size): \(header)")
            }
            #expect(try await client.send(.delete, "/v1/media/\(id)", token: setup.token).status == .noContent)
            #expect(try fixture.storedMedia().isEmpty, "both previews go with the photo")
        }
    }

    @Test func aHEICPhotoIsMeasuredFromItsHeaderAndThumbnailed() async throws {
        // A real HEIC (HEVC in HEIF) made by libvips' heifsave: 96 × 64.
        let heic = try [UInt8](Data(contentsOf: RepositoryRoot.url.appendingPathComponent("Tests/Fixtures/photo-96x64.heic")))
        try await withAPI { fixture, client in
            let setup = try await Self.setup(fixture, client)
            let stored = try await Self.upload(client, setup, heic, type: "image/heic")
            #expect(stored.status == .created, "\(stored.text)")
            #expect(stored.object["width"] as? Int == 96 && stored.object["height"] as? Int == 64)
            let id = try #require(stored.object["id"] as? String)
            let thumbnail = try await client.execute(
                uri: "/v1/media/\(id)/thumbnail?size=48",
                method: .get,
                headers: [.authorization: "Bearer \(setup.token)"]
            ) { $0 }
            #expect(thumbnail.status == .ok && thumbnail.headers[.contentType] == "image/jpeg")
            let header = try PictureHeader.read(Array(thumbnail.body.readableBytesView))
            #expect(header.width == 48 && header.height == 32)
        }
    }

}
