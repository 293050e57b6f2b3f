import Foundation

/// What a measurement measures. Stored values are in the first unit of `units`: SI (metres, kilograms, seconds),
/// except where practice has one unit everyone uses (beats per minute, mmHg).
public enum Quantity: String, Codable, Sendable, CaseIterable {
    case length
    case mass
    case duration
    case distance
    case heartRate
    case count
    case pressure
    case percent
    case ratio

    /// The units a client may send, with how many stored units each is; the first is the stored unit.
    public var units: [(name: String, toSI: Double)] {
        switch self {
        case .length: [("m", 1), ("cm", 0.01), ("mm", 0.001), ("in", 0.0254), ("ft", 0.3048)]
        case .mass: [("kg", 1), ("g", 0.001), ("lb", 0.453_592_37), ("st", 6.350_293_18)]
        case .duration: [("s", 1), ("min", 60), ("h", 3600)]
        case .distance: [("m", 1), ("km", 1000), ("mi", 1609.344), ("yd", 0.9144), ("ft", 0.3048)]
        case .heartRate: [("bpm", 1)]
        case .count: [("count", 1)]
        case .pressure: [("mmHg", 1), ("kPa", 7.500_616_83)]
        case .percent: [("%", 1)]
        case .ratio: [("ratio", 1)]
        }
    }

    /// The stored unit.
    public var siUnit: String { units[0].name }

    /// Values outside these bounds (stored units) are typing mistakes, not measurements.
    public var plausibleRange: ClosedRange<Double> {
        switch self {
        case .length: 0...5
        case .mass: 0...1000
        case .duration: 0...172_800
        case .distance: 0...1_000_000
        case .heartRate: 0...300
        case .count: 0...1_000_000
        case .pressure: 0...400
        case .percent: 0...100
        case .ratio: 0...1_000_000
        }
    }

    /// The sub-unit that may accompany the main one: `5 ft 11 in`, `11 st 4 lb`; `perUnit` parts make one unit.
    public var compound: (unit: String, field: String, toSI: Double, perUnit: Double)? {
        switch self {
        case .length: ("ft", "inches", 0.0254, 12)
        case .mass: ("st", "pounds", 0.453_592_37, 14)
        default: nil
        }
    }

    /// The whole units (feet, stones) a compound value may have so that, whatever its part, the sum stays in
    /// `range` (stored units): from the first whole unit at or above the lower bound to one below the last whole
    /// unit under the upper bound. Nil for a quantity without a compound or a range too narrow for one.
    public func compoundWholes(within range: ClosedRange<Double>) -> ClosedRange<Int>? {
        guard let compound, let unitToSI = units.first(where: { $0.name == compound.unit })?.toSI else { return nil }
        let lowest = max(0, Self.whole((range.lowerBound / unitToSI).rounded(.up)))
        let highest = Self.whole((range.upperBound / unitToSI).rounded(.down)) - 1
        return lowest <= highest ? lowest...highest : nil
    }

    /// A whole number as an `Int`, held within ±2⁵³ (where doubles stop being whole numbers anyway): `Int(_:)`
    /// traps beyond `Int`'s range, and a range or value comes from what a tenant sent.
    static func whole(_ value: Double) -> Int {
        guard !value.isNaN else { return 0 }
        return Int(min(max(value, -9_007_199_254_740_992), 9_007_199_254_740_992))
    }
}

/// A measurement as a client sends it: a bare number in SI units, or `{"value": 5, "unit": "ft", "inches": 11}`.
public struct MeasurementInput: Decodable, Sendable, Equatable {
    /// The number as sent, in `unit` (a stopwatch reading is already turned into seconds here).
    public var value: Double
    /// One of the quantity's unit names (`cm`, `lb`, `s`); nil means the quantity's stored unit.
    public var unit: String?
    /// The second part of a compound imperial measurement (`inches` with feet, `pounds` with stones).
    public var part: (field: String, value: Double)?

    /// Builds a measurement in code, as screening answers and result edits do; nil `unit` means the stored unit.
    public init(value: Double, unit: String? = nil, part: (field: String, value: Double)? = nil) {
        self.value = value
        self.unit = unit
        self.part = part
    }

    /// Compares field by field, since the tuple `part` keeps the compiler from synthesising `==`.
    public static func == (lhs: MeasurementInput, rhs: MeasurementInput) -> Bool {
        lhs.value == rhs.value && lhs.unit == rhs.unit && lhs.part?.field == rhs.part?.field && lhs.part?.value == rhs.part?.value
    }

    /// Accepts a bare number (stored unit), `{"value", "unit"}`, a stopwatch text with unit `mm:ss` or `h:mm:ss`,
    /// and one `inches` or `pounds` part; any other key is a decoding error.
    public init(from decoder: any Decoder) throws {
        if let number = try? decoder.singleValueContainer().decode(Double.self) {
            self.init(value: number)
            return
        }
        guard let container = try? decoder.container(keyedBy: AnyCodingKey.self) else {
            let context = DecodingError.Context(codingPath: decoder.codingPath, debugDescription: #"must be a number, or {"value", "unit"}"#)
            throw DecodingError.dataCorrupted(context)
        }
        var unit = try container.decode(String.self, forKey: AnyCodingKey("unit"))
        let value: Double
        if let clock = try? container.decode(String.self, forKey: AnyCodingKey("value")) {
            // A stopwatch reading: {"value": "12:30", "unit": "mm:ss"} or "1:02:30" with "h:mm:ss".
            guard ["mm:ss", "h:mm:ss"].contains(unit), let seconds = Self.seconds(clock, unit: unit) else {
                throw DecodingError.dataCorruptedError(
                    forKey: AnyCodingKey("value"),
                    in: container,
                    debugDescription: "must be a number, or a time with unit mm:ss or h:mm:ss"
                )
            }
            value = seconds
            unit = "s"
        } else {
            value = try container.decode(Double.self, forKey: AnyCodingKey("value"))
        }
        var part: (String, Double)?
        for key in container.allKeys where !["value", "unit"].contains(key.stringValue) {
            guard ["inches", "pounds"].contains(key.stringValue), part == nil else {
                throw DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: "is not a field of a measurement")
            }
            part = (key.stringValue, try container.decode(Double.self, forKey: key))
        }
        self.init(value: value, unit: unit, part: part)
    }

    /// Seconds in "12:30" (mm:ss) or "1:02:30" (h:mm:ss); the last part may have decimals ("9:58.4").
    static func seconds(_ clock: String, unit: String) -> Double? {
        let parts = clock.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        // Seconds as digits with optional decimals, as the document's pattern says: "5", "09", "58.4", never "5e1".
        let seconds = parts.last!.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard seconds.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCIIDigit) }), seconds[0].count <= 2 else { return nil }
        guard parts.count == (unit == "mm:ss" ? 2 : 3), let last = Double(parts.last!), last >= 0, last < 60 else { return nil }
        var total = 0.0
        for part in parts.dropLast() {
            guard !part.isEmpty, part.allSatisfy(\.isASCIIDigit), let whole = Int(part) else { return nil }
            total = total * 60 + Double(whole)
        }
        if parts.count == 3, let minutes = Int(parts[1]), minutes >= 60 { return nil }
        return total * 60 + last
    }

    /// The value in SI units (metres or kilograms), or a `ValidationError` naming `field` and what is accepted.
    public func siValue(of quantity: Quantity, field: String, range: ClosedRange<Double>) throws(ValidationError) -> Double {
        let accepted = quantity.units.map(\.name)
        let unit = self.unit ?? accepted[0]
        guard let factor = quantity.units.first(where: { $0.name == unit })?.toSI else {
            throw ValidationError("\(field).unit", "must be one of: \(accepted.joined(separator: ", "))")
        }
        guard value.isFinite else { throw ValidationError(field, "must be a number") }
        guard value >= 0 || range.lowerBound < 0 else { throw ValidationError(field, "must be a positive number") }
        // The range is checked in the unit sent, with the very bounds the OpenAPI document states for that unit
        // (stored bound / factor), so a value at a stated bound is never refused by a conversion's rounding.
        // A compound's whole units have bounds of their own, below.
        guard part != nil || (value >= range.lowerBound / factor && value <= range.upperBound / factor) else {
            throw ValidationError(field, "must be between \(short(range.lowerBound)) and \(short(range.upperBound)) \(accepted[0])")
        }
        var si = value * factor
        if let part {
            // "-1 ft 3 in" has no agreed meaning: a negative length goes in one unit.
            guard value >= 0 else { throw ValidationError("\(field).\(part.field)", "cannot go with a negative value") }
            guard let compound = quantity.compound, compound.unit == unit, compound.field == part.field else {
                throw ValidationError("\(field).\(part.field)", "goes only with unit \(quantity.compound?.unit ?? "-")")
            }
            guard part.value.isFinite, part.value >= 0, part.value < compound.perUnit else {
                throw ValidationError("\(field).\(part.field)", "must be from 0 to below \(short(compound.perUnit))")
            }
            // Whole feet (stones) in bounds such that any part still keeps the sum in range: a rule of two
            // separate numbers, as the document can state it.
            guard let wholes = quantity.compoundWholes(within: range) else {
                throw ValidationError("\(field).\(part.field)", "does not fit this field's range: send one unit")
            }
            guard value == value.rounded(), let whole = Int(exactly: value), wholes.contains(whole) else {
                throw ValidationError(
                    field,
                    "with \(part.field), must be a whole number of \(unit) from \(wholes.lowerBound) to \(wholes.upperBound)"
                )
            }
            si += part.value * compound.toSI
        }
        // A tenth of a millimetre or gram: finer than any scale or tape, and free of conversion noise.
        return (si * 10_000).rounded() / 10_000
    }
}

/// Imperial display values for SI measurements (`?units=imperial`).
public enum ImperialDisplay {
    /// A height in feet and inches, next to the metres a client body carries when `?units=imperial` is asked.
    public struct Height: Codable, Sendable, Equatable {
        /// Whole feet.
        public var feet: Int
        /// The rest below 12, to a tenth of an inch.
        public var inches: Double
        /// Ready to show: `5 ft 11 in`, `5 ft 10.5 in`.
        public var text: String
    }

    /// A body mass in pounds, next to the kilograms a client body carries when `?units=imperial` is asked.
    public struct Mass: Codable, Sendable, Equatable {
        /// To a tenth of a pound.
        public var pounds: Double
        /// Ready to show: `154 lb`.
        public var text: String
    }

    /// Feet and inches for a height in metres, rounded to a tenth of an inch; 11.95 in rounds up to the next foot.
    public static func height(metres: Double) -> Height {
        let totalInches = (metres / 0.0254 * 10).rounded() / 10
        var feet = Quantity.whole(totalInches / 12)
        var inches = ((totalInches - Double(feet) * 12) * 10).rounded() / 10
        if inches >= 12 {
            feet += 1
            inches -= 12
        }
        return Height(feet: feet, inches: inches, text: "\(feet) ft \(short(inches)) in")
    }

    /// A measured value in the unit imperial users read it in.
    public struct Value: Codable, Sendable, Equatable {
        /// In `unit`, rounded to a tenth (hundredth for miles).
        public var value: Double
        /// `in`, `lb` or `mi`.
        public var unit: String
        /// Ready to show: `70.1 in`, `6.21 mi`.
        public var text: String

        /// Only `ImperialDisplay.value(_:of:)` and tests need to build one; the text is not checked against the value.
        public init(value: Double, unit: String, text: String) {
            self.value = value
            self.unit = unit
            self.text = text
        }
    }

    /// A stored value of `quantity` in inches, pounds or miles; nil for quantities both systems read alike (beats,
    /// counts, seconds, mmHg, percent).
    public static func value(_ stored: Double, of quantity: Quantity) -> Value? {
        let (unit, factor, places): (String, Double, Double) =
            switch quantity {
            case .length: ("in", 0.0254, 10)
            case .mass: ("lb", 0.453_592_37, 10)
            case .distance: ("mi", 1609.344, 100)
            case .duration, .heartRate, .count, .pressure, .percent, .ratio: ("", 0, 0)
            }
        guard factor > 0 else { return nil }
        let value = (stored / factor * places).rounded() / places
        return Value(value: value, unit: unit, text: "\(short(value)) \(unit)")
    }

    /// Pounds for a mass in kilograms, rounded to a tenth of a pound.
    public static func mass(kilograms: Double) -> Mass {
        let pounds = (kilograms / 0.453_592_37 * 10).rounded() / 10
        return Mass(pounds: pounds, text: "\(short(pounds)) lb")
    }
}

/// `11` for 11.0, `11.5` otherwise: numbers as people write them.
func short(_ value: Double) -> String {
    value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
}

extension Character {
    /// 0 to 9 and nothing else: `isNumber` also takes other scripts' digits and fractions, which `Int` does not read.
    var isASCIIDigit: Bool { isASCII && isWholeNumber }
}
