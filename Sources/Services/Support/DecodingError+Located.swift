import Foundation

extension DecodingError {
    /// "sections[1].fields[0].type: …" — where in the file, and what is wrong there.
    var locatedDescription: String {
        let (place, message) = located
        return place.isEmpty ? message : "\(place): \(message)"
    }

    /// Where the problem is (`exercises[0].fields`, empty for the whole document) and what it is.
    var located: (place: String, message: String) {
        func path(_ keys: [any CodingKey]) -> String {
            keys.reduce("") { result, key in
                if let index = key.intValue { return result + "[\(index)]" }
                return result.isEmpty ? key.stringValue : result + "." + key.stringValue
            }
        }
        switch self {
        case .keyNotFound(let key, let context): return (path(context.codingPath + [key]), "is required")
        case .valueNotFound(_, let context): return (path(context.codingPath), "must not be null")
        case .typeMismatch(let type, let context): return (path(context.codingPath), "expected \(type)")
        case .dataCorrupted(let context):
            let underlying = (context.underlyingError as? NSError)?.userInfo[NSDebugDescriptionErrorKey] as? String
            return (path(context.codingPath), underlying ?? context.debugDescription)
        @unknown default: return ("", "\(self)")
        }
    }
}
