import Foundation
import StoreContract

#if canImport(Glibc)
import Glibc
#endif

/// Name and scheduling priority of the store's own threads, as the operating system sees them.
///
/// On two cores, the writer thread and the HTTP threads compete for CPU. Left at the same priority, a stream
/// of result POSTs took most of it: the wheel served 0.37 of its unloaded rate while results were posted. A
/// writer at a lower priority yields to the threads serving reads when both want the CPU, and loses little by
/// it: jobs queued meanwhile join its next batch, one commit for all of them. It is never starved (the kernel
/// still gives it a weighted share), and alone it runs at full speed.
enum StoreThread {
    case writer, checkpointer
    /// One of `LongReads`' threads, which run the reads that can take long.
    case reader

    /// The name `top -H`, `perf` and `/proc` show (Linux keeps 15 bytes).
    var name: String {
        switch self {
        case .writer: "hw-writer"
        case .checkpointer: "hw-checkpointer"
        case .reader: "hw-reader"
        }
    }

    /// The nice value: 0 is normal, 19 the lowest. The checkpointer's work is background work that the writer
    /// takes over when it falls behind.
    var nice: Int32 {
        switch self {
        case .writer: 10
        case .checkpointer: 15
        case .reader: 0
        }
    }

    /// Names the calling thread and lowers its priority. Linux keeps a nice value per thread, and
    /// `setpriority(PRIO_PROCESS, 0, …)` sets the caller's; raising it again would need privileges.
    func configureCurrentThread() {
        Thread.current.name = name
        #if os(Linux)
        // The kernel's name too: Foundation's setter, run as a new thread starts, sometimes did not reach it, and
        // the thread kept the name it inherited from its creator (a dispatch worker's "oot.default-qos").
        try? name.write(toFile: "/proc/thread-self/comm", atomically: false, encoding: .utf8)
        _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, nice)
        #endif
    }
}
