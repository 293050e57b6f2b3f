import Foundation
import Hummingbird
import NIOCore

/// The console's stylesheet, script and icon, served from memory with a fingerprint in their URL, so a browser keeps
/// them for a year and fetches a new one only when they change.
struct ConsoleAssets: Sendable {
    struct Asset: Sendable {
        let bytes: ByteBuffer
        let contentType: String
        /// The first 12 hex digits of the bytes' FNV-1a hash: in the URL (`?v=`) and the ETag.
        let fingerprint: String
    }

    private let files: [String: Asset]
    /// `/assets/console.css?v=…`, for the layout.
    let css: String
    /// `/assets/console.js?v=…`, for the layout.
    let js: String
    /// `/assets/favicon.svg?v=…`: the tab's icon.
    let icon: String

    init() throws {
        guard let folder = Bundle.module.url(forResource: "assets", withExtension: nil) else {
            throw ConsoleSetupError("the console's assets are missing from the build")
        }
        var files: [String: Asset] = [:]
        let types = ["console.css": "text/css; charset=utf-8", "console.js": "text/javascript; charset=utf-8", "favicon.svg": "image/svg+xml"]
        for (name, type) in types {
            let bytes = try [UInt8](Data(contentsOf: folder.appendingPathComponent(name)))
            files[name] = Asset(bytes: ByteBuffer(bytes: bytes), contentType: type, fingerprint: Self.fingerprint(bytes))
        }
        self.files = files
        css = "/assets/console.css?v=\(files["console.css"]!.fingerprint)"
        js = "/assets/console.js?v=\(files["console.js"]!.fingerprint)"
        icon = "/assets/favicon.svg?v=\(files["favicon.svg"]!.fingerprint)"
    }

    func asset(_ name: String) -> Asset? { files[name] }

    /// FNV-1a, 64 bits: a fingerprint, not a defence (the files are ours).
    static func fingerprint(_ bytes: some Sequence<UInt8>) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return String(String(hash, radix: 16).prefix(12))
    }
}
