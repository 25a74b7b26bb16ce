import Foundation
import HeatMapCore

/// How one ``DensityScheme`` fills a grid: it deposits slices of points
/// into the scheme's buffers, then finishes each row's node sums
/// Σ w e^(−d²/2σ²) (and, for the mean estimator, Σ v w e^(−d²/2σ²)).
///
/// ``DensityAccumulator`` checks the points, chooses the scheme
/// (``DensityPlan/scheme(method:xAxis:yAxis:channels:pointCount:)``) and
/// makes its fill over its buffers for each call; the fill does the
/// work. Conforming types are concrete (no generic parameters), so a call
/// through `any DensityFill` costs one dynamic dispatch per slice or per
/// grid, and everything per point inside runs specialised. The exact
/// splat (``DirectSplat``, run by ``DirectFill``) is the reference the
/// binned fills are measured against.
protocol DensityFill {
    /// Adds points 0..<n (already checked: finite, weights ≥ 0; `value`
    /// given for the mean estimator only). Points a binned scheme cannot
    /// place on its nodes are skipped (the accumulator splats them
    /// exactly). `progress` gets counts of points done.
    func deposit(
        x: UnsafePointer<Double>, y: UnsafePointer<Double>, weight: UnsafePointer<Double>,
        value: UnsafePointer<Double>?, count n: Int, control: ComputeControl,
        progress: @escaping @Sendable (Int) -> Void) throws

    /// Calls `emit(row, sums)` once for every row, from any thread: `sums`
    /// holds the row's Σ w e^(…) per column and, for two channels,
    /// Σ v w e^(…) from `sums + columns`; nil when the scheme's sums are the
    /// exact-splat grid itself. `progress` gets the fraction done.
    func finish(
        control: ComputeControl, progress: @escaping @Sendable (Double) -> Void,
        emit: (Int, UnsafePointer<Double>?) -> Void) throws
}

extension DensityFill {
    /// The ``finish(control:progress:emit:)`` of a fill whose sums are the
    /// exact-splat grid itself: every row emitted with no sums of its own,
    /// 16 rows a task on all cores.
    func emitGridRows(_ rows: Int, control: ComputeControl, emit: (Int, UnsafePointer<Double>?) -> Void) throws {
        try Parallel.forEachRange(of: rows, size: 16, control: control) { block in
            for r in block { emit(r, nil) }
        }
    }
}
