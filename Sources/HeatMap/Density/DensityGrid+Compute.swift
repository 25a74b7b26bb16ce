import Foundation

extension DensityGrid {
    /// The density grid of docs/density-model.md for points already in the plane: chooses the
    /// radius (``Bandwidth``), fits the grid to the points and fills it.
    ///
    /// The same code as streamed input: a ``BandwidthEstimator`` (for rules
    /// other than `.fixed`) and one ``DensityAccumulator`` batch, so the
    /// grid is the same bit for bit as a streamed run over the same points.
    /// `configuration.densityMethod` picks the algorithm (`.automatic`: the
    /// fastest one within the accuracy bound); all cores are used and
    /// `control` is polled throughout. The radius used is reported in
    /// ``DensityGrid/radius``.
    ///
    /// Zero points give an all-zero grid (all NaN for the mean estimator)
    /// around the origin; all-zero weights likewise, on the points' box.
    ///
    /// - Throws: `CancellationError`; ``HeatMapError`` for a non-finite or
    ///   negatively weighted point or a grid too large for memory.
    public static func compute(points: PlanePoints, projection: PlaneProjection,
                               configuration: HeatMapConfiguration,
                               control: ComputeControl = .none) throws -> DensityGrid {
        try control.begin(.density)
        var radius = configuration.radius
        if configuration.bandwidth != .fixed {
            var estimator = BandwidthEstimator()
            for i in 0..<points.count {
                if i & 0xfff == 0 { try control.checkCancellation() }
                estimator.add(x: points.x[i], y: points.y[i], weight: points.weight[i])
            }
            radius = estimator.radius(for: configuration.bandwidth, fixed: radius, projection: projection)
        }
        let box = try bounds(of: points, control: control)
        try GridGeometry.checkSpan(box: box, radius: radius, paddingFactor: configuration.paddingFactor)
        let geometry = GridGeometry.fitting(box: box, radius: radius,
                                            paddingFactor: configuration.paddingFactor,
                                            resolution: configuration.gridResolution)
        var accumulator = try DensityAccumulator(geometry: geometry, radius: radius, projection: projection,
                                                 estimator: configuration.estimator,
                                                 method: configuration.densityMethod,
                                                 expectedCount: points.count)
        try accumulator.add(points, control: control)
        return try (consume accumulator).finish(control: control)
    }

    /// The box of the finite points (non-finite ones are refused later by
    /// the accumulator, naming them), on all cores, polling cancellation.
    static func bounds(of points: PlanePoints, control: ComputeControl) throws -> PlaneBox {
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
                        var minX = Double.infinity, maxX = -Double.infinity
                        var minY = Double.infinity, maxY = -Double.infinity
                        for i in c * chunk ..< min(n, (c + 1) * chunk) {
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
