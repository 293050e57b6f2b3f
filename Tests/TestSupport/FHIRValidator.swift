import Foundation

/// A real FHIR validator for a test: `Tests/FHIR/validate_fhir.py`, the R4 models of `fhir.resources` (PyPI, in
/// the virtual environment `scripts/test` makes, beside aiosmtpd) and the value-set, UCUM and reference checks the
/// models leave out.
public enum FHIRValidator {
    /// What the validator said of one document: `passed`, and its lines (each problem named by its path).
    public struct Verdict: Sendable, CustomStringConvertible {
        public let passed: Bool
        public let output: String
        public var description: String { output }
    }

    public static func validate(_ json: [UInt8]) throws -> Verdict {
        let folder = TemporaryDirectory()
        let file = folder.url.appendingPathComponent("resource.json")
        try Data(json).write(to: file)
        let process = RunningProcess(
            executable: SMTPSink.python,
            arguments: [RepositoryRoot.url.appendingPathComponent("Tests/FHIR/validate_fhir.py").path, file.path],
            environment: ["PATH": "/usr/bin:/bin", "PYTHONDONTWRITEBYTECODE": "1"]
        )
        try process.start()
        let result = process.finish()
        return Verdict(passed: result.status == 0, output: result.output + result.errors)
    }
}
