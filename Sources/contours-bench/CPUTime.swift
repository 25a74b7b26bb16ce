#if canImport(Glibc)
    import Glibc
#endif

/// The process's CPU time so far, user plus system (getrusage), in
/// seconds: beside a wall time, it tells a slow step from a busy machine.
enum CPUTime {
    static var seconds: Double {
        var usage = rusage()
        guard getrusage(RUSAGE_SELF.rawValue, &usage) == 0 else { return .nan }
        func s(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) / 1e6 }
        return s(usage.ru_utime) + s(usage.ru_stime)
    }
}
