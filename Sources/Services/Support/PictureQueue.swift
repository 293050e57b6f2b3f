import Dispatch
import Foundation
import Synchronization

/// Where pictures and PDFs are drawn: threads of their own, not Swift's cooperative pool, whose threads (two, on
/// two cores) serve every request. Drawing a report takes tens of milliseconds. One serial queue per core, taken
/// in turn: at most one drawing per core at once, and work waiting its turn holds no thread at all.
enum PictureQueue {
    private static let queues = (0..<max(ProcessInfo.processInfo.activeProcessorCount, 1)).map {
        DispatchQueue(label: "healthwheel.pictures.\($0)", qos: .userInitiated)
    }
    private static let next = Atomic<UInt>(0)

    /// Runs `work` on a drawing thread; the caller suspends meanwhile.
    static func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        let queue = queues[Int(next.wrappingAdd(1, ordering: .relaxed).oldValue % UInt(queues.count))]
        return try await withCheckedThrowingContinuation { continuation in
            queue.async { continuation.resume(with: Result { try work() }) }
        }
    }
}
