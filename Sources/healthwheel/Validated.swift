import ArgumentParser
import HealthwheelCore

/// Runs a domain check and turns its failure into a command-line usage error.
@discardableResult
func validated<T>(_ check: () throws(HealthwheelCore.ValidationError) -> T) throws -> T {
    do {
        return try check()
    } catch {
        throw ValidationError(error.errors.map { "--\($0.field) \($0.message)" }.joined(separator: "; "))
    }
}
