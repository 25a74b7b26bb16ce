import Foundation
import HeatMapCore

extension DensityGrid {
    /// The density grid of docs/density-model.md for points already in the plane: chooses the
    /// radius (``Bandwidth``) and, with ``HeatMapConfiguration/resolutionFromData``, the
    /// resolution, fits the grid to the points and fills it.
    ///
    /// The planner of streamed input plans it (`StreamedDensity`): an
    /// `.auto` radius too narrow for the grid's cells is raised to σ = half
    /// a cell, as there, and the grid is the same bit for bit as a streamed
    /// run over the same points in one batch. `configuration.densityMethod`
    /// picks the algorithm (`.automatic`: the fastest one within the
    /// accuracy bound); all cores are used and `control` is polled
    /// throughout. The radius used is reported in ``DensityGrid/radius``.
    ///
    /// Zero points give an all-zero grid (all NaN for the mean estimator)
    /// around the origin; all-zero weights likewise, on the points' box.
    ///
    /// - Throws: `CancellationError`; ``HeatMapError`` for a non-finite or
    ///   negatively weighted point, arrays of different lengths, or a grid
    ///   too large for memory.
    public static func compute(
        points: PlanePoints, projection: PlaneProjection,
        configuration: HeatMapConfiguration,
        control: ComputeControl = .none
    ) throws -> DensityGrid {
        try points.checkLengths()
        try configuration.checkSettings()
        try control.begin(.density)
        return try DensityPlanner.compute(
            MemoryPointSource(points: points, projection: projection),
            configuration: configuration, control: control
        ).grid
    }

    /// The box of the finite points (non-finite ones are refused later by
    /// the accumulator, naming them), on all cores, polling cancellation.
    package static func bounds(of points: PlanePoints, control: ComputeControl) throws -> PlaneBox {
        let n = points.count
        let chunk = 1 << 14
        let chunks = (n + chunk - 1) / chunk
        var boxes = [PlaneBox](repeating: .empty, count: chunks)
        try points.x.withUnsafeBufferPointer { xs in
            try points.y.withUnsafeBufferPointer { ys in
                try boxes.withUnsafeMutableBufferPointer { boxes in
                    let xs = xs.baseAddress!, ys = ys.baseAddress!, out = boxes.baseAddress!
                    try Parallel.forEach(chunks) { c in
                        try control.checkCancellation()
                        let range = c * chunk..<min(n, (c + 1) * chunk)
                        // All finite, as nearly always: vector steps (``PointSweep``).
                        if let box = PointSweep.box(x: xs, y: ys, range: range) {
                            out[c] = box
                            return
                        }
                        var minX = Double.infinity, maxX = -Double.infinity
                        var minY = Double.infinity, maxY = -Double.infinity
                        for i in range {
                            let px = xs[i], py = ys[i]
                            guard px.isFinite, py.isFinite else { continue }
                            minX = min(minX, px); maxX = max(maxX, px)
                            minY = min(minY, py); maxY = max(maxY, py)
                        }
                        out[c] = PlaneBox(minX: minX, minY: minY, maxX: maxX, maxY: maxY)
                    }
                }
            }
        }
        return boxes.reduce(into: PlaneBox.empty) { $0.formUnion($1) }
    }
}
