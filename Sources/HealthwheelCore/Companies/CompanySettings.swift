import Foundation

/// What a company's admin tunes about scoring: how long a quick correction may replace a result, and below which
/// score a wheel slice is flagged.
public struct CompanySettings: Codable, Sendable, Equatable {
    /// Seconds after recording a result during which the same trainer may replace it with `amendRecent`.
    public var correctionWindowSeconds: Int = 60
    /// Wheel slices scoring below this are flagged.
    public var wheelFlagBelow: Double = HealthWheel.defaultFlagBelow

    /// Seconds: 0 turns quick corrections off; an hour at most (later changes are edits).
    public static let correctionWindowRange = 0...3_600
    /// On the score scale; 0 flags nothing, 10 flags every slice below a perfect score.
    public static let wheelFlagBelowRange = 0.0...10.0

    /// Defaults as a new company's row has them: a 60-second correction window, slices below 4 flagged.
    public init(correctionWindowSeconds: Int = 60, wheelFlagBelow: Double = HealthWheel.defaultFlagBelow) {
        self.correctionWindowSeconds = correctionWindowSeconds
        self.wheelFlagBelow = wheelFlagBelow
    }

    /// `correctionWindowSeconds` as a `TimeInterval`, for date arithmetic.
    public var correctionWindow: TimeInterval { TimeInterval(correctionWindowSeconds) }

    /// An admin's change: absent fields stay as they are; every value is checked before any is applied.
    public struct Edit: Decodable, Sendable, Equatable {
        /// Seconds, from 0 to 3,600; nil leaves it.
        public var correctionWindowSeconds: Int?
        /// From 0 to 10; nil leaves it.
        public var wheelFlagBelow: Double?

        /// The keys a settings body may hold; the API's strict decoding refuses any other, naming it.
        public enum CodingKeys: String, CodingKey, CaseIterable {
            case correctionWindowSeconds, wheelFlagBelow
        }

        /// Builds an edit in code (tests); nothing is checked until `apply`.
        public init(correctionWindowSeconds: Int? = nil, wheelFlagBelow: Double? = nil) {
            self.correctionWindowSeconds = correctionWindowSeconds
            self.wheelFlagBelow = wheelFlagBelow
        }

        /// Applies every field sent to `settings`, or throws every out-of-range value and changes nothing.
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
