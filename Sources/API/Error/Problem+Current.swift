import Foundation
import HealthwheelCore
import Services

extension ServiceError {
    /// An app's id refused as `id-taken`, with the record the server holds under it (`current`, as its own `GET`
    /// answers it) when the caller may read it, so the app can adopt it; any other refusal as it is.
    func withCurrent(_ current: () async throws -> some Encodable) async -> any Error {
        guard case .conflict(slug: "id-taken", _, _) = self else { return self }
        // Another company's record, or one gone meanwhile: the problem says no more than the id is taken.
        guard let record = try? await current() else { return self }
        return problem.with(current: record)
    }
}

extension Problem {
    /// The problem with `current`: the record as its own `GET` answers it, for an app to adopt.
    func with(current record: some Encodable) -> Problem {
        var problem = self
        if let bytes = try? ResponseJSONEncoder().encode(record), let value = try? JSONDecoder().decode(JSONValue.self, from: Data(bytes)) {
            problem.members["current"] = value
        }
        return problem
    }
}

extension JSONReply {
    /// The same answer, marked as one given before (`Idempotent-Replayed: true`): a retry's echo.
    var replayed: JSONReply {
        var copy = self
        copy.headers[IdempotentRequests.replayedHeader] = "true"
        return copy
    }
}
