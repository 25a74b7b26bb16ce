#if canImport(Glibc)
    import Glibc
#endif

/// The allocator policy of the whole process, for programs that compute
/// many grids, contours or bins in one run (a server, a batch job, a
/// benchmark).
///
/// Every stage allocates arrays of megabytes. On Linux, glibc maps large
/// blocks fresh for each allocation and hands them back on free, so each
/// run pays a page fault per 4 KiB it touches: about 2 µs each on the
/// virtual machines measured in docs/performance.md, 60 ms per
/// 100 MB, a third of a 1M-point grid. Keeping freed memory lets later
/// runs reuse pages already mapped. The price: the process's resident
/// size stays at its high-water mark.
package enum MemoryPolicy {
    /// Serves every block from the heap and never trims it (glibc's
    /// `mallopt(M_MMAP_MAX, 0)` and `mallopt(M_TRIM_THRESHOLD, INT_MAX)`,
    /// looked up at run time). Call once, early. Does nothing where the C
    /// library is not glibc. Returns whether the policy was applied.
    @discardableResult
    package static func keepFreedMemory() -> Bool {
        guard let mallopt = glibcFunction("mallopt", as: Mallopt.self) else { return false }
        let mmapMax: Int32 = -4, trimThreshold: Int32 = -1
        return mallopt(mmapMax, 0) == 1 && mallopt(trimThreshold, Int32.max) == 1
    }

    /// Reuses freed blocks under 32 MiB and never trims the heaps by
    /// itself (glibc's `mallopt(M_MMAP_THRESHOLD, 32 MiB)` and
    /// `mallopt(M_TRIM_THRESHOLD, INT_MAX)`), for a one-run program that
    /// hands memory back where it chooses (``returnFreeMemory()``). By
    /// default glibc trims a heap's free top and deletes an empty thread
    /// heap as soon as it can, and maps each block above a threshold that
    /// moves with what was freed, so a stage that frees and the next that
    /// allocates fault in the same megabytes afresh (measured on the 1M
    /// smoothed export: 290 000–330 000 page faults, 1.3 s of system
    /// time, against 200 000–225 000 and 1.0 s with this policy). Blocks
    /// of 32 MiB and more, the grids and their planes, are still mapped
    /// apart and returned when freed, so a freed grid cannot pin a heap's
    /// top. Does nothing where the C library is not glibc. Call once,
    /// early. Returns whether the policy was applied.
    @discardableResult
    package static func reuseFreedMemory() -> Bool {
        guard let mallopt = glibcFunction("mallopt", as: Mallopt.self) else { return false }
        let mmapThreshold: Int32 = -3, trimThreshold: Int32 = -1
        return mallopt(mmapThreshold, 32 << 20) == 1 && mallopt(trimThreshold, Int32.max) == 1
    }

    /// Serves the threads from one allocator arena per core (glibc's
    /// `mallopt(M_ARENA_MAX, cores)`), and from one arena under an
    /// address-space limit (`ulimit -v`). glibc otherwise gives threads up
    /// to eight arenas per core, and memory freed in one arena cannot
    /// serve an allocation in another: a job whose threads hand arrays to
    /// each other — the export's makers and writer, the stages' workers —
    /// then holds its high-water mark in several arenas at once (measured:
    /// a tenth to a fifth of the 1M export's peak). Under a limit each
    /// further arena also reserves 64 MB of address space that the limit
    /// counts, so a small job could fail under a limit its data fits in
    /// many times over, and ``MemoryBudget`` could not tell ahead. Does
    /// nothing where the C library is not glibc. Call once, early, before
    /// threads start. Returns whether the policy was applied.
    @discardableResult
    package static func fewArenas() -> Bool {
        guard let mallopt = glibcFunction("mallopt", as: Mallopt.self) else { return false }
        let arenaMax: Int32 = -8
        let arenas = MemoryBudget.addressSpaceLimit != nil ? 1 : Int32(clamping: Parallel.workerCount)
        return mallopt(arenaMax, arenas) == 1
    }

    /// Hands the free memory of every allocator arena back to the system
    /// (glibc's `malloc_trim(0)`, looked up at run time), for a program
    /// about to start a long stage with less live memory than its earlier
    /// ones held: freed blocks inside glibc's heaps otherwise stay resident
    /// (measured: over 200 MB when the 1M export starts writing, after the
    /// smoothing guard's peak). O(free blocks); the pages given back are
    /// faulted in again if used. Does nothing where the C library is not
    /// glibc. Returns whether anything was given back.
    @discardableResult
    package static func returnFreeMemory() -> Bool {
        typealias MallocTrim = @convention(c) (Int) -> Int32
        guard let trim = glibcFunction("malloc_trim", as: MallocTrim.self) else { return false }
        return trim(0) == 1
    }

    private typealias Mallopt = @convention(c) (Int32, Int32) -> Int32

    /// The C library's function `name`, looked up at run time (these are
    /// glibc's own, absent from other C libraries); nil where it is not.
    private static func glibcFunction<F>(_ name: String, as type: F.Type) -> F? {
        #if canImport(Glibc)
            guard let process = dlopen(nil, RTLD_NOW), let symbol = dlsym(process, name) else { return nil }
            return unsafeBitCast(symbol, to: type)
        #else
            return nil
        #endif
    }
}
