import Hummingbird

/// `?units=metric` (default) or `?units=imperial`.
func wantsImperialUnits(_ request: Request) throws -> Bool {
    switch request.uri.parameter("units", blankIsAbsent: false) {
    case nil, "metric": return false
    case "imperial": return true
    default: throw Problem.invalid("units", "must be metric or imperial")
    }
}
