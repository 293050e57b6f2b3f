import Foundation

/// A result or an earlier state of one: each part of its `state` reads (and is set) as its own field.
public protocol HoldsScoredState {
    var state: ScoredState { get set }
}

extension HoldsScoredState {
    public var packVersion: Int {
        get { state.packVersion }
        set { state.packVersion = newValue }
    }

    public var values: [String: Double] {
        get { state.values }
        set { state.values = newValue }
    }

    public var observations: String? {
        get { state.observations }
        set { state.observations = newValue }
    }

    public var subject: Subject? {
        get { state.subject }
        set { state.subject = newValue }
    }

    public var score: Double? {
        get { state.score }
        set { state.score = newValue }
    }

    public var scoreError: String? {
        get { state.scoreError }
        set { state.scoreError = newValue }
    }

    public var recordedAt: Date {
        get { state.recordedAt }
        set { state.recordedAt = newValue }
    }
}
