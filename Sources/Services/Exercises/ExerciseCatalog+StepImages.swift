import Foundation
import HealthwheelCore
import NIOPosix

extension ExerciseCatalog {
    /// A step picture of a shipped pack (SVG, PNG or JPEG).
    public struct StepImage: Sendable {
        public var bytes: [UInt8]
        public var contentType: String
    }

    /// Step pictures larger than this are not served.
    public static let maximumStepImageBytes = 2 << 20

    /// The picture at `path` inside the shipped packs' folder (`images/push-ups-1.svg`), read on a blocking-work
    /// thread; nil for a path that is not a safe relative one, leaves the folder, or names no readable picture.
    public func stepImage(_ path: String) async throws -> StepImage? {
        guard let folder, ExercisePackCheck.isSafeImagePath(path) else { return nil }
        let file = folder.appendingPathComponent(path)
        guard file.standardizedFileURL.path.hasPrefix(folder.standardizedFileURL.path + "/") else { return nil }
        let bytes = try await NIOThreadPool.singleton.runIfActive { FileManager.default.contents(atPath: file.path) }
        guard let bytes, bytes.count <= Self.maximumStepImageBytes else { return nil }
        let type: String =
            switch file.pathExtension.lowercased() {
            case "svg": "image/svg+xml"
            case "png": "image/png"
            default: "image/jpeg"
            }
        return StepImage(bytes: [UInt8](bytes), contentType: type)
    }
}
