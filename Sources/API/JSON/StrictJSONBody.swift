import Foundation
import HealthwheelCore
import Hummingbird

/// A request body type whose accepted fields are exactly its `CodingKeys`. Anything else in the body is refused
/// with 422 naming it, so a client can never set a field the server owns (no mass assignment) and never believe
/// a misspelt field was saved.
protocol StrictJSONBody: Decodable {
    associatedtype CodingKeys: CodingKey & CaseIterable
    /// The keys that may be sent as `null` (a PATCH clearing a field); nil lets any key be `null`, read as absent.
    /// Any other key sent as `null` is refused (422 "must not be null"), as the contract says: a value or nothing.
    static var nullableKeys: Set<String>? { get }
}

extension StrictJSONBody {
    static var nullableKeys: Set<String>? { nil }
}

/// Fields that only the server sets, named specially in the 422 so the reason is obvious.
let serverOwnedFields: Set<String> = [
    "id", "companyId", "createdAt", "updatedAt", "passwordHash", "score", "scoreError", "subject", "packVersion", "revision", "trainerId",
]

extension StrictJSONBody {
    /// Decodes a body already collected, refusing unknown fields (422) as `Request.decodeJSON` does.
    static func decodeStrictly(from data: Data) throws -> Self {
        try NULCharacter.refuse(in: data)
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom(RFC3339.decode)
        do {
            // One parse: the wrapper checks the top-level keys, then decodes the body from the same decoder.
            return try decoder.decode(Strict<Self>.self, from: data).body
        } catch let unknown as UnknownFields {
            throw Problem.invalid(
                unknown.names.map {
                    FieldError($0, serverOwnedFields.contains($0) ? "is set by the server and cannot be sent" : "is not a field of this request")
                }
            )
        } catch let nulls as NullFields {
            throw Problem.invalid(nulls.names.map { FieldError($0, "must not be null: send a value, or leave the field out") })
        } catch DecodingError.dataCorrupted(let context) where context.codingPath.isEmpty {
            throw Problem.malformed("the body is not a JSON object")
        } catch DecodingError.typeMismatch(_, let context) where context.codingPath.isEmpty {
            throw Problem.malformed("the body is not a JSON object")
        } catch let error as DecodingError {
            throw Problem.invalid([error.fieldError])
        }
    }
}

/// A body's fields that are not in its `CodingKeys`, sorted.
private struct UnknownFields: Error {
    let names: [String]
}

/// A body's fields sent as `null` that may not be, sorted.
private struct NullFields: Error {
    let names: [String]
}

/// Decodes `Body` after refusing any top-level key it does not accept.
private struct Strict<Body: StrictJSONBody>: Decodable {
    let body: Body

    init(from decoder: any Decoder) throws {
        // Closures, not key paths: a key path through a generic type is built at run time on every call.
        let accepted = Body.CodingKeys.allCases.map { $0.stringValue }
        let container = try decoder.container(keyedBy: AnyCodingKey.self)
        let unknown = container.allKeys.lazy.map { $0.stringValue }.filter { !accepted.contains($0) }
        if !unknown.isEmpty { throw UnknownFields(names: unknown.sorted()) }
        if let nullable = Body.nullableKeys {
            let nulls = try container.allKeys.filter { key in try !nullable.contains(key.stringValue) && container.decodeNil(forKey: key) }
            if !nulls.isEmpty { throw NullFields(names: nulls.map(\.stringValue).sorted()) }
        }
        body = try Body(from: decoder)
    }
}

/// Text holding U+0000 is refused wherever it is sent: PostgreSQL's text cannot store it, and no name, note or
/// answer needs it. Found by a byte search first, so bodies without the escape cost nothing more.
enum NULCharacter {
    private static let escape = Data(#"\u0000"#.utf8)

    /// A 422 naming the first key or text of the body that holds U+0000.
    static func refuse(in data: Data) throws {
        if let field = field(in: data) { throw Problem.invalid(field, "must not contain the NUL character (\\u0000)") }
    }

    /// The path of the first key or text (`answers.occupation`, `values[2]`) that holds U+0000, or nil.
    static func field(in data: Data) -> String? {
        guard data.range(of: escape) != nil,
            let body = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        else { return nil }
        return path(to: body, at: "")
    }

    private static func path(to value: Any, at path: String) -> String? {
        switch value {
        case let text as String:
            return text.unicodeScalars.contains("\u{0}") ? (path.isEmpty ? "body" : path) : nil
        case let object as [String: Any]:
            for key in object.keys.sorted() {
                let inner = path.isEmpty ? key : "\(path).\(key)"
                if key.unicodeScalars.contains("\u{0}") { return inner }
                if let found = Self.path(to: object[key]!, at: inner) { return found }
            }
            return nil
        case let array as [Any]:
            for (index, element) in array.enumerated() {
                if let found = Self.path(to: element, at: "\(path)[\(index)]") { return found }
            }
            return nil
        default:
            return nil
        }
    }
}
