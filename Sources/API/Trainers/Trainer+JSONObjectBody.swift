import HealthwheelCore

/// Trainers and companies are answered on every `GET /v1/me` and trainer route: written by the fast path, with
/// the keys and order of their `Codable` conformance (`ResponseJSONEncoderTests` checks the two agree).
extension Trainer: JSONObjectBody {
    var jsonFields: [(key: String, value: JSONField)] {
        [
            ("id", .uuid(id)), ("companyId", .uuid(companyId)), ("email", .string(email)), ("name", .string(name)),
            ("role", .string(role.rawValue)), ("createdAt", .date(createdAt)), ("updatedAt", .date(updatedAt)),
        ]
    }
}

extension Company: JSONObjectBody {
    var jsonFields: [(key: String, value: JSONField)] {
        [("id", .uuid(id)), ("name", .string(name)), ("createdAt", .date(createdAt))]
    }
}
