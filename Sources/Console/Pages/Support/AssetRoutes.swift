import Hummingbird

/// `/assets/console.css` and `/assets/console.js`: from memory, kept by browsers for a year (their URLs change
/// with their bytes), answered 304 to a browser that has them.
struct AssetRoutes: Sendable {
    let assets: ConsoleAssets

    func addRoutes(to group: RouterGroup<ConsoleRequestContext>) {
        group.get("assets/:name", use: asset)
    }

    @Sendable func asset(request: Request, context: ConsoleRequestContext) async throws -> Response {
        guard let name = context.parameters.get("name"), let asset = assets.asset(name) else { throw HTTPError(.notFound) }
        let etag = "\"\(asset.fingerprint)\""
        if request.headers[.ifNoneMatch] == etag {
            return Response(status: .notModified, headers: [.eTag: etag, .cacheControl: "public, max-age=31536000, immutable"])
        }
        return Response(
            status: .ok,
            headers: [.contentType: asset.contentType, .eTag: etag, .cacheControl: "public, max-age=31536000, immutable"],
            body: .init(byteBuffer: asset.bytes)
        )
    }
}
