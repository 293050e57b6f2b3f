import CSeccomp

#if canImport(Glibc)
import Glibc
#endif

/// The second wall around what tenants send (scripts, pictures, videos), put up by a worker process before its
/// first request: resource limits, then a seccomp filter that lets the process do nothing but read and write its
/// socket, manage its own memory (never executable), run threads of its own (media workers) and exit. Any other
/// system call kills it (a media worker's attempt to open a file is refused with `EACCES` instead, for libraries
/// that look for a setting on first use), so even code that escaped its sandbox or parser (a bug in the Lua VM, in
/// libjpeg) could open no file, socket or process, and sees no other company's data: the worker holds only the
/// requests it is sent.
public struct WorkerConfinement: Sendable {
    /// CPU seconds a worker may use in its life: a backstop if the server ever failed to stop it. The pools retire
    /// a worker well before.
    public var cpuSeconds: rlim_t = 120
    /// Address space a worker may add to what it has mapped when confined.
    public var addressSpaceHeadroom: rlim_t
    /// Whether the worker may start threads (libvips decodes on threads of its own; Lua never needs one).
    public var threads = false

    /// A scoring worker's: the Lua states cap scripts at a few MiB each; the headroom bounds everything else,
    /// such as the compiled-chunk cache.
    public static let scoring = WorkerConfinement(addressSpaceHeadroom: 256 << 20)

    /// A media worker's: the largest picture accepted is 48 megapixels, which libvips shrinks while it decodes;
    /// a full decode of it with its copies fits well within 1.5 GiB.
    public static let media = WorkerConfinement(addressSpaceHeadroom: 1536 << 20, threads: true)

    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// Workers yield to the server's own threads when both want a core: a file or script someone made to burn
    /// time slows its own kind of work, not every other request.
    static let niceness: Int32 = 10

    public func apply() throws(Failure) {
        guard setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, Self.niceness) == 0 else {
            throw Failure(description: "setpriority failed: errno \(errno)")
        }
        try Self.limit(RLIMIT_CPU, soft: cpuSeconds, hard: cpuSeconds + 5)
        try Self.limit(RLIMIT_AS, to: Self.mappedBytes() + addressSpaceHeadroom)
        try Self.limit(RLIMIT_NOFILE, to: 3)
        try Self.limit(RLIMIT_FSIZE, to: 0)
        try Self.limit(RLIMIT_CORE, to: 0)
        try installFilter()
    }

    private static func limit(_ resource: __rlimit_resource, to value: rlim_t) throws(Failure) {
        try limit(resource, soft: value, hard: value)
    }

    private static func limit(_ resource: __rlimit_resource, soft: rlim_t, hard: rlim_t) throws(Failure) {
        var value = rlimit(rlim_cur: soft, rlim_max: hard)
        guard setrlimit(__rlimit_resource_t(resource.rawValue), &value) == 0 else {
            throw Failure(description: "setrlimit(\(resource.rawValue)) failed: errno \(errno)")
        }
    }

    /// The process's mapped address space now (the first field of /proc/self/statm, in pages).
    private static func mappedBytes() throws(Failure) -> rlim_t {
        let fd = open("/proc/self/statm", O_RDONLY)
        guard fd >= 0 else { throw Failure(description: "cannot open /proc/self/statm") }
        defer { close(fd) }
        var text = [UInt8](repeating: 0, count: 128)
        let count = read(fd, &text, text.count)
        let field = text.prefix(max(count, 0)).prefix { $0 != UInt8(ascii: " ") }
        guard let pages = rlim_t(String(decoding: field, as: UTF8.self)) else { throw Failure(description: "cannot read /proc/self/statm") }
        return pages * rlim_t(sysconf(Int32(_SC_PAGESIZE)))
    }

    /// A rule's condition on one argument of the call.
    private struct Condition {
        var argument: UInt32
        var comparison: scmp_compare
        var a: UInt64
        var b: UInt64 = 0

        static func equals(argument: UInt32, _ value: UInt64) -> Condition {
            Condition(argument: argument, comparison: SCMP_CMP_EQ, a: value)
        }

        /// The bits of `mask` are all clear in the argument.
        static func clear(argument: UInt32, _ mask: UInt64) -> Condition {
            Condition(argument: argument, comparison: SCMP_CMP_MASKED_EQ, a: mask, b: 0)
        }
    }

    private func installFilter() throws(Failure) {
        guard let filter = seccomp_init(hw_seccomp_kill_process) else { throw Failure(description: "seccomp_init failed") }
        defer { seccomp_release(filter) }
        // Every thread of the process, should the runtime ever have started one.
        guard seccomp_attr_set(filter, SCMP_FLTATR_CTL_TSYNC, 1) == 0 else { throw Failure(description: "seccomp cannot sync threads") }

        let noExecute = UInt64(PROT_EXEC)
        var rules: [(String, [Condition])] = [
            ("read", [.equals(argument: 0, 0)]),  // the socket
            ("write", [.equals(argument: 0, 0)]),
            ("write", [.equals(argument: 0, 2)]),  // a last word on stderr before an exit
            ("mmap", [.clear(argument: 2, noExecute)]),
            ("mprotect", [.clear(argument: 2, noExecute)]),
            ("munmap", []), ("mremap", []), ("brk", []), ("madvise", []),
            ("futex", []), ("gettid", []), ("clock_gettime", []), ("getrandom", []),  // gettid: Mutex owners
            ("rt_sigreturn", []), ("exit", []), ("exit_group", []),
        ]
        if threads {
            // A thread, never a process: clone must share the address space and be a thread of this process.
            let thread: UInt64 = 0x0000_0100 | 0x0001_0000  // CLONE_VM | CLONE_THREAD
            rules += [
                ("clone", [Condition(argument: 0, comparison: SCMP_CMP_MASKED_EQ, a: thread, b: thread)]),
                ("set_robust_list", []), ("rseq", []), ("sched_getaffinity", []), ("sched_yield", []),
                ("rt_sigprocmask", []), ("nanosleep", []), ("clock_nanosleep", []), ("getpid", []),
                ("prctl", [.equals(argument: 0, 15)]),  // PR_SET_NAME: glib names the threads it starts
            ]
        }
        for (name, conditions) in rules {
            let call = seccomp_syscall_resolve_name(name)
            guard call != __NR_SCMP_ERROR else { throw Failure(description: "unknown system call \(name)") }
            var comparisons = conditions.map { scmp_arg_cmp(arg: $0.argument, op: $0.comparison, datum_a: $0.a, datum_b: $0.b) }
            let status = seccomp_rule_add_array(filter, hw_seccomp_allow, call, UInt32(comparisons.count), &comparisons)
            guard status == 0 else { throw Failure(description: "seccomp rule for \(name) failed: \(status)") }
        }
        if threads {
            // glibc tries clone3 first, whose flags are out of the filter's reach; told it does not exist, it
            // falls back to clone, which the rule above checks. A library that opens a file on a first use (a
            // setting under /proc, a table) is told no rather than killed: it opens nothing either way.
            for (name, action) in [("clone3", hw_seccomp_errno_nosys), ("openat", hw_seccomp_errno_access), ("open", hw_seccomp_errno_access)] {
                let call = seccomp_syscall_resolve_name(name)
                guard call == __NR_SCMP_ERROR || seccomp_rule_add_array(filter, action, call, 0, nil) == 0 else {
                    throw Failure(description: "seccomp rule for \(name) failed")
                }
            }
        }
        let status = seccomp_load(filter)
        guard status == 0 else { throw Failure(description: "seccomp_load failed: \(status)") }
    }
}
