/// Hashes and checks passwords for the use cases. Slow on purpose, so each door runs it where that does no harm:
/// the API on a thread pool apart from its event loops.
public protocol PasswordHashing: Sendable {
    func hash(_ password: String) async throws -> String
    /// Whether `password` matches `encoded`; with no hash (an unknown account) it must take as long and say no.
    func verify(_ password: String, against encoded: String?) async throws -> Bool
}
