import Synchronization

/// The progress of one stage reported from several threads, never going
/// back: a fraction is passed on only when it is beyond every one passed
/// on before (two threads may finish their parts in either order).
package final class StageProgress: Sendable {
    private let control: ComputeControl
    private let stage: HeatMapStage
    private let reached = Mutex<Double>(-.infinity)

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
}
