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
        package var adaptive: AdaptiveSummary? { grid.pointRadii?.adaptiveSummary }
        /// The largest radius of a point, when points have their own.
        package var maximumRadius: Double?
        /// The smallest resolution at which the radius's σ spans half a
        /// cell, when the grid is coarser than that (a given radius far
        /// narrower than the cells: the grid misses most of each kernel).
        package var resolvingResolution: Int?

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
    /// memory O(grid + batch) whatever the number of points, plus the
    /// projected points while they fit in ``PlaneBatches/limit(bytesPerPoint:)``.
    ///
    /// The ``DensityPlanner`` plans it, as it plans
    /// ``DensityGrid/compute(points:projection:configuration:control:)``:
    /// pass 2 projects the points into a ``BandwidthEstimator`` (the plane
    /// box, and the spread for the rules), pass 3 hands the same projected
    /// points (kept from pass 2, or projected again) to a
    /// ``DensityAccumulator``. Planar data skips pass 2: its box and
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
    /// batches of `batchSize` points (tests of the summation order), and
    /// at most `keptPoints` projected points kept between passes (nil: as
    /// many as ``PlaneBatches/limit(bytesPerPoint:)`` allows).
    package static func compute(
        from points: StreamedPoints, configuration: HeatMapConfiguration,
        resolutionFromData: Bool, batchSize: Int, keptPoints: Int? = nil,
        control: ComputeControl
    ) throws -> Result {
        var asked = configuration
        if resolutionFromData { asked.resolutionFromData = true }
        let source = StreamedPointSource(
            points: points, configuration: configuration, batchSize: batchSize, keptPoints: keptPoints)
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
        result.maximumRadius = plan.maximumRadius
        result.resolvingResolution = plan.resolvingResolution
        return result
    }
}

/// Streamed points as the planner passes over them: each pass reads the
/// points again (from the spool or the file) and projects them, reading
/// the next batch while the last one is used. The first pass that projects
/// them keeps the projected batches in memory when they fit in
/// ``PlaneBatches/limit(bytesPerPoint:)``, and later passes hand those out
/// instead of reading and projecting again.
struct StreamedPointSource: PlanePointSource {
    package let points: StreamedPoints
    package let projection: PlaneProjection
    let batchSize: Int
    private let mean: Bool
    private let kept: PlaneBatches

    /// The points in the plane of `configuration.projection`, with their
    /// values when the estimator is the mean, and their radii when they
    /// bring their own; at most `keptPoints` of them kept between passes
    /// (nil: ``PlaneBatches/limit(bytesPerPoint:)``).
    package init(
        points: StreamedPoints, configuration: HeatMapConfiguration, batchSize: Int, keptPoints: Int? = nil
    ) {
        self.points = points
        self.batchSize = batchSize
        projection = points.statistics.projection(configuration.projection)
        mean = configuration.estimator == .mean
        let bytesPerPoint = MemoryLayout<Double>.stride * (3 + (mean ? 1 : 0) + (points.carriesRadius ? 1 : 0))
        kept = PlaneBatches(limit: keptPoints ?? PlaneBatches.limit(bytesPerPoint: bytesPerPoint))
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
        // A pass for the box alone: no rule needs the spread (a given radius).
        var box = PlaneBox.empty
        control.report(.project, 0)
        var done = 0
        try forEachBatch(control: control) { planes in
            for i in 0..<planes.count {
                let x = planes.x[i], y = planes.y[i]
                // The box the spread would have (``BandwidthEstimator/bounds``).
                guard BandwidthEstimator.measures(x: x, y: y, weight: planes.weight[i]) else { continue }
                box.formUnion(PlanePoint(x: x, y: y))
            }
            done += planes.count
            control.report(.project, Double(done) / Double(max(points.count, 1)))
        }
        return box
    }

    package func forEachBatch(control: ComputeControl, _ body: (PlanePoints) throws -> Void) throws {
        if let batches = kept.batches {
            for batch in batches {
                try control.checkCancellation()
                try body(batch)
            }
            return
        }
        // Planar points cost nothing to "project": keeping them would only
        // add memory.
        let keeping = projection.kind != .planar && kept.begin()
        do {
            try BatchPipeline.run(
                produce: { yield in
                    try points.forEachBatch(size: batchSize, control: control) { try yield(plane($0)) }
                },
                consume: { batch in
                    if keeping { kept.add(batch) }
                    try body(batch)
                })
        } catch {
            if keeping { kept.drop() }
            throw error
        }
        if keeping { kept.finish() }
    }

    /// The batch in the plane, projected on every core in blocks: each
    /// point's image depends on it alone, so the blocks' order is free.
    private func plane(_ batch: PointBatch) -> PlanePoints {
        let n = batch.count
        let projector = PointProjector(projection)
        var x = [Double](repeating: 0, count: n), y = [Double](repeating: 0, count: n)
        let block = 16_384
        batch.withColumns { latitude, longitude, _ in
            x.withUnsafeMutableBufferPointer { xs in
                y.withUnsafeMutableBufferPointer { ys in
                    Parallel.forEach((n + block - 1) / block) { b in
                        for i in (b * block)..<min(n, (b + 1) * block) {
                            let q = projector.plane(latitude: latitude[i], longitude: longitude[i])
                            xs[i] = q.x
                            ys[i] = q.y
                        }
                    }
                }
            }
        }
        var out = PlanePoints(x: x, y: y, weight: batch.weight, value: mean ? batch.value : nil)
        if carriesRadius { out.radius = batch.radius }
        return out
    }
}

/// Projected batches of one pass kept for the next ones, as long as all of
/// them fit: a pass either keeps every batch or none.
final class PlaneBatches {
    private let limit: Int
    private var stored: [PlanePoints] = []
    private var points = 0
    private var state = State.empty
    private enum State { case empty, filling, complete, dropped }

    /// Keeps at most `limit` points.
    init(limit: Int) { self.limit = limit }

    /// The points a source may keep at `bytesPerPoint`: up to 128 MB (5.6 M
    /// points of 24 bytes), or a sixteenth of the memory still available
    /// when that is less. Beyond it each pass projects again, which costs
    /// time, not memory.
    static func limit(bytesPerPoint: Int) -> Int {
        let cap = 128 << 20
        let budget = MemoryBudget.available().map { min(cap, $0 / 16) } ?? cap
        return budget / max(bytesPerPoint, 1)
    }

    /// Every batch of a finished pass, in order; nil unless all were kept.
    var batches: [PlanePoints]? { state == .complete ? stored : nil }

    /// Starts keeping a pass; false when an earlier pass already gave up.
    func begin() -> Bool {
        guard state == .empty else { return false }
        state = .filling
        return true
    }

    /// Keeps `batch`, or drops all kept so far once they pass the limit.
    func add(_ batch: PlanePoints) {
        guard state == .filling else { return }
        points += batch.count
        if points > limit {
            drop()
        } else {
            stored.append(batch)
        }
    }

    /// Gives up keeping: the pass overflowed or failed.
    func drop() {
        state = .dropped
        stored = []
    }

    /// Ends the pass: later ones read what was kept, unless it was dropped.
    func finish() {
        if state == .filling { state = .complete }
    }
}
