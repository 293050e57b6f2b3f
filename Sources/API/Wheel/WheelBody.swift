import Foundation
import HealthwheelCore

/// The wheel as the API shows it; the slices come already written, usually from the cache.
struct WheelBody: JSONObjectBody {
    var target = HealthWheel.target
    var flagBelow: Double
    var generatedAt: Date
    var slices: PreencodedJSON

    var jsonFields: [(key: String, value: JSONField)] {
        [("target", .double(target)), ("flagBelow", .double(flagBelow)), ("generatedAt", .date(generatedAt)), ("slices", .encodable(slices))]
    }
}
