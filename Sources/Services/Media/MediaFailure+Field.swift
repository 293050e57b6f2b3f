import Media

extension MediaFailure {
    /// The failure as a problem with the file the caller sent in `field` (422): refused, too slow to decode, or
    /// fatal to the worker that read it. No worker at all, or a file the server cannot read back, is the
    /// server's problem, not the file's, and stays as it is.
    func invalid(_ field: String) -> any Error {
        switch self {
        case .refused, .timedOut, .workerEnded: ServiceError.invalid(field, reason)
        case .unavailable, .unreadable: self
        }
    }
}
