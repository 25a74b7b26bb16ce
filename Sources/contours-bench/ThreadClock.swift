import Foundation

/// How long each thread of the process has run on a CPU (Linux schedstat,
/// nanoseconds), so a cancel's cost can be told apart from waiting for a
/// core on a busy machine: the most any one thread ran between the cancel
/// and the throw bounds the gap between its cancellation polls.
enum ThreadClock {
    /// The name the library gives its release thread (Linux keeps 15 characters).
    static let releaseThread = "heatmap-release"

    /// Thread id → nanoseconds on a CPU so far (empty where unsupported).
    static func snapshot() -> [Int: UInt64] {
        guard let tasks = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task") else { return [:] }
        var out: [Int: UInt64] = [:]
        for task in tasks {
            // The library's release thread frees a cancelled job's arrays
            // while the throw goes on: it does not delay the cancel.
            let name = (try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8)) ?? ""
            if name.hasPrefix(releaseThread) { continue }
            guard let id = Int(task),
                let text = try? String(contentsOfFile: "/proc/self/task/\(task)/schedstat", encoding: .utf8),
                let first = text.split(separator: " ").first, let ns = UInt64(first)
            else { continue }
            out[id] = ns
        }
        return out
    }

    /// Seconds the calling thread has run on a CPU.
    static var current: Double {
        var t = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }

    /// The most CPU time any thread ran from `before` to `after`, in seconds.
    static func largestRun(from before: [Int: UInt64], to after: [Int: UInt64]) -> Double {
        var most: UInt64 = 0
        for (id, ns) in after { most = max(most, ns - min(ns, before[id] ?? ns)) }
        return Double(most) / 1e9
    }
}
