import Foundation

/// A result or an earlier state of one: each part of its `state` reads (and is set) as its own field.
public protocol HoldsScoredState {
    var state: ScoredState { get set }
}

extension HoldsScoredState {
    /// `state.packVersion`: the pack version whose script made the score.
    public var packVersion: Int {
        get { state.packVersion }
        set { state.packVersion = newValue }
    }

    /// `state.values`: every field by key, in stored units (SI).
    public var values: [String: Double] {
        get { state.values }
        set { state.values = newValue }
    }

    /// `state.observations`: the trainer's notes; nil when there are none.
    public var observations: String? {
        get { state.observations }
        set { state.observations = newValue }
    }

    /// `state.subject`: the client as the script saw them; nil when a score could not be made for want of it.
    public var subject: Subject? {
        get { state.subject }
        set { state.subject = newValue }
    }

    /// `state.score`: 0 to 10, one decimal; nil when there is none (`scoreError` says why).
    public var score: Double? {
        get { state.score }
        set { state.score = newValue }
    }

    /// `state.scoreError`: why there is no score; nil when there is one.
    public var scoreError: String? {
        get { state.scoreError }
        set { state.scoreError = newValue }
    }

    /// `state.recordedAt`: when the assessment was measured.
    public var recordedAt: Date {
        get { state.recordedAt }
        set { state.recordedAt = newValue }
    }
}
