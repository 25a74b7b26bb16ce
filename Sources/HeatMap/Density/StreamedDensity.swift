import Foundation

/// The density grid of points read by ``StreamedPoints``, computed in
/// passes so that memory does not grow with the input.
///
/// Pass 1 (done by ``StreamedPoints/read(path:options:replay:control:)``)
/// gives the projection's centre; later passes project the points to
/// measure their box and spread, then fill the grid.
package enum StreamedDensity {
    /// A grid and how it was made.
    package struct Result: Sendable {
        /// The grid.
        package var grid: DensityGrid
        /// The configuration as used: the chosen radius, and the resolution
        /// when it came from the data.
        package var configuration: HeatMapConfiguration
        /// How the radius was chosen.
        package var bandwidth: Bandwidth
        /// Whether the `auto` radius was raised to half a cell (see ``radiusFloor(box:resolution:padding:)``).
        package var radiusRaised: Bool
        /// Points used and rows rejected.
        package var summary: InputSummary

        /// Creates a result from its parts.
        package init(grid: DensityGrid, configuration: HeatMapConfiguration, bandwidth: Bandwidth, radiusRaised: Bool,
                    summary: InputSummary) {
            self.grid = grid
            self.configuration = configuration
            self.bandwidth = bandwidth
            self.radiusRaised = radiusRaised
            self.summary = summary
        }
    }

    /// The smallest radius whose σ (radius / 3) spans half a grid cell at
    /// `resolution` for points whose plane box is `box`: 1.5 L / (resolution
    /// − 3 × padding), L the box's longer side (the padded box is
    /// L + 2 × padding × radius, cut into `resolution` cells).
    ///
    /// The `auto` rule gives the mean point spacing, which for many points
    /// over a wide area is far below the cell size of a 300-cell grid;
    /// kernels narrower than a cell fall between the nodes, and the grid
    /// neither keeps the mass nor shows the density. With σ ≥ δ / 2 the
    /// sampled mass is within 1 % (the error of summing a Gaussian at
    /// spacing δ is about exp(−2π²σ²/δ²)). 0 when no floor applies.
    package static func radiusFloor(box: PlaneBox, resolution: Int, padding: Double) -> Double {
        guard !box.isEmpty else { return 0 }
        let longer = max(box.width, box.height)
        let cells = Double(resolution) - 3 * padding
        guard longer > 0, longer.isFinite, cells > 0 else { return 0 }
        return 1.5 * longer / cells
    }

    /// Computes the grid of docs/density-model.md for `points` under `configuration`, in
    /// memory O(grid + batch) whatever the number of points.
    ///
    /// Pass 2 projects the points into a ``BandwidthEstimator`` (the plane
    /// box, and the spread for the `scott` and `silverman` rules); pass 3
    /// projects them again into a ``DensityAccumulator``. Planar data with
    /// a fixed radius skips pass 2: its box is known from pass 1. The grid
    /// equals ``DensityGrid/compute(points:projection:configuration:control:)``
    /// on the same points up to the rounding of summing batches in another
    /// order (bit for bit when the input fits in one batch); the `auto`
    /// rule is the estimator's, raised by ``radiusFloor(box:resolution:padding:)``.
    ///
    /// - Parameter resolutionFromData: with `Bandwidth.auto`, also take the
    ///   grid resolution from the rule (the tool's default when no
    ///   `--resolution` is given).
    /// - Throws: `CancellationError`; ``InputError`` when a re-read file
    ///   changed; ``HeatMapError`` when the grid does not fit in memory.
    package static func compute(from points: StreamedPoints, configuration: HeatMapConfiguration,
                               resolutionFromData: Bool = false,
                               control: ComputeControl = .none) throws -> Result {
        var used = configuration
        let statistics = points.statistics
        let projection = statistics.projection(configuration.projection)
        let mean = configuration.estimator == .mean

        func plane(_ batch: PointBatch) -> PlanePoints {
            var out = PlanePoints()
            if mean { out.value = [] }
            out.reserveCapacity(batch.count)
            for i in 0..<batch.count {
                let q = projection.project(latitude: batch.latitude[i], longitude: batch.longitude[i])
                out.append(x: q.x, y: q.y, weight: batch.weight[i], value: mean ? batch.value[i] : nil)
            }
            return out
        }
        // Replays the points as plane batches: reading and projecting the
        // next batch overlaps `consume` on this one.
        func forEachPlaneBatch(_ consume: (PlanePoints) throws -> Void) throws {
            try BatchPipeline.run(produce: { yield in
                try points.forEachBatch(control: control) { try yield(plane($0)) }
            }, consume: consume)
        }

        // Pass 2: the plane box and the spread (known from the first pass
        // for planar input).
        let box: PlaneBox
        if configuration.projection == .planar && configuration.bandwidth == .fixed {
            box = statistics.count == 0 ? .empty
                : PlaneBox(minX: statistics.minLongitude, minY: statistics.minLatitude,
                           maxX: statistics.maxLongitude, maxY: statistics.maxLatitude)
        } else {
            var estimator: BandwidthEstimator
            if configuration.projection == .planar, let spread = points.planarSpread {
                estimator = spread
            } else {
                estimator = BandwidthEstimator()
                control.report(.project, 0)
                var done = 0
                try forEachPlaneBatch { planes in
                    estimator.add(planes)
                    done += planes.count
                    control.report(.project, Double(done) / Double(max(points.count, 1)))
                }
            }
            box = estimator.bounds
            used.radius = estimator.radius(for: configuration.bandwidth, fixed: configuration.radius,
                                           projection: projection)
            if configuration.bandwidth == .auto, resolutionFromData, estimator.weightedCount >= 2 {
                let b = estimator.weightedBounds
                used.gridResolution = AdaptiveRule(width: b.width, height: b.height, count: estimator.weightedCount,
                                                   radiusRange: used.radius...used.radius).resolution
            }
        }
        var raised = false
        if configuration.bandwidth == .auto {
            let floor = radiusFloor(box: box, resolution: used.gridResolution, padding: used.paddingFactor)
            if floor > used.radius {
                used.radius = floor
                raised = true
            }
        }
        used.bandwidth = .fixed

        // Pass 3: fill the grid.
        try GridGeometry.checkSpan(box: box, radius: used.radius, paddingFactor: used.paddingFactor)
        let geometry = GridGeometry.fitting(box: box, radius: used.radius, paddingFactor: used.paddingFactor,
                                            resolution: used.gridResolution)
        var accumulator = try DensityAccumulator(geometry: geometry, radius: used.radius, projection: projection,
                                                 estimator: configuration.estimator,
                                                 method: configuration.densityMethod, expectedCount: points.count)
        try forEachPlaneBatch { try accumulator.add($0, control: control) }
        let grid = try accumulator.finish(control: control)
        let summary = InputSummary(used: points.count, rejected: points.rejections.byReason)
        return Result(grid: grid, configuration: used, bandwidth: configuration.bandwidth,
                      radiusRaised: raised, summary: summary)
    }
}
