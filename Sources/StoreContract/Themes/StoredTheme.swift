import Foundation
import HealthwheelCore

/// What a company chose for its branding, as stored: a shipped theme or its own, and its own logo.
public struct StoredTheme: Sendable, Equatable {
    /// A company's choice: one of the server's themes by id, or a theme document of its own.
    public enum Choice: Sendable, Equatable {
        /// A theme from `Themes/`, by id.
        case shipped(String)
        /// The company's own theme document (as `Theme.document` writes it).
        case own(JSONValue)
    }

    /// Nil until the company picks one: the default theme.
    public var choice: Choice?
    /// The company's own PNG logo, as uploaded.
    public var logo: [UInt8]?
    /// `logo` normalised for reports (a smaller PNG); nil without a logo, or for a logo stored before normalised
    /// copies were kept.
    public var reportLogo: [UInt8]?
    /// 0 until the first change; moves on every change.
    public var version: Int64

    /// Branding as stored; the defaults are what a company that never changed its branding has.
    public init(choice: Choice? = nil, logo: [UInt8]? = nil, reportLogo: [UInt8]? = nil, version: Int64 = 0) {
        self.choice = choice
        self.logo = logo
        self.reportLogo = reportLogo
        self.version = version
    }
}
