import Media

extension MediaFailure {
    /// The failure as a problem with the file the caller sent in `field` (422): refused, too slow to decode, or
    /// fatal to the worker that read it. No worker at all is the server's problem, not the file's, and stays as it is.
    func invalid(_ field: String) -> any Error {
        self == .unavailable ? self : ServiceError.invalid(field, reason)
    }
}
