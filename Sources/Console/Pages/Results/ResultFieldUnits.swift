import Foundation
import HealthwheelCore

/// The unit a result's field is entered and shown in: the pack's unit for a metric company; inches, pounds and
/// miles for an imperial one (lengths, masses, distances), as the reports show them.
enum ResultFieldUnits {
    static func unit(_ field: Exercise.Field, _ units: Theme.Units) -> String {
        guard units == .imperial else { return field.unit }
        switch field.quantity {
        case .length: return "in"
        case .mass: return "lb"
        case .distance: return "mi"
        default: return field.unit
        }
    }

    /// A stored (SI) value in `unit`, as the form shows it.
    static func text(_ stored: Double, _ field: Exercise.Field, unit: String) -> String {
        let toSI = field.quantity.units.first { $0.name == unit }?.toSI ?? 1
        return MeasurementFields.number(stored / toSI, digits: unit == "mi" ? 3 : 2)
    }
}
