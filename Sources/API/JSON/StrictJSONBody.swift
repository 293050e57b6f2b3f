import Foundation
import HealthwheelCore
import Hummingbird

/// A request body type whose accepted fields are exactly its `CodingKeys`. Anything else in the body is refused
/// with 422 naming it, so a client can never set a field the server owns (no mass assignment) and never believe
/// a misspelt field was saved.
protocol StrictJSONBody: Decodable {
    associatedtype CodingKeys: CodingKey & CaseIterable
}

/// Fields that only the server sets, named specially in the 422 so the reason is obvious.
let serverOwnedFields: Set<String> = [
    "id", "companyId", "createdAt", "updatedAt", "passwordHash", "score", "scoreError", "subject", "packVersion", "revision", "trainerId",
]

extension StrictJSONBody {
    /// Decodes a body already collected, refusing unknown fields (422) as `Request.decodeJSON` does.
    static func decodeStrictly(from data: Data) throws -> Self {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601

        let keys: TopLevelKeys
        do {
            keys = try decoder.decode(TopLevelKeys.self, from: data)
        } catch {
            throw Problem.malformed("the body is not a JSON object")
        }
        let accepted = Set(CodingKeys.allCases.map(\.stringValue))
        let unknown = keys.names.filter { !accepted.contains($0) }.sorted()
        if !unknown.isEmpty {
            throw Problem.invalid(
                unknown.map {
                    FieldError($0, serverOwnedFields.contains($0) ? "is set by the server and cannot be sent" : "is not a field of this request")
                }
            )
        }
        do {
            return try decoder.decode(Self.self, from: data)
        } catch let error as DecodingError {
            throw Problem.invalid([error.fieldError])
        }
    }
}

/// The names of a JSON object's top-level members, whatever their values.
private struct TopLevelKeys: Decodable {
    let names: [String]

    struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    init(from decoder: any Decoder) throws {
        names = try decoder.container(keyedBy: Key.self).allKeys.map(\.stringValue)
    }
}
