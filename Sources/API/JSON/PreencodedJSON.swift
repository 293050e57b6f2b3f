/// JSON written earlier (a cached list entry), copied into the response as it is.
struct PreencodedJSON: Encodable {
    let bytes: [UInt8]

    func encode(to encoder: any Encoder) throws {
        // Only `ResponseJSONEncoder` writes these (as raw bytes); any other encoder would need to parse them.
        throw EncodingError.invalidValue(self, .init(codingPath: encoder.codingPath, debugDescription: "pre-encoded JSON"))
    }
}
