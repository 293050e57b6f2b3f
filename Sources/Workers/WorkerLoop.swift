import CSeccomp

#if canImport(Glibc)
import Glibc
#endif

/// A worker process's side of its socket (fd 0): what every kind of worker does around its own requests.
public enum WorkerLoop {
    /// The first steps of a worker confined by `confinement` later, before anything of its own: it keeps no
    /// descriptor the server left open, and it dies with the server.
    public static func begin(_ confinement: WorkerConfinement) {
        // Whatever the server had open and not marked close-on-exec is not the worker's business.
        _ = hw_close_from(3)
        _ = hw_die_with_parent()
        if confinement.threads { _ = hw_single_malloc_arena() }
        // A fault ends the worker at once, as the kernel tells it (the runtime's crash handler would want system
        // calls the filter refuses): the server's log then says "killed by signal 11", not a filter's kill.
        for fault in [SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGTRAP, SIGABRT] { signal(fault, SIG_DFL) }
    }

    /// Reads requests on fd 0 as they arrive and answers each in turn with the frame `answer` makes of the
    /// request's payload, writing each answer before it starts the next request: the server's deadline for a
    /// request runs from the answer to the one before it, so an answer held back would have the server blame
    /// the wrong request. Exits when the server closes the socket; fails (`command` names the worker) on a frame
    /// past `maximumFrameBytes` or one `answer` cannot read (nil).
    public static func serve(command: String, maximumFrameBytes: Int, answer: (ArraySlice<UInt8>) -> [UInt8]?) -> Never {
        var input: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            let count = read(0, &chunk, chunk.count)
            if count == 0 { _exit(0) }
            if count < 0 {
                if errno == EINTR { continue }
                _exit(1)
            }
            input.append(contentsOf: chunk[0..<count])
            var start = 0
            while true {
                let complete: Int?
                do {
                    complete = try WorkerFrame.completeLength(in: input, from: start, maximum: maximumFrameBytes)
                } catch {
                    fail(command: command, "a request frame is too long")
                }
                guard let length = complete else { break }
                guard let reply = answer(input[(start + 4)..<(start + length)]) else { fail(command: command, "a malformed request") }
                start += length
                send(reply)
            }
            input.removeFirst(start)
        }
    }

    /// Writes `output` whole on fd 0, or exits.
    public static func send(_ output: [UInt8]) {
        var sent = 0
        while sent < output.count {
            let count = output[sent...].withUnsafeBytes { write(0, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { _exit(1) }
            sent += count
        }
    }

    /// A last word on stderr (`healthwheel <command>: message`), then exit status 2.
    public static func fail(command: String, _ message: String) -> Never {
        let line = Array("healthwheel \(command): \(message)\n".utf8)
        _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
        _exit(2)
    }
}
