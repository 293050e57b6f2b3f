import Foundation
import HealthwheelCore

/// A measurement as a form shows it, in the company's units: a length in cm or in ft + in, a mass in kg or lb,
/// anything else in its stored unit. Shown rounded (a tenth), and read back as the trainer typed it.
struct MeasurementFields {
    let quantity: Quantity
    let units: Theme.Units

    /// One input of the measurement: its name's suffix (`Ft`, `In`, or none) and its unit.
    struct Input {
        var suffix: String
        var unit: String
    }

    var inputs: [Input] {
        switch (quantity, units) {
        case (.length, .metric): [Input(suffix: "", unit: "cm")]
        case (.length, .imperial): [Input(suffix: "Ft", unit: "ft"), Input(suffix: "In", unit: "in")]
        case (.mass, .metric): [Input(suffix: "", unit: "kg")]
        case (.mass, .imperial): [Input(suffix: "", unit: "lb")]
        default: [Input(suffix: "", unit: quantity.siUnit)]
        }
    }

    /// The texts of the inputs for a stored (SI) value.
    func texts(_ stored: Double) -> [String] {
        switch (quantity, units) {
        case (.length, .imperial):
            let inches = stored / 0.0254
            var feet = (inches / 12).rounded(.down)
            var rest = ((inches - feet * 12) * 10).rounded() / 10
            if rest >= 12 {
                feet += 1
                rest -= 12
            }
            return [Self.number(feet, digits: 0), Self.number(rest, digits: 1)]
        default:
            let unit = quantity.units.first { $0.name == inputs[0].unit } ?? quantity.units[0]
            return [Self.number(stored / unit.toSI, digits: unit.name == "cm" || unit.name == "kg" || unit.name == "lb" ? 1 : 2)]
        }
    }

    /// What the trainer typed as a measurement, nil when every input is blank; `field` names a number that does
    /// not read.
    func input(_ texts: [String], field: String) throws(ValidationError) -> MeasurementInput? {
        var numbers: [Double?] = []
        for text in texts {
            let trimmed = text.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: ",", with: ".")
            if trimmed.isEmpty {
                numbers.append(nil)
            } else if let value = Double(trimmed), value.isFinite {
                numbers.append(value)
            } else {
                throw ValidationError(field, "must be a number")
            }
        }
        guard numbers.contains(where: { $0 != nil }) else { return nil }
        let inputs = self.inputs
        if inputs.count == 2 { return MeasurementInput(value: numbers[0] ?? 0, unit: inputs[0].unit, part: ("inches", numbers[1] ?? 0)) }
        return MeasurementInput(value: numbers[0] ?? 0, unit: inputs[0].unit)
    }

    /// `value` with at most `digits` decimals and no trailing zeros: `172.5`, `70`.
    static func number(_ value: Double, digits: Int) -> String {
        var text = String(format: "%.\(digits)f", value)
        if text.contains(".") {
            while text.hasSuffix("0") { text.removeLast() }
            if text.hasSuffix(".") { text.removeLast() }
        }
        return text
    }
}
