import Foundation

/// What a measurement measures. Stored values are always SI: metres and kilograms.
public enum Quantity: String, Codable, Sendable, CaseIterable {
    case length
    case mass

    /// The units a client may send, with how many SI units each is.
    public var units: [(name: String, toSI: Double)] {
        switch self {
        case .length: [("m", 1), ("cm", 0.01), ("mm", 0.001), ("in", 0.0254), ("ft", 0.3048)]
        case .mass: [("kg", 1), ("g", 0.001), ("lb", 0.453_592_37), ("st", 6.350_293_18)]
        }
    }

    /// The sub-unit that may accompany the main one: `5 ft 11 in`, `11 st 4 lb`.
    var compound: (unit: String, field: String, toSI: Double)? {
        switch self {
        case .length: ("ft", "inches", 0.0254)
        case .mass: ("st", "pounds", 0.453_592_37)
        }
    }
}

/// A measurement as a client sends it: a bare number in SI units, or `{"value": 5, "unit": "ft", "inches": 11}`.
public struct MeasurementInput: Decodable, Sendable, Equatable {
    public var value: Double
    public var unit: String?
    /// The second part of a compound imperial measurement (`inches` with feet, `pounds` with stones).
    public var part: (field: String, value: Double)?

    public init(value: Double, unit: String? = nil, part: (field: String, value: Double)? = nil) {
        self.value = value
        self.unit = unit
        self.part = part
    }

    public static func == (lhs: MeasurementInput, rhs: MeasurementInput) -> Bool {
        lhs.value == rhs.value && lhs.unit == rhs.unit && lhs.part?.field == rhs.part?.field && lhs.part?.value == rhs.part?.value
    }

    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ string: String) { stringValue = string }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    public init(from decoder: any Decoder) throws {
        if let number = try? decoder.singleValueContainer().decode(Double.self) {
            self.init(value: number)
            return
        }
        let container = try decoder.container(keyedBy: Key.self)
        let value = try container.decode(Double.self, forKey: Key("value"))
        let unit = try container.decode(String.self, forKey: Key("unit"))
        var part: (String, Double)?
        for key in container.allKeys where !["value", "unit"].contains(key.stringValue) {
            guard ["inches", "pounds"].contains(key.stringValue), part == nil else {
                throw DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: "is not a field of a measurement")
            }
            part = (key.stringValue, try container.decode(Double.self, forKey: key))
        }
        self.init(value: value, unit: unit, part: part)
    }

    /// The value in SI units (metres or kilograms), or a `ValidationError` naming `field` and what is accepted.
    public func siValue(of quantity: Quantity, field: String, range: ClosedRange<Double>) throws(ValidationError) -> Double {
        let accepted = quantity.units.map(\.name)
        let unit = self.unit ?? accepted[0]
        guard let factor = quantity.units.first(where: { $0.name == unit })?.toSI else {
            throw ValidationError("\(field).unit", "must be one of: \(accepted.joined(separator: ", "))")
        }
        guard value.isFinite, value >= 0 else { throw ValidationError(field, "must be a positive number") }
        var si = value * factor
        if let part {
            guard let compound = quantity.compound, compound.unit == unit, compound.field == part.field else {
                throw ValidationError("\(field).\(part.field)", "goes only with unit \(quantity.compound?.unit ?? "-")")
            }
            guard part.value.isFinite, part.value >= 0, part.value < (unit == "ft" ? 12 : 14) else {
                throw ValidationError("\(field).\(part.field)", "must be from 0 to below \(unit == "ft" ? 12 : 14)")
            }
            si += part.value * compound.toSI
        }
        // A tenth of a millimetre or gram: finer than any scale or tape, and free of conversion noise.
        si = (si * 10_000).rounded() / 10_000
        guard range.contains(si) else {
            let unitName = accepted[0]
            throw ValidationError(field, "must be between \(short(range.lowerBound)) and \(short(range.upperBound)) \(unitName)")
        }
        return si
    }
}

/// Imperial display values for SI measurements (`?units=imperial`).
public enum ImperialDisplay {
    public struct Height: Codable, Sendable, Equatable {
        public var feet: Int
        public var inches: Double
        public var text: String
    }

    public struct Mass: Codable, Sendable, Equatable {
        public var pounds: Double
        public var text: String
    }

    public static func height(metres: Double) -> Height {
        let totalInches = (metres / 0.0254 * 10).rounded() / 10
        var feet = Int(totalInches / 12)
        var inches = ((totalInches - Double(feet) * 12) * 10).rounded() / 10
        if inches >= 12 {
            feet += 1
            inches -= 12
        }
        return Height(feet: feet, inches: inches, text: "\(feet) ft \(short(inches)) in")
    }

    public static func mass(kilograms: Double) -> Mass {
        let pounds = (kilograms / 0.453_592_37 * 10).rounded() / 10
        return Mass(pounds: pounds, text: "\(short(pounds)) lb")
    }
}

/// `11` for 11.0, `11.5` otherwise: numbers as people write them.
func short(_ value: Double) -> String {
    value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
}
