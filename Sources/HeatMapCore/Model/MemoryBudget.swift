import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// How much memory the process may still take, and a check that a stage
/// fits before it allocates.
///
/// A Swift array that cannot be allocated stops the process; a stage that
/// knows its size up front (a grid of C × R nodes, the planes of its
/// scheme, the working arrays of contouring) asks here first and refuses
/// with ``HeatMapError/outOfMemory(needed:available:what:)`` instead.
package enum MemoryBudget {
    /// The bytes the process may still allocate: the smaller of what its
    /// address-space limit (`RLIMIT_AS`, as `ulimit -v` sets) leaves above
    /// its current size and what the system has available (MemAvailable
    /// plus free swap, from /proc/meminfo). Nil when neither is known.
    /// O(1): reads two small files.
    package static func available() -> Int? {
        var candidates: [Int] = []
        if let limit = addressSpaceLimit {
            let size = processSize() ?? 0
            // Each thread's allocator arena and stack reserve address
            // space beyond what the stage asks for.
            let reserve = 96 << 20
            candidates.append(max(0, limit - size - reserve))
        }
        if let system = systemAvailable() { candidates.append(system) }
        return candidates.min()
    }

    /// The process's address-space limit in bytes (`RLIMIT_AS`, as
    /// `ulimit -v` sets it); nil when there is none.
    static var addressSpaceLimit: Int? {
        var limit = rlimit()
        guard getrlimit(RLIMIT_AS_VALUE, &limit) == 0, limit.rlim_cur != rlim_t.max else { return nil }
        return Int(clamping: limit.rlim_cur)
    }

    /// Throws when `bytes` more do not fit in ``available()``.
    ///
    /// - Parameter what: the stage, for the message ("the density grid of 10000 × 8040 nodes").
    /// - Throws: ``HeatMapError/outOfMemory(needed:available:what:)``.
    package static func reserve(_ bytes: Int, for what: String) throws {
        guard let free = available(), bytes > free else { return }
        throw HeatMapError.outOfMemory(needed: bytes, available: free, what: what)
    }

    /// `count` × `each`, saturating at `Int.max` (a size no machine has).
    package static func product(_ count: Int, _ each: Int) -> Int {
        let (p, overflow) = count.multipliedReportingOverflow(by: each)
        return overflow ? Int.max : p
    }

    /// Bytes as a short text: "643 MB", "2.9 GB".
    package static func text(_ bytes: Int) -> String {
        let b = Double(bytes)
        if b >= 1e12 { return String(format: "%.3g TB", b / 1e12) }
        if b >= 1e9 { return String(format: "%.2g GB", b / 1e9).replacingOccurrences(of: "e+", with: "e") }
        if b >= 1e6 { return "\(Int((b / 1e6).rounded())) MB" }
        return "\(Int((b / 1e3).rounded(.up))) kB"
    }

    #if canImport(Glibc)
        private static let RLIMIT_AS_VALUE = __rlimit_resource_t(RLIMIT_AS.rawValue)
    #else
        private static let RLIMIT_AS_VALUE = RLIMIT_AS
    #endif

    /// The process's virtual size (VmSize), from /proc/self/statm.
    private static func processSize() -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8),
            let pages = text.split(separator: " ").first.flatMap({ Int($0) })
        else { return nil }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    /// MemAvailable + SwapFree, from /proc/meminfo.
    private static func systemAvailable() -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/meminfo", encoding: .utf8) else { return nil }
        var total: Int?
        for line in text.split(separator: "\n") where line.hasPrefix("MemAvailable:") || line.hasPrefix("SwapFree:") {
            let kb = line.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
            total = (total ?? 0) + kb * 1024
        }
        return total
    }
}
