import Foundation
import HealthwheelCore

/// The unit a result's field is entered and shown in: the pack's unit for a metric company; for an imperial one
/// the unit reports show it in (`ImperialDisplay`: inches, pounds, miles), else the pack's.
enum ResultFieldUnits {
    static func unit(_ field: Exercise.Field, _ units: Theme.Units) -> String {
        guard units == .imperial, let imperial = ImperialDisplay.value(1, of: field.quantity) else { return field.unit }
        return imperial.unit
    }

}
