import Foundation

/// Base64url without padding (RFC 4648 §5): safe in URLs, headers and query strings.
public enum Base64URL {
    /// `-` and `_` for `+` and `/`, no `=` padding: how tokens and cursors are written.
    public static func encode(_ bytes: some Sequence<UInt8>) -> String {
        Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// The bytes, with or without padding; nil for text that is not base64 (the standard alphabet's `+`, `/` pass too).
    public static func decode(_ text: String) -> [UInt8]? {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        return Data(base64Encoded: base64).map { Array($0) }
    }
}
