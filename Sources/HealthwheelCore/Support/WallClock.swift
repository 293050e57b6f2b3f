import Foundation

/// The current time, injectable so that expiry and rate-limit rules can be tested without waiting.
public protocol WallClock: Sendable {
    var now: Date { get }
}

/// The real clock.
public struct SystemClock: WallClock {
    /// The system clock; the server and CLI use it, tests inject a fixed one instead.
    public init() {}
    /// `Date()`: the system's time, which may step if the host's clock is adjusted.
    public var now: Date { Date() }
}
