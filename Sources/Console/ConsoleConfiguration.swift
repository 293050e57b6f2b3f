import Foundation

/// How the web console is served: whether its cookies need TLS.
public struct ConsoleConfiguration: Sendable {
    /// The address the console is reached at (`HEALTHWHEEL_PUBLIC_URL`), if set. When it is https, cookies are
    /// `Secure` whatever the request came over (a proxy in front ends TLS).
    public var publicURL: URL?

    public init(publicURL: URL? = nil) {
        self.publicURL = publicURL
    }

    /// Cookies are `Secure` when the console's address is https.
    var alwaysSecure: Bool { publicURL?.scheme?.lowercased() == "https" }
}
