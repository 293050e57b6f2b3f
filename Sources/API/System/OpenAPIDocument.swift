import Foundation
import NIOCore

/// The OpenAPI document shipped inside the API module.
enum OpenAPIDocument {
    static func load() -> ByteBuffer {
        guard let url = Bundle.module.url(forResource: "openapi", withExtension: "yaml"), let data = try? Data(contentsOf: url) else {
            preconditionFailure("openapi.yaml is missing from the API module's resources")
        }
        return ByteBuffer(bytes: data)
    }
}
