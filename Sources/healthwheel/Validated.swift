import ArgumentParser
import HealthwheelCore
import Services

/// Runs a domain check and turns its failure into a command-line usage error.
@discardableResult
func validated<T>(_ check: () throws(HealthwheelCore.ValidationError) -> T) throws -> T {
    do {
        return try check()
    } catch {
        throw ValidationError(error.errors.map { "--\($0.field) \($0.message)" }.joined(separator: "; "))
    }
}

/// Runs a use case and turns its refusal (bad input, a missing company, an email taken) into a command-line
/// error naming the options, as the API names fields.
@discardableResult
func refusalsAsUsageErrors<T>(_ useCase: () async throws -> T) async throws -> T {
    do {
        return try await useCase()
    } catch let error as HealthwheelCore.ValidationError {
        throw ValidationError(error.errors.map { "--\($0.field) \($0.message)" }.joined(separator: "; "))
    } catch let error as ServiceError {
        switch error {
        case .notFound(let thing): throw ValidationError("no \(thing) has that id")
        case .invalid(let errors), .unknownReference(let errors):
            throw ValidationError(errors.map { "--\($0.field) \($0.message)" }.joined(separator: "; "))
        case .forbidden(_, let detail, let errors), .conflict(_, let detail, let errors), .gone(_, let detail, let errors):
            throw ValidationError(errors.isEmpty ? detail : errors.map { "--\($0.field) \($0.message)" }.joined(separator: "; "))
        case .limited(_, let detail), .unsupportedType(let detail), .tooLarge(_, let detail), .storageFull(let detail), .absent(_, let detail):
            throw ValidationError(detail)
        }
    }
}
