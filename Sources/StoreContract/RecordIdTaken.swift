/// Thrown by a create given an id that a stored record has already (an id an app chose, sent again for another
/// record, or another company's): nothing was stored.
public struct RecordIdTaken: Error, Sendable, Equatable {
    public init() {}
}
