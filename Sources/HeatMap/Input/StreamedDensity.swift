import Foundation

/// The density grid of points read by ``StreamedPoints``, computed in
/// passes so that memory does not grow with the input.
///
/// Pass 1 (done by ``StreamedPoints/read(path:options:replay:control:)``)
/// gives the projection's centre and the `auto` radius; a later pass
/// projects the points and fills the grid.
public enum StreamedDensity {
    /// A grid and how it was made.
    public struct Result: Sendable {
        /// The grid.
        public var grid: DensityGrid
        /// The configuration as used: the chosen radius, and the resolution
        /// when it came from the data.
        public var configuration: HeatMapConfiguration
        /// How the radius was chosen.
        public var bandwidth: Bandwidth
        /// Whether the `auto` radius was raised to half a cell (see ``radiusFloor(_:projection:resolution:padding:)``).
        public var radiusRaised: Bool
        /// Points used and rows rejected.
        public var summary: InputSummary
    }

    /// The radius and resolution the `auto` rule gives for the points:
    /// the Apple package's rule (``HeatMapConfiguration/adaptive(for:)``)
    /// for geographic data; for planar data the same rule in data units,
    /// the radius kept within 10⁻⁴…1 × the longer side of the box.
    public static func automatic(_ statistics: InputStatistics, projection kind: MapProjection) -> (radius: Double, resolution: Int) {
        let n = statistics.count
        guard n >= 1 else { return (HeatMapConfiguration().radius, HeatMapConfiguration().gridResolution) }
        if kind != .planar {
            guard n >= 2, let arc = statistics.longitudeArc else {
                // adaptive(for:) keeps the defaults below two points; a
                // single point still wants a visible kernel.
                let rule = AdaptiveRule(width: 0, height: 0, count: 1, radiusRange: 50...50_000)
                return (rule.radius, rule.resolution)
            }
            let metresPerDegree = 111_320.0
            let centre = (statistics.minLatitude + statistics.maxLatitude) / 2
            let height = (statistics.maxLatitude - statistics.minLatitude) * metresPerDegree
            let width = arc.width * metresPerDegree * cos(centre * .pi / 180)
            let rule = AdaptiveRule(width: width, height: height, count: n, radiusRange: 50...50_000)
            return (rule.radius, rule.resolution)
        }
        let width = statistics.maxLongitude - statistics.minLongitude
        let height = statistics.maxLatitude - statistics.minLatitude
        let longer = max(width, height)
        guard longer > 0, longer.isFinite else { return (1, 20) }
        // Points on a line have no area: space them along it instead.
        let area = width > 0 && height > 0 ? width * height : longer * longer / Double(n)
        let rule = AdaptiveRule(width: area / longer, height: longer, count: n,
                                radiusRange: (longer * 1e-4)...longer)
        return (rule.radius, rule.resolution)
    }

    /// The smallest radius whose σ (radius / 3) spans half a grid cell at
    /// `resolution`: 1.5 L / (resolution − 3 × padding) for a data box whose
    /// longer side is L (the padded box is L + 2 × padding × radius).
    ///
    /// The `auto` rule gives the mean point spacing, which for many points
    /// over a wide area is far below the cell size of a 300-cell grid;
    /// kernels narrower than a cell fall between the nodes, and the grid
    /// neither keeps the mass nor shows the density. With σ ≥ δ / 2 the
    /// sampled mass is within 1 % (the error of summing a Gaussian at
    /// spacing δ is about exp(−2π²σ²/δ²)). 0 when no floor applies.
    public static func radiusFloor(_ statistics: InputStatistics, projection kind: MapProjection,
                                   resolution: Int, padding: Double) -> Double {
        guard statistics.count >= 2 else { return 0 }
        let width: Double, height: Double
        if kind == .planar {
            width = statistics.maxLongitude - statistics.minLongitude
            height = statistics.maxLatitude - statistics.minLatitude
        } else {
            guard let arc = statistics.longitudeArc else { return 0 }
            let metresPerDegree = 111_320.0
            let centre = (statistics.minLatitude + statistics.maxLatitude) / 2
            height = (statistics.maxLatitude - statistics.minLatitude) * metresPerDegree
            width = arc.width * metresPerDegree * cos(centre * .pi / 180)
        }
        let longer = max(width, height)
        let cells = Double(resolution) - 3 * padding
        guard longer > 0, longer.isFinite, cells > 0 else { return 0 }
        return 1.5 * longer / cells
    }

    /// Computes the grid of §4 for `points` under `configuration`.
    ///
    /// - Parameter resolutionFromData: with `Bandwidth.auto`, also take the
    ///   grid resolution from the rule (the tool's default when no
    ///   `--resolution` is given).
    /// - Throws: `CancellationError`; ``InputError`` when a re-read file changed.
    public static func compute(from points: StreamedPoints, configuration: HeatMapConfiguration,
                               resolutionFromData: Bool = false,
                               control: ComputeControl = .none) throws -> Result {
        var used = configuration
        let statistics = points.statistics
        let projection = statistics.projection(configuration.projection)
        var raised = false
        if configuration.bandwidth == .auto {
            let rule = automatic(statistics, projection: configuration.projection)
            used.radius = rule.radius
            if resolutionFromData { used.gridResolution = rule.resolution }
            used.bandwidth = .fixed
            let floor = radiusFloor(statistics, projection: configuration.projection,
                                    resolution: used.gridResolution, padding: used.paddingFactor)
            if floor > used.radius {
                used.radius = floor
                raised = true
            }
        }
        let mean = configuration.estimator == .mean
        var plane = PlanePoints()
        if mean { plane.value = [] }
        plane.reserveCapacity(points.count)
        control.report(.project, 0)
        var done = 0
        try points.forEachBatch(control: control) { batch in
            for i in 0..<batch.count {
                let q = projection.project(latitude: batch.latitude[i], longitude: batch.longitude[i])
                plane.append(x: q.x, y: q.y, weight: batch.weight[i], value: mean ? batch.value[i] : nil)
            }
            done += batch.count
            control.report(.project, Double(done) / Double(max(points.count, 1)))
        }
        try control.checkCancellation()
        var grid = try DensityGrid.compute(points: plane, projection: projection, configuration: used,
                                           control: control)
        if configuration.bandwidth == .auto { grid.radius = used.radius }
        used.radius = grid.radius
        let summary = InputSummary(used: points.count, rejected: points.rejections.byReason)
        return Result(grid: grid, configuration: used, bandwidth: configuration.bandwidth,
                      radiusRaised: raised, summary: summary)
    }
}
