import Foundation
import HealthwheelCore
import Synchronization

/// Numbers, dates and measurements as a reader of one language and system of units writes them: in reports,
/// and in the web console, so a measurement reads the same in both.
public struct ReportFormat: Sendable {
    let strings: ReportStrings
    let units: Theme.Units
    private let locale: Locale
    /// The locale's decimal separator, for numbers written without a formatter (`number(_:places:)`).
    private let decimalSeparator: String

    public init(strings: ReportStrings, units: Theme.Units) {
        self.strings = strings
        self.units = units
        locale = Locale(identifier: strings.text("locale"))
        decimalSeparator = locale.decimalSeparator ?? "."
    }

    /// "14 Mar 2027" / "14 mar 2027", in UTC like every date the API gives.
    public func date(_ date: Date) -> String {
        var style = Date.FormatStyle(date: .abbreviated, time: .omitted, locale: locale)
        style.timeZone = TimeZone(identifier: "UTC")!
        return date.formatted(style)
    }

    /// A score to one decimal, without a trailing ",0": "7", "6.5" / "6,5".
    public func score(_ value: Double) -> String {
        number(value, places: 1)
    }

    /// `value` rounded to at most `places` decimals, without trailing zeros or grouping, in the locale's decimal
    /// separator: what the locale's number format writes, built by hand (a page writes hundreds, and the formatter
    /// costs microseconds each). Values too large for that fall back to the formatter.
    public func number(_ value: Double, places: Int) -> String {
        let scale = [1.0, 10, 100, 1_000][min(max(places, 0), 3)]
        // Half to even, as the formatter rounds.
        let scaled = (value * scale).rounded(.toNearestOrEven)
        guard scaled.magnitude < 1e15 else {
            return value.formatted(.number.precision(.fractionLength(0...places)).locale(locale).grouping(.never))
        }
        let units = Int(scaled.magnitude)
        let whole = units / Int(scale)
        var fraction = String(units % Int(scale))
        if scale > 1 {
            fraction = String(repeating: "0", count: String(Int(scale)).count - 1 - fraction.count) + fraction
            while fraction.hasSuffix("0") { fraction.removeLast() }
        } else {
            fraction = ""
        }
        // The formatter keeps the sign of a negative value that rounds to zero: "-0".
        let sign = value.sign == .minus ? "-" : ""
        return sign + String(whole) + (fraction.isEmpty ? "" : decimalSeparator + fraction)
    }

    /// Each value of a result in the reader's units, in the order the exercise lists its fields, each with its unit:
    /// "Systolic 120 mmHg, Diastolic 80 mmHg", "14 stands".
    public func values(_ values: [String: Double], of exercise: Exercise) -> String {
        exercise.fields.compactMap { field -> String? in
            guard let stored = values[field.key] else { return nil }
            let (amount, unit) = displayed(stored, field)
            let label = exercise.fields.count > 1 ? "\(field.label) " : ""
            // A count's unit says nothing ("14"): the pack's label for it does ("14 stands").
            let unitText = field.unitLabel ?? strings.text("units.\(unit)")
            return label + number(amount, places: 1) + (unitText.isEmpty ? "" : " \(unitText)")
        }.joined(separator: ", ")
    }

    /// A stored (SI) value in the unit a reader of `units` reads it in.
    private func displayed(_ stored: Double, _ field: Exercise.Field) -> (Double, String) {
        if units == .imperial, let imperial = ImperialDisplay.value(stored, of: field.quantity) {
            return (imperial.value, imperial.unit)
        }
        let unit = field.quantity.units.first { $0.name == field.unit } ?? field.quantity.units[0]
        let name = unit.name == "%" ? "percent" : unit.name
        return (stored / unit.toSI, name)
    }
}

extension Theme.Colours {
    /// The colour a change is written in: the target's when it rose, the flag's when it fell, muted when it held.
    func change(_ direction: Int) -> HexColour {
        direction > 0 ? target : direction < 0 ? flag : muted
    }
}
