extension KeyedDecodingContainer {
    /// For PATCH bodies: absent means "leave unchanged", but an explicit `null` for a field that cannot be empty
    /// is an error rather than being silently ignored.
    func decodeIfPresentNotNull<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        guard contains(key) else { return nil }
        if try decodeNil(forKey: key) {
            throw DecodingError.valueNotFound(T.self, .init(codingPath: codingPath + [key], debugDescription: "null"))
        }
        return try decode(T.self, forKey: key)
    }
}
