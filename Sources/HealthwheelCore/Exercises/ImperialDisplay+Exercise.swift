extension ImperialDisplay {
    /// Each of `values` an imperial reader would convert, by the quantity of its field in `exercise`.
    public static func values(_ values: [String: Double], of exercise: Exercise) -> [String: Value] {
        var display: [String: Value] = [:]
        for (key, stored) in values {
            if let quantity = exercise.field(key)?.quantity, let value = ImperialDisplay.value(stored, of: quantity) { display[key] = value }
        }
        return display
    }
}
