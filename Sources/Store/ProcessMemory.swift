import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The process's heap, as glibc keeps it.
public enum ProcessMemory {
    /// Hands memory that was freed back to the system. glibc keeps freed pages for reuse, and once large blocks
    /// have been freed it serves later requests, however large, from them: after a client list of 100,000 was
    /// built, 24 MB of its build-time arrays stayed in the process until trimmed, as did an idle writer's page
    /// cache. Costs a walk over the heap's free pages: call it after such work, not per request.
    public static func returnFreedPages() {
        #if os(Linux)
        _ = mallocTrim?(0)
        #endif
    }

    #if os(Linux)
    /// glibc's `malloc_trim` (declared in <malloc.h>, which the Glibc module leaves out), looked up once.
    private static let mallocTrim: (@convention(c) (Int) -> Int32)? = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim").map {
        unsafeBitCast($0, to: (@convention(c) (Int) -> Int32).self)
    }
    #endif
}
