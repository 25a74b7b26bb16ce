import Foundation
import HeatMapCore

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
        /// What an adaptive bandwidth chose, if one ran.
        package var adaptive: AdaptiveSummary?
        /// The largest radius of a point, when points have their own.
        package var maximumRadius: Double?

        /// Creates a result from its parts.
        package init(
            grid: DensityGrid, configuration: HeatMapConfiguration, bandwidth: Bandwidth, radiusRaised: Bool,
            summary: InputSummary
        ) {
            self.grid = grid
            self.configuration = configuration
            self.bandwidth = bandwidth
            self.radiusRaised = radiusRaised
            self.summary = summary
        }
    }

    /// The smallest radius the `auto` rule may give on this grid: σ spans
    /// half a cell (``DensityPlanner/radiusFloor(box:resolution:padding:)``).
    static func radiusFloor(box: PlaneBox, resolution: Int, padding: Double) -> Double {
        DensityPlanner.radiusFloor(box: box, resolution: resolution, padding: padding)
    }

    /// Computes the grid of docs/density-model.md for `points` under `configuration`, in
    /// memory O(grid + batch) whatever the number of points.
    ///
    /// The ``DensityPlanner`` plans it, as it plans
    /// ``DensityGrid/compute(points:projection:configuration:control:)``:
    /// pass 2 projects the points into a ``BandwidthEstimator`` (the plane
    /// box, and the spread for the rules), pass 3 projects them again into
    /// a ``DensityAccumulator``. Planar data skips pass 2: its box and
    /// spread are known from pass 1. The grid equals the in-memory one on
    /// the same points up to the rounding of summing batches in another
    /// order (bit for bit when the input fits in one batch).
    ///
    /// - Parameter resolutionFromData: with `Bandwidth.auto`, also take the
    ///   grid resolution from the rule (the tool's default when no
    ///   `--resolution` is given), as ``HeatMapConfiguration/resolutionFromData`` does.
    /// - Throws: `CancellationError`; ``InputError`` when a re-read file
    ///   changed; ``HeatMapError`` when the grid does not fit in memory.
    package static func compute(
        from points: StreamedPoints, configuration: HeatMapConfiguration,
        resolutionFromData: Bool = false,
        control: ComputeControl = .none
    ) throws -> Result {
        try compute(
            from: points, configuration: configuration, resolutionFromData: resolutionFromData,
            batchSize: StreamedPoints.batchSize, control: control)
    }

    /// ``compute(from:configuration:resolutionFromData:control:)`` with
    /// batches of `batchSize` points (tests of the summation order).
    package static func compute(
        from points: StreamedPoints, configuration: HeatMapConfiguration,
        resolutionFromData: Bool, batchSize: Int,
        control: ComputeControl
    ) throws -> Result {
        var asked = configuration
        if resolutionFromData { asked.resolutionFromData = true }
        let source = StreamedPointSource(
            points: points, configuration: configuration, batchSize: batchSize)
        let (grid, plan) = try DensityPlanner.compute(source, configuration: asked, control: control)
        var used = configuration
        used.radius = plan.radius
        used.gridResolution = plan.resolution
        used.bandwidth = used.bandwidth.fixingRadius()
        used.resolutionFromData = false
        let summary = InputSummary(used: points.count, rejected: points.rejections.byReason)
        var result = Result(
            grid: grid, configuration: used, bandwidth: configuration.bandwidth.radiusRule,
            radiusRaised: plan.radiusRaised, summary: summary)
        result.adaptive = plan.adaptive
        result.maximumRadius = plan.maximumRadius
        return result
    }
}

/// Streamed points as the planner passes over them: each pass reads the
/// points again (from the spool or the file) and projects them, reading
/// the next batch while the last one is used.
struct StreamedPointSource: PlanePointSource {
    package let points: StreamedPoints
    package let projection: PlaneProjection
    let batchSize: Int
    private let mean: Bool

    /// The points in the plane of `configuration.projection`, with their
    /// values when the estimator is the mean, and their radii when they
    /// bring their own.
    package init(points: StreamedPoints, configuration: HeatMapConfiguration, batchSize: Int) {
        self.points = points
        self.batchSize = batchSize
        projection = points.statistics.projection(configuration.projection)
        mean = configuration.estimator == .mean
    }

    var carriesRadius: Bool { points.carriesRadius }

    package var count: Int { points.count }

    /// Pass 2, unless planar: the first pass measured planar points as read.
    package func spread(control: ComputeControl) throws -> BandwidthEstimator {
        if projection.kind == .planar, let spread = points.planarSpread { return spread }
        var estimator = BandwidthEstimator()
        control.report(.project, 0)
        var done = 0
        try forEachBatch(control: control) { planes in
            estimator.add(planes)
            done += planes.count
            control.report(.project, Double(done) / Double(max(points.count, 1)))
        }
        return estimator
    }

    package func box(spread: BandwidthEstimator?, control: ComputeControl) throws -> PlaneBox {
        if let spread { return spread.bounds }
        let s = points.statistics
        if projection.kind == .planar {
            return s.count == 0
                ? .empty
                : PlaneBox(minX: s.minLongitude, minY: s.minLatitude, maxX: s.maxLongitude, maxY: s.maxLatitude)
        }
        return try self.spread(control: control).bounds
    }

    package func forEachBatch(control: ComputeControl, _ body: (PlanePoints) throws -> Void) throws {
        try BatchPipeline.run(
            produce: { yield in
                try points.forEachBatch(size: batchSize, control: control) { try yield(plane($0)) }
            }, consume: body)
    }

    private func plane(_ batch: PointBatch) -> PlanePoints {
        var out = PlanePoints()
        if mean { out.value = [] }
        let radii = carriesRadius
        if radii { out.radius = [] }
        out.reserveCapacity(batch.count)
        let projector = PointProjector(projection)
        for i in 0..<batch.count {
            let q = projector.plane(latitude: batch.latitude[i], longitude: batch.longitude[i])
            out.append(
                x: q.x, y: q.y, weight: batch.weight[i], value: mean ? batch.value[i] : nil,
                radius: radii ? batch.radius[i] : nil)
        }
        return out
    }
}
