/// Recognises the photo formats clients may have, by the bytes every such file starts with.
public enum ImageSignature {
    /// `image/jpeg` or `image/png`, or nil for anything else.
    public static func contentType(of bytes: [UInt8]) -> String? {
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return "image/jpeg" }
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return "image/png" }
        return nil
    }
}
