import Foundation

/// The current time, injectable so that expiry and rate-limit rules can be tested without waiting.
public protocol WallClock: Sendable {
    var now: Date { get }
}

/// The real clock.
public struct SystemClock: WallClock {
    public init() {}
    public var now: Date { Date() }
}
