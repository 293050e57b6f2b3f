import Foundation
import Store
import StoreContract
import Synchronization
import TestSupport
import Testing

@testable import Credentials

#if canImport(Glibc)
import Glibc
#endif

@Suite struct CLITests {
    @Test func serveOnAnEmptyFolderPrintsADemoLoginThatWorks() async throws {
        let folder = TemporaryDirectory()
        let data = folder.dataDirectory
        let server = RunningProcess(["serve", "--data-dir", data.url.path, "--port", "0"], environment: [:])
        try server.start()
        defer { if server.isRunning { server.stop() } }

        let port = try #require(try server.waitFor(#"listening on 127\.0\.0\.1:(\d+)"#), "server output: \(server.outputText)")
        let password = try #require(try server.waitFor(#"password: (\S+)"#))
        let email = try #require(try server.waitFor(#"email:\s+(\S+)"#))
        let (status, body) = try await HTTP.post("http://127.0.0.1:\(port)/v1/auth/login", json: ["email": email, "password": password])
        #expect(status == 200)
        #expect(body["token"] is String)

        // The database is encrypted, and the login is printed but never logged.
        let header = try FileHandle(forReadingFrom: URL(fileURLWithPath: data.databasePath)).read(upToCount: 16) ?? Data()
        #expect(header.count == 16 && header != Data("SQLite format 3\0".utf8))
        #expect(server.outputText.components(separatedBy: password).count == 2)

        // While it runs: a backup works and a rekey is refused.
        let backupFolder = folder.url.appendingPathComponent("backup").path
        let backup = try Command.run(["backup", "--data-dir", data.url.path, "--to", backupFolder])
        #expect(backup.status == 0, "\(backup.errors)")
        let key = try #require(DatabaseKey(hex: try String(contentsOfFile: data.keyPath, encoding: .utf8)))
        let copy = try SQLiteConnection(path: DataDirectory(path: backupFolder).databasePath, key: key)
        let trainers: Int = try copy.scalar("SELECT count(*) FROM trainers")
        #expect(trainers == 1)
        // Three sample clients, screened, with a year of monthly results (one with six months).
        #expect(try copy.scalar("SELECT count(*) FROM clients") as Int == 3)
        #expect(try copy.scalar("SELECT count(*) FROM screenings WHERE status = 'completed'") as Int == 3)
        #expect(try copy.scalar("SELECT count(DISTINCT strftime('%Y-%m', recorded_at / 1000, 'unixepoch')) FROM results") as Int >= 12)

        // The backup restores into a new folder with the key.
        let restoredFolder = folder.url.appendingPathComponent("restored").path
        let restore = try Command.run(
            ["restore", "--from", backupFolder, "--data-dir", restoredFolder],
            environment: ["HEALTHWHEEL_DB_KEY": key.hex]
        )
        #expect(restore.status == 0, "\(restore.errors)")
        let restoredCopy = try SQLiteConnection(path: DataDirectory(path: restoredFolder).databasePath, key: key)
        #expect(try restoredCopy.scalar("SELECT count(*) FROM clients") as Int == 3)

        let rekey = try Command.run(["rekey", "--data-dir", data.url.path])
        #expect(rekey.status != 0)
        #expect(rekey.errors.contains("another healthwheel process"))
        server.stop()
        let ended = server.finish()
        #expect(ended.status == 0 || ended.status == 15)

        // A restart keeps the data and prints no new login.
        let restart = RunningProcess(["serve", "--data-dir", data.url.path, "--port", "0"], environment: [:])
        try restart.start()
        defer { if restart.isRunning { restart.stop() } }
        #expect(try restart.waitFor(#"listening on"#) != nil)
        #expect(!restart.outputText.contains("password:"))
    }

    @Test func noDemoStartsEmpty() throws {
        for (arguments, environment) in [(["--no-demo"], [String: String]()), ([], ["HEALTHWHEEL_NO_DEMO": "1"])] {
            let folder = TemporaryDirectory()
            let data = folder.dataDirectory
            let server = RunningProcess(["serve", "--data-dir", data.url.path, "--port", "0"] + arguments, environment: environment)
            try server.start()
            defer { if server.isRunning { server.stop() } }
            #expect(try server.waitFor(#"listening on"#) != nil)
            #expect(!server.outputText.contains("password:"))
            server.stop()
            _ = server.finish()
            let key = try #require(DatabaseKey(hex: try String(contentsOfFile: data.keyPath, encoding: .utf8)))
            #expect(try SQLiteConnection(path: data.databasePath, key: key).scalar("SELECT count(*) FROM companies") as Int == 0)
        }
    }

    @Test func aWrongKeyStopsStartUpAndChangesNothing() throws {
        let folder = TemporaryDirectory()
        let data = folder.dataDirectory
        #expect(try Command.run(["migrate", "--data-dir", data.url.path]).status == 0)
        #expect(try Command.run(["company", "create", "--data-dir", data.url.path, "--name", "Acme"]).status == 0)
        let before = try snapshot(data)

        let wrongKey = String(repeating: "ab", count: 32)
        let started = Date()
        let result = try Command.run(
            ["serve", "--data-dir", data.url.path, "--port", "0"],
            environment: ["HEALTHWHEEL_DB_KEY": wrongKey],
            timeout: 30
        )
        #expect(result.status != 0)
        #expect(Date().timeIntervalSince(started) < 30, "it must stop by itself, not be killed")
        #expect(result.errors.contains("the database key does not match"))
        #expect(!result.errors.contains(wrongKey) && !result.output.contains(wrongKey))
        #expect(try snapshot(data).filter { $0.key != "healthwheel.lock" } == before.filter { $0.key != "healthwheel.lock" })
    }

    @Test func companyAndTrainerCreateMakeALoginThatVerifies() async throws {
        let folder = TemporaryDirectory()
        let dir = folder.dataDirectory.url.path
        let company = try Command.run(["company", "create", "--data-dir", dir, "--name", "Acme Gym"])
        #expect(company.status == 0, "\(company.errors)")
        let companyId = company.output.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(UUID(uuidString: companyId) != nil)

        let trainer = try Command.run(
            ["trainer", "create", "--data-dir", dir, "--company", companyId, "--email", "Coach@Acme.example", "--name", "Coach", "--role", "admin"],
            environment: ["HEALTHWHEEL_PASSWORD": "from the environment"]
        )
        #expect(trainer.status == 0, "\(trainer.errors)")
        let trainerId = try #require(UUID(uuidString: trainer.output.trimmingCharacters(in: .whitespacesAndNewlines)))

        let store = Repositories(database: try openTestDatabase(folder))
        let credentials = try #require(try await store.trainers.credentials(email: "coach@acme.example", in: nil, limit: 16).first)
        #expect(credentials.trainer.id == trainerId)
        #expect(credentials.trainer.role == .admin)
        #expect(PasswordHasher().verify("from the environment", against: credentials.passwordHash))
    }

    @Test func trainerCreateRejectsBadInputWithoutWriting() async throws {
        let folder = TemporaryDirectory()
        let dir = folder.dataDirectory.url.path
        let companyId = try Command.run(["company", "create", "--data-dir", dir, "--name", "Acme"]).output
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let base = ["trainer", "create", "--data-dir", dir, "--company", companyId, "--name", "Coach"]

        let badEmail = try Command.run(base + ["--email", "nope", "--role", "trainer", "--password", "long enough password"])
        #expect(badEmail.status != 0)
        #expect(badEmail.errors.contains("--email"))
        let badRole = try Command.run(base + ["--email", "a@b.example", "--role", "owner", "--password", "long enough password"])
        #expect(badRole.status != 0)
        let noPassword = try Command.run(base + ["--email", "a@b.example", "--role", "trainer"])
        #expect(noPassword.status != 0)
        #expect(noPassword.errors.contains("HEALTHWHEEL_PASSWORD"))
        let unknownCompany = try Command.run(
            ["trainer", "create", "--data-dir", dir, "--company", UUID().uuidString, "--name", "C", "--email", "a@b.example", "--role", "trainer"],
            environment: ["HEALTHWHEEL_PASSWORD": "long enough password"]
        )
        #expect(unknownCompany.status != 0)

        let database = try openTestDatabase(folder)
        let count: Int = try database.readBlocking { try await $0.scalar("SELECT count(*) FROM trainers") }
        #expect(count == 0)
    }

    @Test func rekeyReplacesTheKeyAndTheOldKeyNoLongerOpens() throws {
        let folder = TemporaryDirectory()
        let data = folder.dataDirectory
        #expect(try Command.run(["company", "create", "--data-dir", data.url.path, "--name", "Acme"]).status == 0)
        let oldKey = try String(contentsOfFile: data.keyPath, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)

        let rekey = try Command.run(["rekey", "--data-dir", data.url.path])
        #expect(rekey.status == 0, "\(rekey.errors)")
        let newKey = try String(contentsOfFile: data.keyPath, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(newKey != oldKey && newKey.count == 64)
        #expect(!rekey.output.contains(newKey))
        let mode = try FileManager.default.attributesOfItem(atPath: data.keyPath)[.posixPermissions] as? Int
        #expect(mode == 0o600)

        let withOldKey = try Command.run(["migrate", "--data-dir", data.url.path], environment: ["HEALTHWHEEL_DB_KEY": oldKey])
        #expect(withOldKey.status != 0)
        #expect(withOldKey.errors.contains("does not match"))
        let database = try openTestDatabase(folder)
        let companies: Int = try database.readBlocking { try await $0.scalar("SELECT count(*) FROM companies") }
        #expect(companies == 1)
    }

    @Test func rekeyWithAnEnvironmentKeyPrintsTheNewKeyOnce() throws {
        let folder = TemporaryDirectory()
        let data = folder.dataDirectory
        let oldKey = String(repeating: "5a", count: 32)
        let env = ["HEALTHWHEEL_DB_KEY": oldKey]
        #expect(try Command.run(["company", "create", "--data-dir", data.url.path, "--name", "Acme"], environment: env).status == 0)
        #expect(!FileManager.default.fileExists(atPath: data.keyPath))

        let rekey = try Command.run(["rekey", "--data-dir", data.url.path], environment: env)
        #expect(rekey.status == 0, "\(rekey.errors)")
        let newKey = try #require(rekey.output.split(separator: "\n").last.map(String.init))
        #expect(DatabaseKey(hex: newKey) != nil && newKey != oldKey)
        #expect(try Command.run(["migrate", "--data-dir", data.url.path], environment: env).status != 0)
        #expect(try Command.run(["migrate", "--data-dir", data.url.path], environment: ["HEALTHWHEEL_DB_KEY": newKey]).status == 0)
    }

    @Test func exercisesImportReportsEachFileAndRefusesABrokenPackWhole() throws {
        let folder = TemporaryDirectory()
        let data = folder.dataDirectory.url.path
        let first = try Command.run(["exercises", "import", "--data-dir", data, RepositoryRoot.url.appendingPathComponent("Exercises").path])
        #expect(first.status == 0, "\(first.errors)")
        let shipped = try FileManager.default.contentsOfDirectory(atPath: RepositoryRoot.url.appendingPathComponent("Exercises").path)
            .filter { $0.hasSuffix(".json") }.sorted()
        #expect(first.output.split(separator: "\n").map(String.init) == shipped.map { "\($0): imported" })
        let again = try Command.run([
            "exercises", "import", "--data-dir", data, RepositoryRoot.url.appendingPathComponent("Exercises/strength.json").path,
        ])
        #expect(again.output.contains("strength.json: unchanged"))

        let broken = folder.url.appendingPathComponent("balance.json")
        let pack =
            ##"{"id":"balance","name":"Balance","colour":"#123456","version":1,"exercises":[{"id":"stand","name":"Stand","description":"d","fields":[{"key":"time","label":"Time","quantity":"duration","unit":"s"}],"primaryField":"time","conversionAlgorithm":"return 5","steps":[],"source":"s","examples":[{"client":{"sex":"male","age":30},"values":{"time":30},"score":7}]}]}"##
        try Data(pack.utf8).write(to: broken)
        let refused = try Command.run(["exercises", "import", "--data-dir", data, broken.path])
        #expect(refused.status != 0)
        #expect(refused.errors.contains("balance.json: exercises[0].examples[0].score: expected 7.0, the script gave 5.0"), "\(refused.errors)")
        let fixed = pack.replacingOccurrences(of: #""score":7"#, with: #""score":5"#)
        try Data(fixed.utf8).write(to: broken)
        let accepted = try Command.run(["exercises", "import", "--data-dir", data, broken.path])
        #expect(accepted.output.contains("balance.json: imported"), "\(accepted.errors)")
    }

    /// A folder of shipped data for `serve` (`HEALTHWHEEL_RESOURCES_DIR`): `creating` empty, for the test to fill,
    /// and the checkout's own folders `linking`.
    static func resources(in folder: TemporaryDirectory, creating: String, linking names: [String]) throws -> URL {
        let resources = folder.url.appendingPathComponent("resources")
        try FileManager.default.createDirectory(at: resources.appendingPathComponent(creating), withIntermediateDirectories: true)
        for name in names {
            try FileManager.default.createSymbolicLink(
                at: resources.appendingPathComponent(name),
                withDestinationURL: RepositoryRoot.url.appendingPathComponent(name)
            )
        }
        return resources
    }

    @Test func aBrokenQuestionnaireStopsStartUpNamingTheFileAndPlace() throws {
        let folder = TemporaryDirectory()
        let resources = try Self.resources(in: folder, creating: "Questionnaires", linking: ["Migrations"])
        let broken = #"{"id":"x","version":1,"title":"X","sections":[{"key":"a","title":"A","fields":[{"key":"q","title":"Q"}]}],"flags":[]}"#
        try Data(broken.utf8).write(to: resources.appendingPathComponent("Questionnaires/intake.json"))

        let result = try Command.run(
            ["serve", "--data-dir", folder.dataDirectory.url.path, "--port", "0"],
            environment: ["HEALTHWHEEL_RESOURCES_DIR": resources.path],
            timeout: 30
        )
        #expect(result.status != 0)
        #expect(result.errors.contains("intake.json") && result.errors.contains("sections[0].fields[0].type"), "\(result.errors)")
    }

    @Test func aBrokenThemeStopsStartUpNamingTheFileAndKey() throws {
        let folder = TemporaryDirectory()
        let resources = try Self.resources(in: folder, creating: "Themes", linking: ["Migrations", "Questionnaires"])
        let shipped = try String(contentsOf: RepositoryRoot.url.appendingPathComponent("Themes/default.json"), encoding: .utf8)
        let broken = shipped.replacingOccurrences(of: ##""flag": "#d32f2f""##, with: ##""flag": "#d32f2""##)
        #expect(broken != shipped)
        try Data(broken.utf8).write(to: resources.appendingPathComponent("Themes/default.json"))

        let result = try Command.run(
            ["serve", "--data-dir", folder.dataDirectory.url.path, "--port", "0"],
            environment: ["HEALTHWHEEL_RESOURCES_DIR": resources.path],
            timeout: 30
        )
        #expect(result.status != 0)
        #expect(result.errors.contains("default.json") && result.errors.contains("colours.flag"), "\(result.errors)")
        // Nothing was opened: the data folder was never created.
        #expect(!FileManager.default.fileExists(atPath: folder.dataDirectory.url.appendingPathComponent("healthwheel.db").path))
    }

    @Test func aFolderWithOneConflictingPackImportsNoneOfIt() throws {
        let folder = TemporaryDirectory()
        let data = folder.dataDirectory.url.path
        let packs = folder.url.appendingPathComponent("packs")
        try FileManager.default.createDirectory(at: packs, withIntermediateDirectories: true)
        let strength = packs.appendingPathComponent("strength.json")
        try FileManager.default.copyItem(at: RepositoryRoot.url.appendingPathComponent("Exercises/strength.json"), to: strength)
        try FileManager.default.copyItem(
            at: RepositoryRoot.url.appendingPathComponent("Exercises/images"),
            to: packs.appendingPathComponent("images")
        )
        #expect(try Command.run(["exercises", "import", "--data-dir", data, strength.path]).status == 0)

        // strength.json changed without a new version, next to a new pack sorted before it.
        let changed = try String(contentsOf: strength, encoding: .utf8).replacingOccurrences(of: #""name": "Strength""#, with: #""name": "Power""#)
        #expect(changed.contains("Power"))
        try Data(changed.utf8).write(to: strength)
        try FileManager.default.copyItem(
            at: RepositoryRoot.url.appendingPathComponent("Exercises/flexibility.json"),
            to: packs.appendingPathComponent("a-flexibility.json")
        )
        let refused = try Command.run(["exercises", "import", "--data-dir", data, packs.path])
        #expect(refused.status != 0)
        #expect(refused.errors.contains("strength.json: version"), "\(refused.errors)")
        let again = try Command.run(["exercises", "import", "--data-dir", data, packs.appendingPathComponent("a-flexibility.json").path])
        #expect(again.output.contains("a-flexibility.json: imported"), "nothing of the refused folder was stored: \(again.output)")
    }

    @Test func aBrokenShippedPackStopsStartUpBeforeTheDatabaseIsOpened() throws {
        let folder = TemporaryDirectory()
        let resources = try Self.resources(in: folder, creating: "Exercises", linking: ["Migrations", "Questionnaires", "Themes"])
        let exercises = resources.appendingPathComponent("Exercises")
        // A sound pack sorted before the broken one: it must not be imported either.
        try FileManager.default.copyItem(
            at: RepositoryRoot.url.appendingPathComponent("Exercises/cardiovascular.json"),
            to: exercises.appendingPathComponent("a-cardiovascular.json")
        )
        try FileManager.default.copyItem(
            at: RepositoryRoot.url.appendingPathComponent("Exercises/images"),
            to: exercises.appendingPathComponent("images")
        )
        let broken = ##"{"id":"balance","name":"Balance","colour":"#12345","version":1,"exercises":[]}"##
        try Data(broken.utf8).write(to: exercises.appendingPathComponent("b-balance.json"))

        let result = try Command.run(
            ["serve", "--data-dir", folder.dataDirectory.url.path, "--port", "0"],
            environment: ["HEALTHWHEEL_RESOURCES_DIR": resources.path],
            timeout: 30
        )
        #expect(result.status != 0)
        #expect(result.errors.contains("b-balance.json: colour"), "\(result.errors)")
        #expect(!FileManager.default.fileExists(atPath: folder.dataDirectory.url.appendingPathComponent("healthwheel.db").path))
    }
}

/// A stop takes at most the stop deadline, whatever is in flight: here an upload that trickles in at the rate the
/// server accepts (20 KB a second), which a graceful stop would wait for until the client gives up.
@Suite struct StopDeadlineTests {
    @Test func aStopEndsTheServerWithinItsDeadlineWhileAnUploadTricklesIn() async throws {
        let folder = TemporaryDirectory()
        let server = RunningProcess(["serve", "--data-dir", folder.dataDirectory.url.path, "--port", "0"], environment: [:])
        try server.start()
        defer { if server.isRunning { kill(server.processIdentifier, SIGKILL) } }
        let port = try #require(try server.waitFor(#"listening on 127\.0\.0\.1:(\d+)"#), "server output: \(server.outputText)")
        let password = try #require(try server.waitFor(#"password: (\S+)"#))
        let email = try #require(try server.waitFor(#"email:\s+(\S+)"#))
        let base = "http://127.0.0.1:\(port)"
        let token = try #require(try await HTTP.post("\(base)/v1/auth/login", json: ["email": email, "password": password]).1["token"] as? String)
        let clients = try await HTTP.get("\(base)/v1/clients?limit=1", token: token)
        let client = try #require((clients["items"] as? [[String: Any]])?.first?["id"] as? String)
        let results = try await HTTP.get("\(base)/v1/clients/\(client)/results?limit=1", token: token)
        let result = try #require((results["items"] as? [[String: Any]])?.first?["id"] as? String)

        let upload = try TricklingUpload(
            port: try #require(Int(port)),
            head: "POST /v1/results/\(result)/media HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer \(token)\r\n"
                + "Content-Type: video/mp4\r\nContent-Length: \(60 << 20)\r\n\r\n",
            start: [0, 0, 0, 0x18] + Array("ftypisom".utf8) + [0, 0, 0, 0] + Array("isommp41".utf8) + [0, 0x10, 0, 0] + Array("mdat".utf8)
        )
        defer { upload.close() }
        // The upload is under way once a few pieces of its body went out.
        while upload.piecesSent < 3 { try await Task.sleep(for: .milliseconds(100)) }
        let workers = Self.children(of: server.processIdentifier)
        #expect(workers.count >= 2, "scoring and media workers run beside the server")
        server.stop()
        // The stop deadline is 8 s; the test waits up to 40 s for the exit, while the upload would trickle on for 60.
        for _ in 0..<400 where server.isRunning { try await Task.sleep(for: .milliseconds(100)) }
        #expect(!server.isRunning, "the server was still running 40 s after SIGTERM")
        #expect(upload.piecesSent < 55, "the upload was not cut off")
        #expect(server.finish().output.contains("still stopping 8 s after the stop signal: exiting now"))
        // No worker outlives the server (each dies with it, or ends when its socket closes).
        for _ in 0..<100 where workers.contains(where: Self.isRunning) { try await Task.sleep(for: .milliseconds(100)) }
        #expect(!workers.contains(where: Self.isRunning), "a worker outlived the server")
    }

    /// The processes whose parent is `parent` (from /proc).
    static func children(of parent: pid_t) -> [pid_t] {
        let ids = (try? FileManager.default.contentsOfDirectory(atPath: "/proc"))?.compactMap { pid_t($0) } ?? []
        return ids.filter { id in
            guard let stat = try? String(contentsOfFile: "/proc/\(id)/stat", encoding: .utf8),
                let end = stat.range(of: ") ", options: .backwards)
            else { return false }
            return stat[end.upperBound...].split(separator: " ").dropFirst().first.flatMap { pid_t($0) } == parent
        }
    }

    /// Whether `id` is a process that has not ended (a zombie has ended).
    static func isRunning(_ id: pid_t) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(id)/stat", encoding: .utf8) else { return false }
        return !stat.contains(") Z ")
    }
}

/// An upload whose head goes out at once and whose body then trickles in, 20 KB a second, for at most a minute.
final class TricklingUpload: Sendable {
    private let descriptor: Int32
    private let sent = Tally()

    init(port: Int, head: String, start: [UInt8]) throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.descriptor = descriptor
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw POSIXError(.ECONNREFUSED) }
        let first = Array(head.utf8) + start
        _ = first.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        let sent = self.sent
        Thread.detachNewThread {
            let piece = [UInt8](repeating: 0x78, count: 20_000)
            defer { Glibc.close(descriptor) }
            for _ in 0..<60 {
                let count = piece.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                guard count > 0 else { return }
                sent.add()
                Thread.sleep(forTimeInterval: 1)
            }
        }
    }

    /// Pieces of the body sent so far.
    var piecesSent: Int { sent.count }

    /// Ends the connection; the sending thread then closes its descriptor.
    func close() {
        shutdown(descriptor, Int32(SHUT_RDWR))
    }
}
