import Foundation

/// What a company's admin tunes about scoring: how long a quick correction may replace a result, and below which
/// score a wheel slice is flagged.
public struct CompanySettings: Codable, Sendable, Equatable {
    /// Seconds after recording a result during which the same trainer may replace it with `amendRecent`.
    public var correctionWindowSeconds: Int = 60
    /// Wheel slices scoring below this are flagged.
    public var wheelFlagBelow: Double = HealthWheel.defaultFlagBelow

    public static let correctionWindowRange = 0...3_600
    public static let wheelFlagBelowRange = 0.0...10.0

    public init(correctionWindowSeconds: Int = 60, wheelFlagBelow: Double = HealthWheel.defaultFlagBelow) {
        self.correctionWindowSeconds = correctionWindowSeconds
        self.wheelFlagBelow = wheelFlagBelow
    }

    public var correctionWindow: TimeInterval { TimeInterval(correctionWindowSeconds) }

    /// An admin's change: absent fields stay as they are; every value is checked before any is applied.
    public struct Edit: Decodable, Sendable, Equatable {
        public var correctionWindowSeconds: Int?
        public var wheelFlagBelow: Double?

        public enum CodingKeys: String, CodingKey, CaseIterable {
            case correctionWindowSeconds, wheelFlagBelow
        }

        public init(correctionWindowSeconds: Int? = nil, wheelFlagBelow: Double? = nil) {
            self.correctionWindowSeconds = correctionWindowSeconds
            self.wheelFlagBelow = wheelFlagBelow
        }

        public func apply(to settings: inout CompanySettings) throws(ValidationError) {
            var problems = FieldErrorCollector()
            var result = settings
            if let seconds = correctionWindowSeconds {
                let range = CompanySettings.correctionWindowRange
                if range.contains(seconds) {
                    result.correctionWindowSeconds = seconds
                } else {
                    problems.add("correctionWindowSeconds", "must be a whole number of seconds from \(range.lowerBound) to \(range.upperBound)")
                }
            }
            if let flag = wheelFlagBelow {
                if CompanySettings.wheelFlagBelowRange.contains(flag) {
                    result.wheelFlagBelow = flag
                } else {
                    problems.add("wheelFlagBelow", "must be from 0 to 10")
                }
            }
            try problems.throwIfAny()
            settings = result
        }
    }
}
