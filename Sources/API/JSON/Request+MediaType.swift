import HealthwheelCore
import Hummingbird

extension Request {
    /// The body's declared media type when it is one of `accepted` (`image/png`…), else 415 naming
    /// `Content-Type` and what `what` may be sent as.
    func requireMediaType(_ accepted: [String], for what: String) throws -> String {
        let declared = headers[.contentType].flatMap(MediaType.init(from:)).map { "\($0.type)/\($0.subType)".lowercased() }
        guard let declared, accepted.contains(declared) else {
            let list = accepted.joined(separator: " or ")
            throw Problem(
                .unsupportedMediaType,
                slug: "media-type",
                detail: "send the \(what) as \(list)",
                errors: [FieldError("Content-Type", "must be \(list)")]
            )
        }
        return declared
    }
}
