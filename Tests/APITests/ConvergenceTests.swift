import Foundation
import HTTPTypes
import HealthwheelCore
import HummingbirdTesting
import TestSupport
import Testing

@testable import API

/// Devices that work offline converge: each keeps a copy made from the changes feed, records clients and results
/// under ids of its own, edits and deletes while offline, and when it is back pushes its queue (every request
/// possibly twice, as a lost answer makes an app send again), in a random order with the other devices, then
/// pulls the feed from where it was. In the end every device holds exactly the server's records, and nothing was
/// written twice.
@Suite struct ConvergenceTests {
    /// A request queued offline.
    struct Operation {
        var method: HTTPRequest.Method
        var path: String
        var json: String?
    }

    /// One device: its copy (`kind id` → the record as JSON text), where it is in the feed, and what it queued.
    final class Device {
        let token: String
        var copy: [String: String] = [:]
        var cursor: String?
        var queue: [Operation] = []

        init(token: String) {
            self.token = token
        }

        func pull(_ client: some TestClientProtocol) async throws {
            for _ in 0..<10_000 {
                let path = "/v1/changes?limit=7" + (cursor.map { "&cursor=\($0)" } ?? "")
                let page = try await client.send(.get, path, token: token)
                #expect(page.status == .ok, "\(page.text)")
                for item in page.object["items"] as? [[String: Any]] ?? [] {
                    let key = "\(item["kind"] as? String ?? "?") \((item["id"] as? String ?? "?").lowercased())"
                    if item["removed"] as? Bool == true {
                        copy[key] = nil
                        // A client's tombstone stands for everything of theirs.
                        if key.hasPrefix("client ") {
                            let client = String(key.dropFirst("client ".count))
                            copy = copy.filter { !$0.value.lowercased().contains("\"clientid\":\"\(client)\"") }
                        }
                    } else {
                        copy[key] = try ChangesFeedTests.canonical(item["record"])
                    }
                }
                cursor = try #require(page.object["cursor"] as? String)
                if page.object["hasMore"] as? Bool != true { return }
            }
        }
    }

    @Test(arguments: [UInt64(20_261_129), 7, 42])
    func devicesWorkingOfflineEndWithTheServersRecords(seed: UInt64) async throws {
        try await withAPI { fixture, client in
            var dice = SplitMix64(seed: seed)
            let company = try await fixture.company()
            let admin = try await client.token(for: try await fixture.trainer(in: company, role: .admin))
            var screened: [String] = []
            for _ in 0..<3 { screened.append(try await client.screenedClient(token: admin).lowercased()) }
            var devices: [Device] = []
            for index in 0..<4 {
                let account = try await fixture.trainer(in: company, role: index == 0 ? .admin : .trainer, name: "Device \(index)")
                let device = Device(token: try await client.token(for: account))
                try await device.pull(client)
                devices.append(device)
            }
            var created = (clients: Set<String>(), results: Set<String>())

            // Offline: each device queues creates under its own ids, edits and deletes, and applies them to its copy.
            for device in devices {
                var mine: [String] = []
                var myResults: [(client: String, id: String)] = []
                for step in 0..<12 {
                    switch Int.random(in: 0..<5, using: &dice) {
                    case 0:
                        let id = UUID().uuidString.lowercased()
                        mine.append(id)
                        created.clients.insert(id)
                        device.queue.append(
                            .init(
                                method: .post,
                                path: "/v1/clients",
                                json: #"{"id": "\#(id)", "givenName": "Offline \#(step)", "familyName": "Device"}"#
                            )
                        )
                    case 1, 2:
                        let owner = screened.randomElement(using: &dice)!
                        let id = UUID().uuidString.lowercased()
                        myResults.append((owner, id))
                        created.results.insert(id)
                        let bpm = Int.random(in: 45...90, using: &dice)
                        device.queue.append(
                            .init(
                                method: .post,
                                path: "/v1/clients/\(owner)/results",
                                json: #"{"id": "\#(id)", "exerciseId": "resting-heart-rate", "values": {"heartRate": \#(bpm)}}"#
                            )
                        )
                    case 3:
                        let target = (mine + screened).randomElement(using: &dice)!
                        device.queue.append(.init(method: .patch, path: "/v1/clients/\(target)", json: #"{"goal": "goal \#(step) of a device"}"#))
                    default:
                        guard let result = myResults.popLast() else { continue }
                        device.queue.append(.init(method: .delete, path: "/v1/results/\(result.id)", json: nil))
                    }
                }
            }

            // Back online, in a random order: push (each request maybe twice), then pull.
            var deleted = Set<String>()
            for device in devices.shuffled(using: &dice) {
                for operation in device.queue {
                    for _ in 0..<(Bool.random(using: &dice) ? 2 : 1) {
                        let answer = try await client.send(operation.method, operation.path, token: device.token, json: operation.json)
                        let status = answer.status.code
                        // A delete sent again finds the result gone (404); anything else is a refusal the run did not expect.
                        let expected = status < 300 || (operation.method == .delete && status == 404)
                        #expect(expected, "\(operation.method) \(operation.path): \(answer.text)")
                        if operation.method == .delete { deleted.insert(String(operation.path.split(separator: "/").last!)) }
                    }
                }
                try await device.pull(client)
            }
            for device in devices { try await device.pull(client) }

            // The server's records, read as the lists and GETs answer them.
            var server: [String: String] = [:]
            let clients = try await client.send(.get, "/v1/clients?limit=200", token: admin).object["items"] as? [[String: Any]] ?? []
            for listed in clients {
                let id = try #require((listed["id"] as? String)?.lowercased())
                server["client \(id)"] = try ChangesFeedTests.canonical(try await client.send(.get, "/v1/clients/\(id)", token: admin).object)
                let results =
                    try await client.send(.get, "/v1/clients/\(id)/results?limit=200", token: admin).object["items"] as? [[String: Any]] ?? []
                for result in results {
                    server["result \(try #require((result["id"] as? String)?.lowercased()))"] = try ChangesFeedTests.canonical(result)
                }
            }
            // Nothing written twice: every app-made client once, every app-made result once unless deleted.
            #expect(Set(server.keys.filter { $0.hasPrefix("client ") }) == Set((created.clients.union(screened)).map { "client \($0)" }))
            let liveResults = created.results.subtracting(deleted)
            #expect(Set(server.keys.filter { $0.hasPrefix("result ") }) == Set(liveResults.map { "result \($0)" }), "only the devices' results, once")
            for (index, device) in devices.enumerated() {
                let held = device.copy.filter { $0.key.hasPrefix("client ") || $0.key.hasPrefix("result ") }
                #expect(Set(held.keys) == Set(server.keys), "device \(index) holds the server's records")
                for (key, record) in server where held[key] != record {
                    Issue.record("device \(index) holds \(key) as \(held[key] ?? "nothing"), the server as \(record)")
                }
            }
        }
    }
}
