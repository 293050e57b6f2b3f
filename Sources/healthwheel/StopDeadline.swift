import Dispatch
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A stop (SIGTERM or SIGINT) takes at most `seconds`: the server first stops gracefully (no new connections, the
/// requests in flight answered), and whatever still runs at the deadline (an upload trickling in, a decoder
/// working on a picture, a mail server that does not answer) is cut off as a crash would cut it. Nothing is lost
/// by that: every acknowledged write is durable, and the outbox and the media sweep take up what a crash leaves.
enum StopDeadline {
    /// Arms the deadline: from the first stop signal, `seconds` until the process exits (status 1), after `report`
    /// is told. The returned sources must be kept for as long as the server runs.
    static func arm(seconds: Int, report: @escaping @Sendable (String) -> Void) -> [any DispatchSourceSignal] {
        [SIGTERM, SIGINT].map { signal in
            let source = DispatchSource.makeSignalSource(signal: signal, queue: .global())
            source.setEventHandler {
                DispatchQueue.global().asyncAfter(deadline: .now() + .seconds(seconds)) {
                    report("still stopping \(seconds) s after the stop signal: exiting now, as after a crash")
                    _exit(1)
                }
            }
            source.resume()
            return source
        }
    }
}
