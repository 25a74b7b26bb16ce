import Foundation
import HeatMap
import Synchronization

/// Records when each stage first reported progress, and the last report
/// seen, from any thread.
final class StageClock: Sendable {
    private let origin = DispatchTime.now().uptimeNanoseconds
    private let starts = Mutex<[(String, UInt64)]>([])
    private let latest = Mutex<HeatMapProgress?>(nil)

    /// Nanoseconds since the clock was made.
    var now: UInt64 { DispatchTime.now().uptimeNanoseconds - origin }

    /// Notes a progress report.
    func note(_ report: HeatMapProgress) {
        mark(report.stage.rawValue)
        latest.withLock { $0 = report }
    }

    /// Marks the start of a step that reports no progress of its own.
    func mark(_ name: String) {
        let t = now
        starts.withLock { list in
            if !list.contains(where: { $0.0 == name }) { list.append((name, t)) }
        }
    }

    /// The last report seen.
    var last: HeatMapProgress? { latest.withLock { $0 } }

    /// Seconds per stage, in the order the stages began, each ending where
    /// the next began (the last ends at `end`).
    func durations(end: UInt64) -> [(String, Double)] {
        let list = starts.withLock { $0 }
        return list.enumerated().map { k, entry in
            let stop = k + 1 < list.count ? list[k + 1].1 : end
            return (entry.0, Double(stop - entry.1) / 1e9)
        }
    }
}
