import Foundation
import HealthwheelCore

/// Who is calling: the trainer a session belongs to, and their company.
public struct Principal: Sendable {
    public var trainer: Trainer
    public var company: Company
}
