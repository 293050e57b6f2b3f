import Foundation
import Synchronization
import TestSupport
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The `healthwheel` executable built next to this test bundle, run as a real child process.
enum Command {
    static var executable: URL { HealthwheelExecutable.url }

    typealias Result = ProcessResult

    /// Runs `healthwheel arguments…` to completion (killed after `timeout` seconds) with only `environment` set.
    static func run(_ arguments: [String], environment: [String: String] = [:], timeout: TimeInterval = 60) throws -> Result {
        try RunningProcess.run(
            executable,
            arguments,
            environment: environment.merging(["HEALTHWHEEL_RESOURCES_DIR": RepositoryRoot.url.path]) { own, _ in own },
            timeout: timeout
        )
    }
}

extension RunningProcess {
    /// `healthwheel arguments…`, finding the checkout's shipped data wherever the test runs from.
    convenience init(_ arguments: [String], environment: [String: String]) {
        self.init(
            executable: Command.executable,
            arguments: arguments,
            environment: environment.merging(["HEALTHWHEEL_RESOURCES_DIR": RepositoryRoot.url.path]) { own, _ in own }
        )
    }
}

/// A small HTTP client for the spawned server.
enum HTTP {
    /// GET with a bearer token; the answer's JSON object (empty when it is none).
    static func get(_ url: String, token: String) async throws -> [String: Any] {
        var request = URLRequest(url: URL(string: url)!)
        request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        let (data, _) = try await URLSession.shared.data(for: request)
        return (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
    }

    static func post(_ url: String, json: [String: String]) async throws -> (Int, [String: Any]) {
        var request = URLRequest(url: URL(string: url)!)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = try JSONSerialization.data(withJSONObject: json)
        let (data, response) = try await URLSession.shared.data(for: request)
        let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, object)
    }
}
