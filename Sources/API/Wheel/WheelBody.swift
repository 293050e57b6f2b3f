import Foundation
import HealthwheelCore

/// The wheel as the API shows it; the slices come already written, usually from the cache.
struct WheelBody: Encodable {
    var target = HealthWheel.target
    var flagBelow: Double
    var generatedAt: Date
    var slices: PreencodedJSON
}
