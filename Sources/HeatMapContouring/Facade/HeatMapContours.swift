import Foundation
import Synchronization
import HeatMapCore
import HeatMapDensity

/// Contours computed from weighted points: the bands of the density field,
/// ready to draw, export, or hit-test.
///
/// ```swift
/// let result = try await HeatMapContours.compute(from: quakes,
///     configuration: HeatMapConfiguration(radius: 25_000, levelSpacing: .nice))
/// for band in result.contours { print(band.level, band.threshold, result.units) }
/// let here = result.contours(containing: LocationCoordinate2D(latitude: -20, longitude: 180))
/// ```
///
/// `contours` are bands, ordered from the lowest level up: each polygon is
/// the region of its level minus the next level's regions (its holes).
public struct HeatMapContours: Sendable, Equatable {
    /// Equal when the level counts and the polygon ids (in order) are.
    public static func == (lhs: HeatMapContours, rhs: HeatMapContours) -> Bool {
        lhs.levelCount == rhs.levelCount && lhs.contours.map(\.id) == rhs.contours.map(\.id)
    }

    /// The band polygons, lowest level first (made on first use, so an
    /// export that only needs ``contourSet`` never pays for them).
    public var contours: [HeatMapPolygon] { derived.polygons }
    /// The thresholds used, ascending (the grid's units).
    public let thresholds: [Double]
    /// The configuration the contours were computed with.
    public let configuration: HeatMapConfiguration
    /// The density grid behind the contours.
    public var grid: DensityGrid { derived.grid }
    /// Every kind of contour geometry, in the plane (assembled on first
    /// use: ``contours`` and a GeoJSON export assemble one band at a time
    /// and never need it).
    public var contourSet: ContourSet { derived.contourSet }
    /// What the input held: points used, and why others were left out.
    public let summary: InputSummary
    private let derived: Derived
    package var index: PolygonIndex { derived.index }

    /// The band polygons of ``contours``, made on first use with every core
    /// and polling `control` as they are unprojected. O(vertices).
    /// - Throws: `CancellationError`; a later call starts again.
    public func polygons(control: ComputeControl) throws -> [HeatMapPolygon] {
        try derived.polygons(control: control)
    }

    /// The band polygons of ``contours``, made off the caller's actor:
    /// cancelling the calling task throws `CancellationError` within
    /// milliseconds.
    public func polygons() async throws -> [HeatMapPolygon] {
        let derived = self.derived
        return try await BackgroundWork.run { control in try derived.polygons(control: control) }
    }

    /// The number of band polygons.
    public var contourCount: Int { contours.count }
    /// The number of thresholds actually used.
    public var levelCount: Int { thresholds.count }
    /// The kernel radius used (metres, or planar units), also when chosen by a rule.
    public var radius: Double { grid.radius }
    /// The projection of the grid's plane.
    public var projection: PlaneProjection { grid.projection }
    /// The unit of thresholds and values, e.g. "per km²".
    public var units: String { grid.units }
    /// The gradient of the configuration (for rendering).
    public var gradient: HeatMapGradient { configuration.gradient }
    /// The fill opacity of the configuration (for rendering).
    public var fillOpacity: Double { configuration.fillOpacity }
    /// The render mode of the configuration (for rendering).
    public var renderMode: HeatMapRenderMode { configuration.renderMode }

    package init(grid: DensityGrid, contourSet: ContourSet, configuration: HeatMapConfiguration, summary: InputSummary) {
        self.thresholds = contourSet.thresholds
        self.configuration = configuration
        self.summary = summary
        self.derived = Derived(grid: grid, contourSet: contourSet)
    }

    package init(grid: DensityGrid, pieces: ContourPieces, kinds: ContourKinds, configuration: HeatMapConfiguration,
         summary: InputSummary) {
        self.thresholds = pieces.thresholds
        self.configuration = configuration
        self.summary = summary
        self.derived = Derived(grid: grid, pieces: pieces, kinds: kinds)
    }

    /// The contours as a writer reads them, level by level (see ``ContourSource``).
    package var source: any ContourSource { derived.source }

    /// The grid and the contours, and what is derived from them on first
    /// use, once, under a lock: the contour set (when the contours were
    /// kept as pieces), the geographic polygons and the hit-test index. The
    /// only holder of them, so that the last copy of a result let go (a
    /// cancelled client task unwinding, say) frees its gigabyte of arrays on
    /// a background thread, not the caller's.
    private final class Derived: @unchecked Sendable {
        private let lock = NSLock()
        package let grid: DensityGrid
        package let thresholds: [Double]
        /// The kinds the contour set holds.
        private let kinds: ContourKinds
        /// The contours as pieces until the set is made from them.
        private var pieces: ContourPieces?
        private var set: ContourSet?
        private var cachedPolygons: [HeatMapPolygon]?
        private var cachedIndex: PolygonIndex?

        package init(grid: DensityGrid, contourSet: ContourSet) {
            self.grid = grid
            self.thresholds = contourSet.thresholds
            self.kinds = .all
            self.set = contourSet
        }

        package init(grid: DensityGrid, pieces: ContourPieces, kinds: ContourKinds) {
            self.grid = grid
            self.thresholds = pieces.thresholds
            self.kinds = kinds
            self.pieces = pieces
        }

        deinit {
            DeferredRelease.release((grid, pieces, set, cachedPolygons, cachedIndex))
        }

        /// The contour set, made from the pieces on first use (which lets them go).
        package var contourSet: ContourSet {
            lock.withLock { madeSet() }
        }

        /// What a writer reads level by level: the set if it is made, else
        /// the pieces, which make each level when it is read.
        package var source: any ContourSource {
            lock.withLock {
                if let set { return set }
                return pieces!
            }
        }

        /// Call with the lock held.
        private func madeSet() -> ContourSet {
            if let set { return set }
            let made: ContourSet
            do {
                // Only cancellation can fail, and this control never cancels.
                made = try ContourPieces.contourSet(of: pieces.take()!, kinds: kinds, control: .none)
            } catch {
                made = ContourSet(thresholds: thresholds, levels: [], bands: [], isolines: [])
            }
            set = made
            return made
        }

        package var polygons: [HeatMapPolygon] {
            // Only cancellation can fail, and this control never cancels.
            (try? polygons(control: .none)) ?? []
        }

        package func polygons(control: ComputeControl) throws -> [HeatMapPolygon] {
            try lock.withLock {
                if let cachedPolygons { return cachedPolygons }
                let made = try makePolygons(control: control)
                cachedPolygons = made
                return made
            }
        }

        package var index: PolygonIndex {
            lock.withLock {
                if let cachedIndex { return cachedIndex }
                let made = PolygonIndex(bands: madeSet().bands)
                cachedIndex = made
                return made
            }
        }

        /// Unprojects every band, levels on every core, polling `control`
        /// every ``pollInterval`` vertices (within long rings too). Bands
        /// kept as pieces are assembled one at a time, and not kept.
        private func makePolygons(control: ComputeControl) throws -> [HeatMapPolygon] {
            let projection = grid.projection, unprojection = Unprojection(grid.projection)
            let source: any ContourSource = set ?? pieces!
            let thresholds = self.thresholds
            let levelCount = kinds.contains(.bands) ? thresholds.count : 0
            // Bands still held as pieces are assembled here.
            let assembling = set == nil && levelCount > 0
            if assembling { try control.begin(.assemble) }
            let done = Atomic<Int>(0)
            let perLevel = try Parallel.map(levelCount, control: control) { level in
                let bands = try source.polygons(.bands, level: level, control: control)
                if assembling {
                    control.report(.assemble, Double(done.add(1, ordering: .relaxed).newValue) / Double(levelCount))
                }
                var out: [HeatMapPolygon] = []
                out.reserveCapacity(bands.count)
                var budget = Derived.pollInterval
                do {
                    for (k, polygon) in bands.enumerated() {
                        out.append(HeatMapPolygon(
                            id: StableID.make(level: level, index: k, polygon: polygon),
                            level: level,
                            threshold: thresholds[level],
                            coordinates: try Derived.unprojected(polygon.exterior, unprojection, control, &budget),
                            interiorPolygons: try polygon.holes.map {
                                try Derived.unprojected($0, unprojection, control, &budget)
                            },
                            isGeographic: projection.isGeographic))
                    }
                } catch {
                    DeferredRelease.release(out)
                    throw error
                }
                return out
            }
            var polygons: [HeatMapPolygon] = []
            polygons.reserveCapacity(perLevel.reduce(0) { $0 + $1.count })
            for level in perLevel { polygons.append(contentsOf: level) }
            return polygons
        }

        /// Vertices unprojected between cancellation polls.
        static let pollInterval = 1 << 15

        /// `ring` unprojected; `budget` counts down the vertices left before the next poll.
        private static func unprojected(_ ring: [PlanePoint], _ projection: Unprojection, _ control: ComputeControl,
                                        _ budget: inout Int) throws -> [LocationCoordinate2D] {
            var out: [LocationCoordinate2D] = []
            out.reserveCapacity(ring.count)
            var start = 0
            while start < ring.count {
                if budget <= 0 {
                    try control.checkCancellation()
                    budget = pollInterval
                }
                let end = min(ring.count, start + budget)
                ring.withUnsafeBufferPointer { points in
                    projection.forEachCoordinate(UnsafeBufferPointer(rebasing: points[start..<end])) { _, c in out.append(c) }
                }
                budget -= end - start
                start = end
            }
            return out
        }
    }
}

// MARK: - Computing

extension HeatMapContours {
    /// Computes band contours from points, synchronously.
    ///
    /// Points with a non-finite coordinate, a latitude outside [-90, 90], a
    /// longitude outside [-180, 360) or a negative or non-finite weight are
    /// left out and counted in ``summary``; use ``compute(from:configuration:control:strict:)``
    /// to have them refused instead. Cost: O(N + cells × kernel width +
    /// contour vertices); uses every core. This overload cannot report a
    /// failure: a job larger than the memory left (docs/faults.md) gives an
    /// empty result, where the throwing overloads throw a ``HeatMapError``.
    public static func compute<P: HeatMapable>(
        from points: [P],
        configuration: HeatMapConfiguration = HeatMapConfiguration()
    ) -> HeatMapContours {
        // This control never cancels; what else can fail is a job too
        // large for the memory left, which gives the empty result.
        (try? compute(from: points, configuration: configuration, control: .none, strict: false))
            ?? HeatMapContours.empty(configuration: configuration)
    }

    /// Computes band contours from points off the caller's actor.
    ///
    /// Cancelling the calling task stops every stage within milliseconds
    /// and throws `CancellationError`. Bad points are left out as in the
    /// synchronous overload.
    public static func compute<P: HeatMapable>(
        from points: [P],
        configuration: HeatMapConfiguration = HeatMapConfiguration()
    ) async throws -> HeatMapContours {
        try await compute(from: points, configuration: configuration, progress: nil)
    }

    /// Computes band contours off the caller's actor, reporting progress.
    ///
    /// - Parameters:
    ///   - points: the points; bad ones are left out and counted in ``summary``.
    ///   - configuration: everything that shapes the computation.
    ///   - progress: called (from any thread) as each stage advances.
    /// - Throws: `CancellationError` when the task is cancelled.
    public static func compute<P: HeatMapable>(
        from points: [P],
        configuration: HeatMapConfiguration = HeatMapConfiguration(),
        progress: (@Sendable (HeatMapProgress) -> Void)?
    ) async throws -> HeatMapContours {
        try await BackgroundWork.run { control in
            var control = control
            control.progress = progress
            return try compute(from: points, configuration: configuration, control: control, strict: false)
        }
    }

    /// Computes band contours with explicit control over cancellation,
    /// progress and bad input.
    ///
    /// - Parameters:
    ///   - points: the points.
    ///   - configuration: everything that shapes the computation.
    ///   - control: cancellation and progress reports.
    ///   - strict: when true, the first bad point throws
    ///     ``HeatMapError/invalidPoint(index:reason:)`` instead of being left out.
    public static func compute<P: HeatMapable>(
        from points: [P],
        configuration: HeatMapConfiguration,
        control: ComputeControl,
        strict: Bool = false
    ) throws -> HeatMapContours {
        let prepared = try PointPreparation.prepare(points, configuration: configuration, strict: strict,
                                                    control: control)
        let grid = try DensityGrid.compute(points: prepared.points, projection: prepared.projection,
                                           configuration: configuration, control: control)
        return try compute(from: grid, configuration: configuration, control: control, summary: prepared.summary)
    }

    /// Contours of a grid computed elsewhere (streamed input, a grid file,
    /// aggregates from a database).
    ///
    /// - Parameters:
    ///   - grid: the density (or any) grid to contour.
    ///   - configuration: levels, spacing and smoothing (the density
    ///     settings are the grid's own).
    ///   - control: cancellation and progress reports.
    ///   - summary: what the grid was made from, kept in ``summary``.
    ///   - kinds: the kinds of ``contourSet`` to build; the others
    ///     are left empty. ``contours`` and the hit tests read the bands, so
    ///     they are empty without `.bands`. An export of one kind builds only
    ///     that one, in less time and memory. Levels are traced and their
    ///     smoothing settled here; polygons are assembled when first read.
    public static func compute(
        from grid: DensityGrid,
        configuration: HeatMapConfiguration,
        control: ComputeControl = .none,
        summary: InputSummary = InputSummary(),
        kinds: ContourKinds = .all
    ) throws -> HeatMapContours {
        let thresholds = try thresholds(for: grid, configuration: configuration, control: control)
        let pieces = try ContourBuilder.pieces(grid: grid, thresholds: thresholds,
                                               smoother: configuration.smoother, control: control)
        if control.isCancelled {
            DeferredRelease.release(pieces)
            throw CancellationError()
        }
        guard configuration.simplification > 0 else {
            // Bands are assembled when first read: the polygons, an export
            // or the set itself, whichever comes first.
            return HeatMapContours(grid: grid, pieces: pieces, kinds: kinds, configuration: configuration,
                                   summary: summary)
        }
        var set = try ContourPieces.contourSet(of: pieces, kinds: kinds, control: control)
        set = try set.simplified(tolerance: configuration.simplification, on: grid, control: control)
        if control.isCancelled {
            DeferredRelease.release(set)
            throw CancellationError()
        }
        return HeatMapContours(grid: grid, contourSet: set, configuration: configuration, summary: summary)
    }

    /// The thresholds `configuration` gives on `grid` (stage `.levels`),
    /// once the memory contouring it takes is known to be there.
    package static func thresholds(for grid: DensityGrid, configuration: HeatMapConfiguration,
                           control: ComputeControl) throws -> [Double] {
        try control.begin(.levels)
        let g = grid.geometry
        try MemoryBudget.reserve(ContourBuilder.bytesNeeded(cells: grid.values.count),
                                 for: "contouring the grid of \(g.columns) × \(g.rows) nodes")
        return try ThresholdResolver.thresholds(for: configuration.levelSpacing,
                                                levelCount: configuration.contourLevels, grid: grid,
                                                control: control)
    }

    package static func empty(configuration: HeatMapConfiguration) -> HeatMapContours {
        let projection = PlaneProjection(kind: configuration.projection)
        let geometry = GridGeometry.fitting(box: .empty, radius: configuration.radius, paddingFactor: 0,
                                            resolution: 2)
        let grid = DensityGrid(geometry: geometry, values: Array(repeating: 0, count: geometry.count),
                               projection: projection, radius: configuration.radius,
                               estimator: configuration.estimator, units: projection.densityUnits)
        return HeatMapContours(grid: grid, contourSet: ContourSet(thresholds: [], levels: [], bands: [], isolines: []),
                               configuration: configuration, summary: InputSummary())
    }
}

// MARK: - Inspecting

extension HeatMapContours {
    /// Every band polygon containing the coordinate (at most one, since
    /// bands do not overlap), found through a raster index of the ring
    /// edges: O(parts + edges in the coordinate's raster cell), about
    /// constant whatever the number of polygons, holes or vertices. The
    /// first query (of this, ``level(at:)`` or ``inspect(_:)``) assembles
    /// the plane bands and builds the index: O(V) for V vertices, on every
    /// core.
    public func contours(containing coordinate: LocationCoordinate2D) -> [HeatMapPolygon] {
        let p = grid.projection.project(coordinate)
        return index.polygons(containing: p).map { contours[$0] }
    }

    /// The band level at a plane point, or nil below the lowest threshold.
    /// Same cost as ``contours(containing:)``.
    public func level(at point: PlanePoint) -> Int? {
        index.highestPolygon(containing: point).map { contours[$0].level }
    }

    /// What lies under a coordinate: the interpolated value and its band.
    public func inspect(_ coordinate: LocationCoordinate2D) -> HeatMapInspection {
        let p = grid.projection.project(coordinate)
        let level = self.level(at: p)
        return HeatMapInspection(
            coordinate: coordinate,
            value: grid.value(at: p),
            level: level,
            threshold: level.map { thresholds[$0] },
            upper: level.flatMap { $0 + 1 < thresholds.count ? thresholds[$0 + 1] : nil },
            units: units)
    }
}

/// The answer to a tap: the value under a coordinate and the band it is in.
public struct HeatMapInspection: Sendable, Hashable {
    /// The coordinate asked about.
    public var coordinate: LocationCoordinate2D
    /// The grid value there, bilinearly interpolated; nil outside the grid
    /// or where the mean is undefined.
    public var value: Double?
    /// The band level, or nil below the lowest threshold.
    public var level: Int?
    /// The band's lower bound.
    public var threshold: Double?
    /// The band's upper bound (nil for the top band or no band).
    public var upper: Double?
    /// The unit of the values.
    public var units: String
}
