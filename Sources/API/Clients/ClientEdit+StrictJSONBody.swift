import HealthwheelCore

extension ClientEdit: StrictJSONBody {}
