import Foundation
import HeatMap
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Shows progress on standard error (docs/formats.md): on a terminal one line redrawn
/// in place, e.g. `contours: density ███████░░░░░  58%`; otherwise (with
/// --progress) a line when a stage starts and at each quarter.
final class ProgressReporter: Sendable {
    private struct State {
        var stage: HeatMapStage?
        var shownPercent = -1
        var quarter = -1
        var lastDraw = 0.0
        var drewLine = false
    }

    private let terminal: Bool
    private let state = Mutex(State())

    /// A reporter, or nil when progress is not wanted: stderr is not a
    /// terminal and --progress was not given.
    static func make(forced: Bool) -> ProgressReporter? {
        let terminal = isatty(STDERR_FILENO) == 1
        guard terminal || forced else { return nil }
        return ProgressReporter(terminal: terminal)
    }

    private init(terminal: Bool) {
        self.terminal = terminal
    }

    /// The callback for ``ComputeControl/progress``.
    var callback: @Sendable (HeatMapProgress) -> Void {
        { [self] in self.report($0) }
    }

    private static func now() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) * 1e-9
    }

    func report(_ p: HeatMapProgress) {
        let percent = Int((p.fraction * 100).rounded(.down))
        let line: String? = state.withLock { s in
            let newStage = s.stage != p.stage
            if newStage {
                s.stage = p.stage
                s.shownPercent = -1
                s.quarter = -1
            }
            if terminal {
                let t = ProgressReporter.now()
                guard newStage || percent == 100 || (percent != s.shownPercent && t - s.lastDraw >= 0.1) else {
                    return nil
                }
                s.shownPercent = percent
                s.lastDraw = t
                s.drewLine = true
                let filled = min(20, percent / 5)
                let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: 20 - filled)
                let name = p.stage.rawValue.padding(toLength: 8, withPad: " ", startingAt: 0)
                return "\r\u{1B}[K" + "contours: \(name) \(bar) \(String(format: "%3d", percent))%"
            }
            let quarter = percent / 25
            guard newStage || quarter > s.quarter else { return nil }
            s.quarter = quarter
            return "contours: \(p.stage.rawValue) \(percent)%\n"
        }
        if let line { StandardStreams.writeError(line) }
    }

    /// Ends the progress line (on a terminal), so later messages start clean.
    func finish() {
        let clear = state.withLock { s -> Bool in
            defer { s.drewLine = false }
            return s.drewLine
        }
        if terminal && clear { StandardStreams.writeError("\r\u{1B}[K") }
    }
}
