import Hummingbird
import NIOCore

/// A picture a page shows (a wheel, a step's illustration), answered with a policy that lets nothing in it run or
/// load anything, wherever it is opened: an SVG can carry script.
enum Picture {
    static func response(_ bytes: [UInt8], contentType: String, cacheControl: String) -> Response {
        Response(
            status: .ok,
            headers: [
                .contentType: contentType, .cacheControl: cacheControl, .contentSecurityPolicy: "default-src 'none'; style-src 'unsafe-inline'",
            ],
            body: .init(byteBuffer: ByteBuffer(bytes: bytes))
        )
    }
}
