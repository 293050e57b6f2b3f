/// A client's photo: a small JPEG or PNG.
public struct ClientPhoto: Sendable, Equatable {
    public var contentType: String
    public var bytes: [UInt8]

    public init(contentType: String, bytes: [UInt8]) {
        self.contentType = contentType
        self.bytes = bytes
    }
}
