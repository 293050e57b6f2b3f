import Foundation

/// A ZIP archive read back by Python's `zipfile` (`Tests/Zip/read_zip.py`), as a recipient of an export reads it:
/// every entry's CRC checked, each entry described, and everything extracted into a folder of its own.
public struct ZipReader {
    /// One entry as Python read it.
    public struct Entry: Decodable, Sendable {
        public var name: String
        public var size: Int
        /// 0 stored, 8 deflated.
        public var method: Int
        public var sha256: String
        public var zip64: Bool
    }

    public let entries: [Entry]
    /// The extracted files (kept while this value lives).
    public let folder = TemporaryDirectory()

    /// Throws with Python's output when the archive does not read.
    public init(_ archive: [UInt8]) throws {
        let file = folder.url.appendingPathComponent("archive.zip")
        try Data(archive).write(to: file)
        let process = RunningProcess(
            executable: URL(fileURLWithPath: "/usr/bin/python3"),
            arguments: [
                RepositoryRoot.url.appendingPathComponent("Tests/Zip/read_zip.py").path, file.path, folder.url.appendingPathComponent("files").path,
            ],
            environment: ["PATH": "/usr/bin:/bin", "PYTHONDONTWRITEBYTECODE": "1"]
        )
        try process.start()
        let result = process.finish()
        guard result.status == 0 else { throw Unreadable(description: result.output + result.errors) }
        entries = try result.output.split(separator: "\n").map { try JSONDecoder().decode(Entry.self, from: Data($0.utf8)) }
    }

    /// An extracted entry's bytes.
    public func bytes(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: folder.url.appendingPathComponent("files").appendingPathComponent(name)))
    }

    public struct Unreadable: Error, CustomStringConvertible {
        public var description: String
    }
}
