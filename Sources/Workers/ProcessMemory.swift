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

    /// Keeps glibc from holding on to what is freed: call once, at start-up. glibc starts by handing blocks of
    /// 128 KiB and more back when freed, but after the first such block is freed it raises that bound to the
    /// block's size (up to 32 MiB) and keeps free memory at the end of a thread's heap up to twice that: on a
    /// server that had imported cards and built a large client list, 90 MB of freed memory stayed resident. Fixing
    /// the bounds (256 KiB, 1 MiB) stops them from rising.
    public static func keepFreedMemoryFromPiling() {
        #if os(Linux)
        _ = mallocOption?(mmapThreshold, 256 << 10)
        _ = mallocOption?(trimThreshold, 1 << 20)
        #endif
    }

    #if os(Linux)
    /// `M_TRIM_THRESHOLD` and `M_MMAP_THRESHOLD` from <malloc.h>.
    private static let trimThreshold: Int32 = -1
    private static let mmapThreshold: Int32 = -3

    /// glibc's `mallopt`, looked up once, as `malloc_trim`.
    private static let mallocOption: (@convention(c) (Int32, Int32) -> Int32)? = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt").map {
        unsafeBitCast($0, to: (@convention(c) (Int32, Int32) -> Int32).self)
    }

    /// glibc's `malloc_trim` (declared in <malloc.h>, which the Glibc module leaves out), looked up once.
    private static let mallocTrim: (@convention(c) (Int) -> Int32)? = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim").map {
        unsafeBitCast($0, to: (@convention(c) (Int) -> Int32).self)
    }
    #endif
}
