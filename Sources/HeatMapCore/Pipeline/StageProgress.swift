import Synchronization

/// The progress of one stage reported from several threads, never going
/// back: a fraction is passed on only when it is beyond every one passed
/// on before (two threads may finish their parts in either order).
package final class StageProgress: Sendable {
    private let control: ComputeControl
    private let stage: HeatMapStage
    private let reached = Mutex<Double>(-.infinity)
    private let done = Atomic<Int>(0)

    package init(_ stage: HeatMapStage, control: ComputeControl) {
        self.stage = stage
        self.control = control
    }

    /// Reports `fraction` of the stage if it is further than any reported.
    package func report(_ fraction: Double) {
        guard control.progress != nil else { return }
        reached.withLock { last in
            guard fraction > last else { return }
            last = fraction
            control.report(stage, fraction)
        }
    }

    /// Counts `units` more of the stage's `total` as done (from any thread)
    /// and reports the fraction reached. Every call reports (a thread that
    /// lost the race to one further on repeats that fraction), so the
    /// number of reports is the number of calls, whatever the timing.
    package func advance(by units: Int, of total: Int) {
        guard control.progress != nil else { return }
        let fraction = Double(done.add(units, ordering: .relaxed).newValue) / Double(max(total, 1))
        reached.withLock { last in
            last = max(last, min(fraction, 1))
            control.report(stage, last)
        }
    }
}
