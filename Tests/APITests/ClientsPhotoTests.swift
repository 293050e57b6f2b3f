import Foundation
import HTTPTypes
import HealthwheelCore
import HummingbirdTesting
import Store
import StoreContract
import TestSupport
import Testing

@testable import API

/// `/v1/clients/{id}/photo`: a JPEG or PNG of at most 2 MiB and `PictureLimit.clientPhoto` pixels (by its header),
/// stored as sent.
@Suite struct ClientsPhotoTests {
    static let twoMiB = 2 * 1_024 * 1_024

    @Test func aJPEGPhotoIsServedBackAsSent() async throws {
        try await withAPI { fixture, client in
            let token = try await client.token(for: try await fixture.trainer(in: try await fixture.company()))
            let id = try await client.createClient(given: "Ada", family: nil, token: token)
            let photo = ClientsAPI.jpeg(size: 5_000)
            let put = try await client.sendBytes(.put, "/v1/clients/\(id)/photo", token: token, contentType: "image/jpeg", bytes: photo)
            #expect(put.status == .noContent)
            let got = try await client.send(.get, "/v1/clients/\(id)/photo", token: token)
            #expect(got.status == .ok)
            #expect(got.headers[.contentType] == "image/jpeg")
            #expect(got.bodyBytes == photo)
            #expect(try await client.send(.get, "/v1/clients/\(id)", token: token).jsonBody["hasPhoto"] == .bool(true))
        }
    }

    @Test func aPNGPhotoReplacesThePreviousOne() async throws {
        try await withAPI { fixture, client in
            let token = try await client.token(for: try await fixture.trainer(in: try await fixture.company()))
            let id = try await client.createClient(given: "Ada", family: nil, token: token)
            let path = "/v1/clients/\(id)/photo"
            #expect(try await client.sendBytes(.put, path, token: token, contentType: "image/jpeg", bytes: ClientsAPI.jpeg()).status == .noContent)
            let png = ClientsAPI.png(size: 300)
            #expect(try await client.sendBytes(.put, path, token: token, contentType: "image/png", bytes: png).status == .noContent)
            let got = try await client.send(.get, path, token: token)
            #expect(got.headers[.contentType] == "image/png")
            #expect(got.bodyBytes == png)
        }
    }

    @Test func aPhotoWithAnotherContentTypeIs415() async throws {
        try await withAPI { fixture, client in
            let token = try await client.token(for: try await fixture.trainer(in: try await fixture.company()))
            let id = try await client.createClient(given: "Ada", family: nil, token: token)
            let path = "/v1/clients/\(id)/photo"
            for contentType in ["image/gif", "text/plain", "application/octet-stream"] {
                let response = try await client.sendBytes(.put, path, token: token, contentType: contentType, bytes: ClientsAPI.jpeg())
                expectProblem(response, .unsupportedMediaType)
            }
            #expect(try await client.send(.get, path, token: token).status == .notFound, "nothing was stored")
        }
    }

    @Test func bytesThatAreNotTheNamedImageAre422() async throws {
        try await withAPI { fixture, client in
            let token = try await client.token(for: try await fixture.trainer(in: try await fixture.company()))
            let id = try await client.createClient(given: "Ada", family: nil, token: token)
            let path = "/v1/clients/\(id)/photo"
            let text = Array("this is not an image at all".utf8)
            expectProblem(try await client.sendBytes(.put, path, token: token, contentType: "image/jpeg", bytes: text), .unprocessableContent)
            expectProblem(
                try await client.sendBytes(.put, path, token: token, contentType: "image/png", bytes: ClientsAPI.jpeg()),
                .unprocessableContent
            )
            expectProblem(try await client.sendBytes(.put, path, token: token, contentType: "image/jpeg", bytes: []), .unprocessableContent)
            #expect(try await client.send(.get, path, token: token).status == .notFound)
            #expect(try await client.send(.get, "/v1/clients/\(id)", token: token).jsonBody["hasPhoto"] == .bool(false))
        }
    }

    @Test func aPhotoIsMeasuredByItsHeaderAndOneOverThePixelLimitIs422NamingItsSize() async throws {
        try await withAPI { fixture, client in
            let token = try await client.token(for: try await fixture.trainer(in: try await fixture.company()))
            let id = try await client.createClient(given: "Ada", family: nil, token: token)
            let path = "/v1/clients/\(id)/photo"
            let kept = ClientsAPI.jpeg(size: 3_000, width: 8192, height: 4096)
            #expect(try await client.sendBytes(.put, path, token: token, contentType: "image/jpeg", bytes: kept).status == .noContent)

            let wide = try await client.sendBytes(
                .put,
                path,
                token: token,
                contentType: "image/jpeg",
                bytes: ClientsAPI.jpeg(width: 8193, height: 10)
            )
            expectProblem(wide, .unprocessableContent, fields: ["body"])
            #expect(wide.problemMessages == ["is 8193×10 pixels; at most 8192×8192 are accepted"])
            let square = try await client.sendBytes(
                .put,
                path,
                token: token,
                contentType: "image/png",
                bytes: ClientsAPI.png(width: 8192, height: 8192)
            )
            expectProblem(square, .unprocessableContent, fields: ["body"])
            #expect(square.problemMessages == ["is 8192×8192 pixels, 67108864 in all; at most 33554432 are accepted"])
            let cut = Array(ClientsAPI.png(size: 300).prefix(30))
            let truncated = try await client.sendBytes(.put, path, token: token, contentType: "image/png", bytes: cut)
            expectProblem(truncated, .unprocessableContent, fields: ["body"])
            #expect(truncated.problemMessages == ["is a PNG that ends inside its header (IHDR)"])

            #expect(try await client.send(.get, path, token: token).bodyBytes == kept, "a refused photo changes nothing")
        }
    }

    @Test func aPhotoOverTwoMiBIs413() async throws {
        try await withAPI { fixture, client in
            let token = try await client.token(for: try await fixture.trainer(in: try await fixture.company()))
            let id = try await client.createClient(given: "Ada", family: nil, token: token)
            let path = "/v1/clients/\(id)/photo"
            let response = try await client.sendBytes(
                .put,
                path,
                token: token,
                contentType: "image/jpeg",
                bytes: ClientsAPI.jpeg(size: Self.twoMiB + 1)
            )
            expectProblem(response, .contentTooLarge)
            #expect(try await client.send(.get, path, token: token).status == .notFound, "nothing was stored")
        }
    }

    @Test func aPhotoOfExactlyTwoMiBIsAccepted() async throws {
        try await withAPI { fixture, client in
            let token = try await client.token(for: try await fixture.trainer(in: try await fixture.company()))
            let id = try await client.createClient(given: "Ada", family: nil, token: token)
            let path = "/v1/clients/\(id)/photo"
            let photo = ClientsAPI.png(size: Self.twoMiB)
            let put = try await client.sendBytes(.put, path, token: token, contentType: "image/png", bytes: photo)
            #expect(put.status == .noContent, "body: \(put.text)")
            let got = try await client.send(.get, path, token: token)
            #expect(got.bodyBytes.count == Self.twoMiB)
            #expect(got.bodyBytes == photo)
        }
    }

    @Test func deletingThePhotoRemovesIt() async throws {
        try await withAPI { fixture, client in
            let token = try await client.token(for: try await fixture.trainer(in: try await fixture.company()))
            let id = try await client.createClient(given: "Ada", family: nil, token: token)
            let path = "/v1/clients/\(id)/photo"
            #expect(try await client.sendBytes(.put, path, token: token, contentType: "image/jpeg", bytes: ClientsAPI.jpeg()).status == .noContent)
            #expect(try await client.send(.delete, path, token: token).status == .noContent)
            let gone = try await client.send(.get, path, token: token)
            expectProblem(gone, .notFound)
            #expect(gone.object["type"] as? String == "urn:healthwheel:problem:no-photo")
            #expect(try await client.send(.get, "/v1/clients/\(id)", token: token).jsonBody["hasPhoto"] == .bool(false))
            // A delete may be repeated: the photo is gone either way.
            #expect(try await client.send(.delete, path, token: token).status == .noContent)
            #expect(try await client.send(.get, path, token: token).status == .notFound)
        }
    }

    /// The photo is the resource: a client without one answers 404 `no-photo`, which an app tells from an unknown
    /// client's 404 `not-found` by its type.
    @Test func aClientWithoutAPhotoAnswers404NoPhoto() async throws {
        try await withAPI { fixture, client in
            let token = try await client.token(for: try await fixture.trainer(in: try await fixture.company()))
            let id = try await client.createClient(given: "Ada", family: nil, token: token)
            for query in ["", "?size=64"] {
                let none = try await client.send(.get, "/v1/clients/\(id)/photo\(query)", token: token)
                expectProblem(none, .notFound)
                #expect(none.object["type"] as? String == "urn:healthwheel:problem:no-photo")
            }
            let unknown = try await client.send(.get, "/v1/clients/\(UUID().uuidString)/photo", token: token)
            #expect(unknown.object["type"] as? String == "urn:healthwheel:problem:not-found")
        }
    }

    /// `?size=` gives an avatar: a JPEG fitting the size, turned upright (the test photo is 200 × 100, shown turned).
    @Test func aSizedPhotoIsAnUprightJPEGAvatar() async throws {
        try await withAPI { fixture, client in
            let token = try await client.token(for: try await fixture.trainer(in: try await fixture.company()))
            let id = try await client.createClient(given: "Ada", family: nil, token: token)
            let path = "/v1/clients/\(id)/photo"
            #expect(try await client.sendBytes(.put, path, token: token, contentType: "image/jpeg", bytes: MediaTests.photo).status == .noContent)
            let avatar = try await client.send(.get, "\(path)?size=64", token: token)
            #expect(avatar.status == .ok)
            #expect(avatar.headers[.contentType] == "image/jpeg")
            let header = try PictureLimit.clientPhoto.header(of: avatar.bodyBytes)
            #expect(header.width == 32 && header.height == 64)
            #expect(try await client.send(.get, path, token: token).bodyBytes == MediaTests.photo, "without a size, as uploaded")
            #expect(try await client.send(.get, "\(path)?size=64", token: token).bodyBytes == avatar.bodyBytes, "the same avatar again")
            // A new photo, a new avatar: what is kept is named by the photo's content.
            let wide = TestPictures.png(width: 80, height: 40)
            #expect(try await client.sendBytes(.put, path, token: token, contentType: "image/png", bytes: wide).status == .noContent)
            let redrawn = try PictureLimit.clientPhoto.header(of: try await client.send(.get, "\(path)?size=64", token: token).bodyBytes)
            #expect(redrawn.width == 64 && redrawn.height == 32)
            for size in ["31", "1025", "+64", "64.0", ""] {
                expectProblem(try await client.send(.get, "\(path)?size=\(size)", token: token), .unprocessableContent, fields: ["size"])
            }
        }
    }

    @Test func anUnknownClientsPhotoIs404() async throws {
        try await withAPI { fixture, client in
            let token = try await client.token(for: try await fixture.trainer(in: try await fixture.company()))
            let path = "/v1/clients/\(UUID().uuidString)/photo"
            expectProblem(try await client.sendBytes(.put, path, token: token, contentType: "image/jpeg", bytes: ClientsAPI.jpeg()), .notFound)
            expectProblem(try await client.send(.delete, path, token: token), .notFound)
            expectProblem(try await client.send(.get, path, token: token), .notFound)
        }
    }
}
