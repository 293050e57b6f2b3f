import Foundation
import HTTPTypes
import HealthwheelCore
import HummingbirdTesting
import Store
import Testing

@testable import API

/// `/v1/clients/{id}/photo`: a JPEG or PNG of at most 2 MiB, stored as sent.
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
            expectProblem(try await client.send(.get, path, token: token), .notFound)
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
            expectProblem(try await client.send(.get, path, token: token), .notFound)
            #expect(try await client.send(.get, "/v1/clients/\(id)", token: token).jsonBody["hasPhoto"] == .bool(false))
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
            expectProblem(try await client.send(.get, path, token: token), .notFound)
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
            expectProblem(try await client.send(.get, path, token: token), .notFound)
            #expect(try await client.send(.get, "/v1/clients/\(id)", token: token).jsonBody["hasPhoto"] == .bool(false))
        }
    }

    @Test func aClientWithoutAPhotoAnswers404() async throws {
        try await withAPI { fixture, client in
            let token = try await client.token(for: try await fixture.trainer(in: try await fixture.company()))
            let id = try await client.createClient(given: "Ada", family: nil, token: token)
            expectProblem(try await client.send(.get, "/v1/clients/\(id)/photo", token: token), .notFound)
        }
    }

    @Test func anUnknownClientsPhotoIs404() async throws {
        try await withAPI { fixture, client in
            let token = try await client.token(for: try await fixture.trainer(in: try await fixture.company()))
            let path = "/v1/clients/\(UUID().uuidString)/photo"
            expectProblem(try await client.sendBytes(.put, path, token: token, contentType: "image/jpeg", bytes: ClientsAPI.jpeg()), .notFound)
            expectProblem(try await client.send(.delete, path, token: token), .notFound)
        }
    }
}
