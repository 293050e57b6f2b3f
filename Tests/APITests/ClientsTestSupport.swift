import Foundation
import HTTPTypes
import HealthwheelCore
import HummingbirdTesting
import NIOCore
import TestSupport
import Testing

/// Helpers shared by the client and screening API tests.
enum ClientsAPI {
    /// A client with every detail the screening mirrors.
    static let ada = """
        {"givenName": "Ada", "familyName": "Lovelace", "email": "ada@example.com", "phone": "021 555 1234",
         "birthDate": "1985-03-14", "sex": "female", "height": {"value": 170, "unit": "cm"}, "mass": 60, "goal": "Run 5 km"}
        """

    /// The required screening answers the client details do not already give, for a healthy non-smoker.
    static let healthyAnswers = """
        {"answers": {"heartCondition": false, "chestPain": false, "dizziness": false, "otherChronicCondition": false,
         "prescribedMedication": false, "boneJointProblem": false, "supervisedActivityOnly": false,
         "activityLevel": "light", "smoker": false, "currentInjuries": false}}
        """

    /// A JPEG of exactly `size` bytes (at least 27), 64 × 48 by its frame header, then a scan of filler: what
    /// the server checks of a photo (signature, header, size); it is stored as sent, never decoded.
    static func jpeg(size: Int = 64, width: Int = 64, height: Int = 48) -> [UInt8] {
        let frame = TestPictures.segment(0xC0, [8] + TestPictures.be16(height) + TestPictures.be16(width) + [1, 1, 0x11, 0])
        let head = [0xFF, 0xD8] + frame + TestPictures.segment(0xDA, [1, 1, 0, 0, 0x3F, 0])
        return head + [UInt8](repeating: 0x2A, count: size - head.count - 2) + [0xFF, 0xD9]
    }

    /// A PNG of exactly `size` bytes (at least 57), 64 × 64 by its header, then a chunk of filler and IEND: like
    /// `jpeg(size:)`, sound as far as the server reads it. Logos are decoded: they need `TestPictures.png`.
    static func png(size: Int = 64, width: Int = 64, height: Int = 64) -> [UInt8] {
        let header = TestPictures.chunk("IHDR", TestPictures.be32(width) + TestPictures.be32(height) + [8, 6, 0, 0, 0])
        let filler = TestPictures.chunk("IDAT", [UInt8](repeating: 0x17, count: size - 8 - header.count - 12 - 12))
        return TestPictures.pngSignature + header + filler + TestPictures.chunk("IEND", [])
    }
}

/// Percent-encodes a query parameter value.
func percentEncoded(_ text: String) -> String {
    text.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
}

extension TestResponse {
    /// The body as a typed JSON value, for exact comparisons of numbers, booleans and nulls.
    var jsonBody: JSONValue {
        (try? JSONDecoder().decode(JSONValue.self, from: Data(body.readableBytesView))) ?? .null
    }

    /// `items` of a list response.
    var listItems: [[String: Any]] {
        object["items"] as? [[String: Any]] ?? []
    }

    var bodyBytes: [UInt8] {
        Array(body.readableBytesView)
    }
}

extension TestClientProtocol {
    /// Creates a client and returns its id, failing the test unless the API answers 201.
    func createClient(_ json: String, token: String, sourceLocation: SourceLocation = #_sourceLocation) async throws -> String {
        let response = try await send(.post, "/v1/clients", token: token, json: json)
        #expect(response.status == .created, "body: \(response.text)", sourceLocation: sourceLocation)
        return try #require(response.object["id"] as? String, sourceLocation: sourceLocation)
    }

    /// Creates a client from its given and family names.
    func createClient(given: String?, family: String?, extra: [String: Any] = [:], token: String) async throws -> String {
        var body = extra
        if let given { body["givenName"] = given }
        if let family { body["familyName"] = family }
        return try await createClient(jsonString(body), token: token)
    }

    /// Starts a screening of the shipped questionnaire and returns its id.
    func startScreening(client id: String, token: String, sourceLocation: SourceLocation = #_sourceLocation) async throws -> String {
        let response = try await send(.post, "/v1/clients/\(id)/screenings", token: token, json: #"{"questionnaireId": "screening"}"#)
        #expect(response.status == .created, "body: \(response.text)", sourceLocation: sourceLocation)
        return try #require(response.object["id"] as? String, sourceLocation: sourceLocation)
    }

    /// Starts, answers (`ClientsAPI.healthyAnswers`, then `answers`) and completes a screening; returns its id.
    func completeScreening(
        client id: String,
        token: String,
        answers: String? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> String {
        let screening = try await startScreening(client: id, token: token, sourceLocation: sourceLocation)
        let path = "/v1/clients/\(id)/screenings/\(screening)"
        for body in [ClientsAPI.healthyAnswers] + (answers.map { [$0] } ?? []) {
            let answered = try await send(.patch, path, token: token, json: body)
            #expect(answered.status == .ok, "body: \(answered.text)", sourceLocation: sourceLocation)
        }
        let completed = try await send(.post, "\(path)/complete", token: token)
        #expect(completed.status == .ok, "body: \(completed.text)", sourceLocation: sourceLocation)
        return screening
    }

    /// A client (`ClientsAPI.ada` unless `json` is given) with a completed screening, so results can be recorded.
    func screenedClient(_ json: String = ClientsAPI.ada, token: String, sourceLocation: SourceLocation = #_sourceLocation) async throws -> String {
        let id = try await createClient(json, token: token, sourceLocation: sourceLocation)
        _ = try await completeScreening(client: id, token: token, sourceLocation: sourceLocation)
        return id
    }

    /// Sends raw bytes with a content type.
    func sendBytes(_ method: HTTPRequest.Method, _ uri: String, token: String, contentType: String, bytes: [UInt8]) async throws -> TestResponse {
        try await execute(
            uri: uri,
            method: method,
            headers: [.authorization: "Bearer \(token)", .contentType: contentType],
            body: ByteBuffer(bytes: bytes)
        ) { $0 }
    }
}

extension JSONValue {
    /// The element at `index` of an array.
    subscript(index: Int) -> JSONValue? {
        guard let array, array.indices.contains(index) else { return nil }
        return array[index]
    }

    /// The object without `key`.
    func removing(_ key: String) -> JSONValue {
        guard var object else { return self }
        object[key] = nil
        return .object(object)
    }
}
