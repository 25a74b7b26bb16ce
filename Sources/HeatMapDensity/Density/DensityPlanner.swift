import Foundation
import HeatMapCore

/// Points the ``DensityPlanner`` can pass over more than once: checked,
/// projected to one plane, handed out in the same order on every pass.
///
/// Points in memory (``PlanePoints``) and points streamed from a file
/// (``StreamedPoints``) are the two sources; each says only how it measures
/// and replays its points, never how the grid is planned.
protocol PlanePointSource {
    /// The points (all weights).
    var count: Int { get }
    /// The plane the points are projected to.
    var projection: PlaneProjection { get }
    /// Their spread and box, weighted, for a ``Bandwidth`` rule. A pass
    /// over the points unless the source learned it while reading.
    func spread(control: ComputeControl) throws -> BandwidthEstimator
    /// The box of every point, given the spread when a rule measured one.
    func box(spread: BandwidthEstimator?, control: ComputeControl) throws -> PlaneBox
    /// Hands out every point in batches, in order.
    func forEachBatch(control: ComputeControl, _ body: (PlanePoints) throws -> Void) throws
    /// Whether the points bring their own radii (``PlanePoints/radius``).
    var carriesRadius: Bool { get }
}

extension PlanePointSource {
    var carriesRadius: Bool { false }
}

/// Plans and fills the density grid of docs/density-model.md, for the
/// library and the tool alike: the radius rule and its floor, the
/// resolution taken from the data, the padded grid. The one place these
/// rules live.
enum DensityPlanner {
    /// What a source and a configuration make: the kernel and the grid.
    struct Plan: Sendable, Hashable {
        /// The radius used (plane units).
        package var radius: Double
        /// Cells along the longer side.
        package var resolution: Int
        /// Whether the `auto` radius was raised to ``radiusFloor(box:resolution:padding:)``.
        package var radiusRaised: Bool
        /// The box of the points.
        package var box: PlaneBox
        /// The grid's nodes.
        package var geometry: GridGeometry
        /// The largest radius of a point, when points have their own.
        package var maximumRadius: Double? = nil
        /// How the points got their own radii, when they have them.
        package var pointRadii: PointRadii? = nil
        /// What an adaptive bandwidth chose, if one ran.
        package var adaptive: AdaptiveSummary? { pointRadii?.adaptiveSummary }
        /// How the points' own radii spread, when they have them.
        package var radiusProfile: RadiusProfile? = nil
        /// The smallest resolution at which the radius's σ spans half a
        /// cell, when the grid's cells are coarser than that
        /// (``resolution(resolving:kernel:box:padding:)``); nil when they
        /// are not, and for radii per point.
        package var resolvingResolution: Int? = nil
    }

    /// The grid for `source` under `configuration`, and its plan.
    ///
    /// - Throws: `CancellationError`; ``HeatMapError`` for a grid too wide
    ///   or too large for memory, or a bad point; what the source throws.
    package static func compute<S: PlanePointSource>(
        _ source: S, configuration: HeatMapConfiguration,
        control: ComputeControl
    ) throws -> (grid: DensityGrid, plan: Plan) {
        if configuration.bandwidth.adaptiveRule != nil || source.carriesRadius {
            return try computeWithRadii(source, configuration: configuration, control: control)
        }
        let plan = try self.plan(source, configuration: configuration, control: control)
        var accumulator = try DensityAccumulator(
            geometry: plan.geometry, radius: plan.radius,
            projection: source.projection, estimator: configuration.estimator,
            method: configuration.densityMethod, kernel: configuration.kernel,
            kernelValues: configuration.kernelValues, expectedCount: source.count)
        try source.forEachBatch(control: control) { try accumulator.add($0, control: control) }
        return (try (consume accumulator).finish(control: control), plan)
    }

    /// The grid of points with a radius each: their own, or an adaptive
    /// bandwidth's (``planWithRadii(_:configuration:tileOrdered:control:)``).
    private static func computeWithRadii<S: PlanePointSource>(
        _ source: S, configuration: HeatMapConfiguration,
        control: ComputeControl
    ) throws -> (grid: DensityGrid, plan: Plan) {
        let (points, plan) = try planWithRadii(
            source, configuration: configuration, tileOrdered: true, control: control)
        var accumulator = try DensityAccumulator(
            geometry: plan.geometry, radius: plan.radius,
            projection: source.projection, estimator: configuration.estimator,
            method: configuration.densityMethod, kernel: configuration.kernel,
            kernelValues: configuration.kernelValues, maximumRadius: plan.maximumRadius,
            radiusProfile: plan.radiusProfile, expectedCount: points.count)
        try accumulator.add(points, control: control)
        var grid = try (consume accumulator).finish(control: control)
        grid.pointRadii = plan.pointRadii
        return (grid, plan)
    }

    /// Bytes a point with a radius of its own takes beyond the grid, at
    /// most: its position, weight and radius, gathered (every point is held
    /// until the grid is made: the pilot sums over each point's neighbours,
    /// and the radius classes bin their points last), the pilot's
    /// arrays, and the class's sorted copy (about 40 measured on 5 × 10⁶
    /// points, docs/performance.md), and for an adaptive bandwidth the
    /// points' copy in tiles (``TileOrder``, 24 more).
    static let bytesPerPointWithRadius = 96

    /// The plan of points with a radius each, and the points with their
    /// radii (``PlanePoints/radius``), in the source's order (unless
    /// `tileOrdered`): their own
    /// radii, or an adaptive bandwidth's. The points are gathered in
    /// memory; the radius R of the plan (the rule's, or the given one) is
    /// the pilot's and the one the density is normalised by; the grid's box
    /// holds every point padded by `paddingFactor` × its own radius as well
    /// as by `paddingFactor` × R.
    ///
    /// - Parameter tileOrdered: whether the points may come back in the
    ///   order the adaptive pilot sorts them in (``TileOrder``) rather than
    ///   the source's: for the density itself, which no order changes
    ///   beyond the rounding of its sums.
    /// - Throws: ``HeatMapError/invalidPoint(index:reason:)`` for a radius
    ///   that is not a finite number > 0; what ``plan(_:configuration:control:)`` throws.
    static func planWithRadii<S: PlanePointSource>(
        _ source: S, configuration: HeatMapConfiguration, tileOrdered: Bool = false,
        control: ComputeControl
    ) throws -> (points: PlanePoints, plan: Plan) {
        try MemoryBudget.reserve(
            MemoryBudget.product(source.count, bytesPerPointWithRadius),
            for: "holding \(source.count) points with a radius each until the density is made")
        var points = PlanePoints()
        if let memory = source as? MemoryPointSource {
            points = memory.points
        } else {
            let n = source.count
            points.x.reserveCapacity(n)
            points.y.reserveCapacity(n)
            points.weight.reserveCapacity(n)
            try source.forEachBatch(control: control) { batch in
                points.x += batch.x; points.y += batch.y; points.weight += batch.weight
                // In place: each batch costs its own length, not all so far.
                if let v = batch.value { points.value.append(contentsOf: v, reserving: n) }
                if let r = batch.radius { points.radius.append(contentsOf: r, reserving: n) }
            }
        }
        let memory = MemoryPointSource(points: points, projection: source.projection)
        var plan = try self.plan(memory, configuration: configuration, control: control)
        plan.resolvingResolution = nil
        let radii: [Double]
        let profile: RadiusProfile
        var adaptive: AdaptiveSummary?
        if configuration.bandwidth.adaptiveRule != nil, !points.weight.contains(where: { $0 > 0 }) {
            // No point with weight (none at all, or every weight 0): there is
            // no pilot to adapt to, and nothing to draw; every point keeps
            // the fixed radius, as without the adaptive bandwidth.
            radii = [Double](repeating: plan.radius, count: points.count)
            profile = RadiusProfile(radii: radii, weights: points.weight)
        } else if let rule = configuration.bandwidth.adaptiveRule {
            // The pilot's passes, and the density's after them, run over
            // the points in tiles a few radii wide (``TileOrder``).
            let tiles = try TileOrder(of: points, box: plan.box, tile: 2 * plan.radius, control: control)
            let sorted = try tiles.apply(to: points, control: control)
            let chosen = try AdaptivePilot.radii(
                of: sorted, kernel: configuration.kernel, radius: plan.radius,
                rule: rule, budgeted: true, projection: source.projection, box: plan.box,
                control: control)
            if tileOrdered {
                points = sorted
                radii = chosen.radii
            } else {
                radii = try tiles.restore(chosen.radii, control: control)
            }
            adaptive = chosen.summary
            profile = chosen.profile
        } else {
            radii = points.radius ?? []
            let geographic = source.projection.isGeographic
            for (i, r) in radii.enumerated() where !r.isFinite || PointRule.isOutside(radius: r, geographic: geographic)
            {
                throw HeatMapError.invalidPoint(
                    index: i,
                    reason: r > 0 && r.isFinite
                        ? "radius \(r) m is wider than half the globe's circumference (20015 km)"
                        : "radius \(r) is not a finite number > 0")
            }
            profile = RadiusProfile(radii: radii, weights: points.weight)
        }
        points.radius = radii
        let pad = configuration.paddingFactor
        var box = plan.box
        if !box.isEmpty {
            let r = pad * plan.radius
            box = PlaneBox(minX: box.minX - r, minY: box.minY - r, maxX: box.maxX + r, maxY: box.maxY + r)
        }
        // Each point's padded disc, by blocks on all cores.
        let blocks = Parallel.blocks(of: points.count)
        let parts = try Parallel.map(blocks.count, control: control) { b -> (PlaneBox, Double, Double) in
            var box = PlaneBox.empty, largest = 0.0, smallest = Double.infinity
            for i in blocks[b] {
                let r = pad * radii[i]
                largest = max(largest, radii[i])
                smallest = min(smallest, radii[i])
                box.formUnion(
                    PlaneBox(
                        minX: points.x[i] - r, minY: points.y[i] - r, maxX: points.x[i] + r, maxY: points.y[i] + r))
            }
            return (box, largest, smallest)
        }
        var largest = plan.radius
        var ownRange = (smallest: Double.infinity, largest: 0.0)
        for (part, widest, narrowest) in parts {
            box.formUnion(part)
            largest = max(largest, widest)
            ownRange = (min(ownRange.smallest, narrowest), max(ownRange.largest, widest))
        }
        if let rule = configuration.bandwidth.adaptiveRule {
            // (No summary: nothing was weighed, and every point kept the pilot's radius.)
            plan.pointRadii = adaptive.map {
                .adaptive(sensitivity: rule.sensitivity, trim: rule.trim, summary: $0)
            }
        } else if !radii.isEmpty {
            plan.pointRadii = .perPoint(smallest: ownRange.smallest, largest: ownRange.largest)
        }
        try GridGeometry.checkSpan(box: box, radius: largest, paddingFactor: 0)
        plan.geometry = GridGeometry.fitting(
            box: box, radius: plan.radius, paddingFactor: 0, resolution: plan.resolution)
        try checkCoverage(plan.geometry, projection: source.projection)
        plan.maximumRadius = largest
        plan.radiusProfile = profile
        return (points, plan)
    }

    /// The radius, resolution and grid for `source` under `configuration`:
    ///
    /// 1. A rule other than `.fixed` measures the points' spread
    ///    (``BandwidthEstimator``); one with nothing to measure keeps
    ///    `configuration.radius`.
    /// 2. With `.auto` and ``HeatMapConfiguration/resolutionFromData``, the
    ///    resolution is the rule's too (longer side / σ, 20…300).
    /// 3. An `.auto` radius below ``radiusFloor(box:resolution:padding:)``
    ///    is raised to it.
    /// 4. The box padded by `paddingFactor × radius` is cut into cells
    ///    (``GridGeometry/fitting(box:radius:paddingFactor:resolution:)``).
    package static func plan<S: PlanePointSource>(
        _ source: S, configuration: HeatMapConfiguration,
        control: ComputeControl
    ) throws -> Plan {
        let bandwidth = configuration.bandwidth.radiusRule
        var radius = configuration.radius
        var resolution = configuration.gridResolution
        let kernel = configuration.kernel
        let spread = bandwidth == .fixed ? nil : try source.spread(control: control)
        if let spread, let measured = spread.rule(bandwidth, projection: source.projection) {
            radius = kernelRadius(measured, bandwidth: bandwidth, kernel: kernel)
            if bandwidth == .auto, configuration.resolutionFromData, spread.weightedCount >= 2 {
                let b = spread.weightedBounds
                resolution =
                    AdaptiveRule(
                        width: b.width, height: b.height, count: spread.weightedCount,
                        radiusRange: measured...measured
                    ).resolution
            }
        }
        let box = try source.box(spread: spread, control: control)
        try checkMercatorEdge(box, projection: source.projection)
        var raised = false
        if bandwidth == .auto {
            let floor = kernelRadius(
                radiusFloor(box: box, resolution: resolution, padding: configuration.paddingFactor),
                bandwidth: bandwidth, kernel: kernel)
            if floor > radius {
                radius = floor
                raised = true
            }
        }
        try GridGeometry.checkSpan(box: box, radius: radius, paddingFactor: configuration.paddingFactor)
        let geometry = GridGeometry.fitting(
            box: box, radius: radius, paddingFactor: configuration.paddingFactor,
            resolution: resolution)
        try checkCoverage(geometry, projection: source.projection)
        var plan = Plan(radius: radius, resolution: resolution, radiusRaised: raised, box: box, geometry: geometry)
        let resolving = self.resolution(
            resolving: radius, kernel: kernel, box: box, padding: configuration.paddingFactor)
        if resolving > resolution { plan.resolvingResolution = resolving }
        return plan
    }

    /// The smallest resolution at which `radius` of `kernel` is not below
    /// the ``radiusFloor(box:resolution:padding:)`` (its σ spans half a
    /// cell): L × radiusPerSigma / (2 radius) + 3 × padding, L the box's
    /// longer side; 0 when no floor applies.
    static func resolution(resolving radius: Double, kernel: DensityKernel, box: PlaneBox, padding: Double) -> Int {
        guard !box.isEmpty, radius > 0 else { return 0 }
        let longer = max(box.width, box.height)
        let cells = 0.5 * longer * kernel.radiusPerSigma / radius + 3 * padding
        guard longer > 0, cells.isFinite, cells < Double(Int.max / 2) else { return 0 }
        return Int(cells.rounded(.up))
    }

    /// The radius of `kernel` for a rule's radius: the σ rules (`auto`,
    /// `scott`, `silverman`) give 3σ, which a finite kernel turns into the
    /// radius of the same variance per axis (σ × ``DensityKernel/radiusPerSigma``);
    /// `arcgis` gives the radius itself.
    static func kernelRadius(_ ruleRadius: Double, bandwidth: Bandwidth, kernel: DensityKernel) -> Double {
        guard kernel != .gaussian, bandwidth != .arcgis else { return ruleRadius }
        return ruleRadius / 3 * kernel.radiusPerSigma
    }

    /// Refuses points at or past web mercator's edge (±85.0511°), which it
    /// projects onto the edge itself: their kernels would pile up there,
    /// and the bands round them fold over each other once unprojected.
    ///
    /// - Throws: ``HeatMapError/invalidConfiguration(_:)`` naming the limit.
    static func checkMercatorEdge(_ box: PlaneBox, projection: PlaneProjection) throws {
        guard projection.kind == .webMercator, !box.isEmpty else { return }
        let edge = PointProjector(projection).plane(
            latitude: PlaneProjection.mercatorLatitudeLimit, longitude: projection.centreLongitude
        ).y
        guard box.maxY >= edge || box.minY <= -edge else { return }
        throw HeatMapError.invalidConfiguration(
            "points lie at or beyond latitude ±\(PlaneProjection.mercatorLatitudeLimit)°, the edge of the web-mercator projection, "
                + "which maps no place past it; the equal-area projection maps the poles")
    }

    /// Refuses a grid whose contours would not map one to one onto the
    /// sphere: an equirectangular grid that reaches past a pole (latitudes
    /// beyond ±90°; its x is stretched by 1 / cos of the centre latitude,
    /// without bound near a pole), and an equirectangular or web mercator
    /// grid that spans more than 360° of longitude (its two ends would map
    /// onto the same meridians, so its bands would overlap themselves once
    /// unprojected). Equal-area maps every plane point within its rim onto
    /// the sphere once, so it needs no check. O(1).
    ///
    /// - Throws: ``HeatMapError/invalidConfiguration(_:)`` saying where the grid goes.
    static func checkCoverage(_ geometry: GridGeometry, projection: PlaneProjection) throws {
        let deg = 180 / Double.pi
        let width = Double(geometry.columns - 1) * geometry.dx
        let span: Double
        let cause: String
        switch projection.kind {
        case .equirectangular:
            let r = PlaneProjection.authalicRadius
            let y0 = geometry.y0, y1 = geometry.y0 + Double(geometry.rows - 1) * geometry.dy
            let south = projection.centreLatitude + y0 / r * deg, north = projection.centreLatitude + y1 / r * deg
            let cosine = cos(projection.centreLatitude / deg)
            span = cosine > 0 ? width / (r * cosine) * deg : .infinity
            cause =
                "in the equirectangular projection (centred on latitude \(String(format: "%.4g", projection.centreLatitude))°); the equal-area projection maps the poles"
            if south < -90 || north > 90 {
                let past = north > 90 ? north : south
                throw HeatMapError.invalidConfiguration(
                    "the grid reaches latitude \(String(format: "%.6g", past))°, past the pole, \(cause)")
            }
        case .webMercator:
            span = width / PlaneProjection.mercatorRadius * deg
            cause = "in the web-mercator projection; the equal-area projection maps data that spans the globe"
        case .equalArea, .planar:
            return
        }
        if !(span <= 360) {
            throw HeatMapError.invalidConfiguration(
                "the grid spans \(span.isFinite ? String(format: "%.4g", span) : "unboundedly many") degrees of longitude, more than the globe, \(cause)"
            )
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
    static func radiusFloor(box: PlaneBox, resolution: Int, padding: Double) -> Double {
        guard !box.isEmpty else { return 0 }
        let longer = max(box.width, box.height)
        let cells = Double(resolution) - 3 * padding
        guard longer > 0, longer.isFinite, cells > 0 else { return 0 }
        return 1.5 * longer / cells
    }
}

/// Points in memory: one batch, the spread measured in one serial pass
/// (the weighted running sums are order-dependent, so the order is the
/// input's, as a stream's), the box on every core.
struct MemoryPointSource: PlanePointSource {
    package let points: PlanePoints
    package let projection: PlaneProjection

    package var count: Int { points.count }

    package func spread(control: ComputeControl) throws -> BandwidthEstimator {
        var estimator = BandwidthEstimator()
        for i in 0..<points.count {
            if i & 0xfff == 0 { try control.checkCancellation() }
            estimator.add(x: points.x[i], y: points.y[i], weight: points.weight[i])
        }
        return estimator
    }

    package func box(spread: BandwidthEstimator?, control: ComputeControl) throws -> PlaneBox {
        try DensityGrid.bounds(of: points, control: control)
    }

    var carriesRadius: Bool { points.radius != nil }

    package func forEachBatch(control: ComputeControl, _ body: (PlanePoints) throws -> Void) throws {
        try body(points)
    }
}

extension [Double]? {
    /// Appends `more`, making the array (with room for `capacity`) if there is none yet.
    fileprivate mutating func append(contentsOf more: [Double], reserving capacity: Int) {
        if self == nil {
            var fresh: [Double] = []
            fresh.reserveCapacity(capacity)
            self = fresh
        }
        self!.append(contentsOf: more)
    }
}
