#if canImport(Glibc)
    import Glibc
#endif

/// The process's resident high-water mark, from getrusage.
enum PeakMemory {
    /// Peak resident set size in MB (ru_maxrss is in KiB on Linux).
    static var megabytes: Double {
        var usage = rusage()
        guard getrusage(RUSAGE_SELF.rawValue, &usage) == 0 else { return .nan }
        return Double(usage.ru_maxrss) / 1024
    }
}
