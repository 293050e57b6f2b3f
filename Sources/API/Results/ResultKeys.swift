import HealthwheelCore

/// The keys of a result and of its revisions: one list, so the fields they share are written alike.
enum ResultKeys: String, CodingKey {
    case id, clientId, exerciseId, categoryId, trainerId, packVersion, values, display, observations, subject, score, scoreError
    case recordedAt, createdAt, updatedAt, revision, amended, replacedAt, replacedBy, reason
}

extension KeyedEncodingContainer<ResultKeys> {
    /// What a script was given and what it gave: the part a result shares with each earlier state of it.
    /// `display` is there only when asked for (`?units=imperial`).
    mutating func encodeScoredState(_ state: ScoredState, display: [String: ImperialDisplay.Value]?) throws {
        try encode(state.packVersion, forKey: .packVersion)
        try encode(ByKey(state.values), forKey: .values)
        if let display { try encode(ByKey(display), forKey: .display) }
        try encode(state.observations, forKey: .observations)
        try encode(state.subject, forKey: .subject)
        try encode(state.score, forKey: .score)
        try encode(state.scoreError, forKey: .scoreError)
        try encode(state.recordedAt, forKey: .recordedAt)
    }
}
