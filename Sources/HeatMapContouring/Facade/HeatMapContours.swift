import Foundation
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
///
/// All the work happens in `compute`, where it is awaited (or, for the
/// synchronous overloads, on the calling thread): the bands are assembled,
/// unprojected and indexed for hit tests before it returns, under its
/// cancellation and progress reports. Reading the result afterwards costs
/// at most what is read: ``contours``, ``contourCount``, ``levelCount`` and
/// ``thresholds`` are O(1); a hit test is O(1) for the candidates plus a
/// few dozen edges. The one exception is ``contourSet`` (documented there).
public struct HeatMapContours: Sendable, Equatable {
    /// Equal when the level counts and the polygon ids (in order) are.
    /// O(1) when they differ (a fingerprint of the ids, made by `compute`),
    /// O(polygons) without allocating to confirm equality.
    public static func == (lhs: HeatMapContours, rhs: HeatMapContours) -> Bool {
        guard lhs.levelCount == rhs.levelCount, lhs.contourCount == rhs.contourCount,
            lhs.storage.bands.fingerprint == rhs.storage.bands.fingerprint
        else { return false }
        if lhs.storage === rhs.storage { return true }
        return lhs.contours.elementsEqual(rhs.contours) { $0.id == $1.id }
    }

    /// The band polygons in latitude/longitude, lowest level first. O(1):
    /// made by `compute` (empty when it was asked for `kinds` without
    /// ``ContourKinds/polygons``; see ``polygons(control:)``).
    public var contours: [HeatMapPolygon] { storage.bands.polygons }
    /// The thresholds used, ascending (the grid's units). O(1).
    public let thresholds: [Double]
    /// The configuration the contours were computed with.
    public let configuration: HeatMapConfiguration
    /// The density grid behind the contours. O(1).
    public var grid: DensityGrid { storage.grid }
    /// Every kind of contour geometry asked for, in the plane.
    ///
    /// Kept as traced pieces until first read: the first read assembles it
    /// on the calling thread, O(vertices), so read it off the main actor;
    /// later reads are O(1). It is not made in `compute` because nothing on
    /// the app's path needs it (``contours``, the hit tests and
    /// ``levels(at:)`` answer from the polygons and their index) and an
    /// export reads one level at a time: made there, it would hold a second
    /// copy of the whole geometry, in the plane, beside the polygons.
    public var contourSet: ContourSet { storage.contourSet }
    /// What the input held: points used, and why others were left out.
    public let summary: InputSummary
    /// Why the result is empty, when the synchronous
    /// ``compute(from:configuration:)-1ctq2`` could not compute it (a
    /// ``HeatMapError``: a configuration out of its domain, or not enough
    /// memory); nil for every computed result.
    public let failure: (any Error)?
    /// Why the map may not be what was expected, found by `compute`: no
    /// usable points, all weights zero, a single kernel, no level inside
    /// the grid's range, weight the equal-area grid could not hold. Empty
    /// for an ordinary map. O(1).
    public internal(set) var notes: [HeatMapNote] = []
    private let storage: Storage

    /// The band polygons of ``contours``. O(1) when `compute` made them
    /// (the default); otherwise (`kinds` without ``ContourKinds/polygons``)
    /// made now, not kept, with every core and polling `control`: O(vertices).
    /// - Throws: `CancellationError`.
    public func polygons(control: ComputeControl) throws -> [HeatMapPolygon] {
        guard !storage.kinds.contains(.polygons) else { return contours }
        return try BandPolygons.unprojected(storage.source, projection: projection, control: control)
    }

    /// The band polygons of ``contours``: O(1) when `compute` made them
    /// (the default); otherwise made off the caller's actor, and cancelling
    /// the calling task throws `CancellationError` within milliseconds.
    public func polygons() async throws -> [HeatMapPolygon] {
        guard !storage.kinds.contains(.polygons) else { return contours }
        let source = storage.source, projection = projection
        return try await BackgroundWork.run { control in
            try BandPolygons.unprojected(source, projection: projection, control: control)
        }
    }

    /// The number of band polygons. O(1).
    public var contourCount: Int { contours.count }
    /// The number of thresholds actually used. O(1).
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

    /// A result from a contour set made elsewhere, with its polygons and
    /// index, made here on the calling thread.
    package init(
        grid: DensityGrid, contourSet: ContourSet, configuration: HeatMapConfiguration,
        summary: InputSummary, failure: (any Error)? = nil
    ) {
        // Only cancellation can fail, and this control never cancels.
        try! self.init(
            grid: grid, contours: .set(contourSet), kinds: .all, configuration: configuration, summary: summary,
            control: .none, failure: failure)
    }

    /// A result over `contours` (a plane set, or pieces that make each
    /// level when read), its polygons and index made here with `control`
    /// when `kinds` holds ``ContourKinds/polygons``.
    init(
        grid: DensityGrid, contours: Contours, kinds: ContourKinds, configuration: HeatMapConfiguration,
        summary: InputSummary, control: ComputeControl, failure: (any Error)? = nil
    ) throws {
        let bands =
            kinds.contains(.polygons)
            ? try BandPolygons.make(contours.source, projection: grid.projection, control: control) : .empty
        self.thresholds = contours.source.thresholds
        self.configuration = configuration
        self.summary = summary
        self.failure = failure
        self.storage = Storage(grid: grid, contours: contours, kinds: kinds, bands: bands)
    }

    /// What a result's contours are held as.
    enum Contours {
        /// The plane set, whole.
        case set(ContourSet)
        /// The traced pieces, which make each level when it is read.
        case pieces(ContourPieces)

        var source: any ContourSource {
            switch self {
            case .set(let set): set
            case .pieces(let pieces): pieces
            }
        }
    }

    /// The contours as a writer reads them, level by level (see ``ContourSource``).
    package var source: any ContourSource { storage.source }

    /// The grid, the contours (as pieces until the plane set is asked
    /// for), and the polygons with their index. The only holder of them, so
    /// that the last copy of a result let go (a cancelled client task
    /// unwinding, say) frees its gigabyte of arrays on a background thread,
    /// not the caller's.
    private final class Storage: @unchecked Sendable {
        private let lock = NSLock()
        let grid: DensityGrid
        let thresholds: [Double]
        /// The kinds asked for.
        let kinds: ContourKinds
        let bands: BandPolygons
        /// The contours as pieces until the set is made from them.
        private var pieces: ContourPieces?
        private var set: ContourSet?

        init(grid: DensityGrid, contours: Contours, kinds: ContourKinds, bands: BandPolygons) {
            self.grid = grid
            self.thresholds = contours.source.thresholds
            self.kinds = kinds
            self.bands = bands
            switch contours {
            case .set(let made): set = made
            case .pieces(let kept): pieces = kept
            }
        }

        deinit {
            DeferredRelease.release((grid, pieces, set, bands))
        }

        /// The contour set, made from the pieces on first use (which lets them go).
        var contourSet: ContourSet {
            lock.withLock {
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
        }

        /// What a writer reads level by level: the set if it is made, else
        /// the pieces, which make each level when it is read.
        var source: any ContourSource {
            lock.withLock {
                if let set { return set }
                return pieces!
            }
        }
    }
}

// MARK: - Computing

extension HeatMapContours {
    /// Computes band contours from points, synchronously, on the calling
    /// thread (the Apple package's signature).
    ///
    /// Points with a non-finite coordinate, a latitude outside [-90, 90], a
    /// longitude outside [-180, 360) or a negative or non-finite weight are
    /// left out and counted in ``summary``; use ``compute(from:configuration:control:strict:kinds:)``
    /// to have them refused instead. This overload cannot throw: when the
    /// configuration is out of its domain or the memory is not there, it
    /// returns an empty result whose ``failure`` says why. The throwing
    /// variant is ``compute(from:configuration:control:strict:kinds:)``
    /// (with `control: .none`). Cost: O(N + cells × kernel width + contour
    /// vertices), on every core; the polygons and their hit-test index are
    /// made before it returns.
    public static func compute<P: HeatMapable>(
        from points: [P],
        configuration: HeatMapConfiguration = HeatMapConfiguration()
    ) -> HeatMapContours {
        do {
            return try compute(from: points, configuration: configuration, control: .none, strict: false)
        } catch {
            return HeatMapContours.empty(configuration: configuration, failure: error)
        }
    }

    /// Computes band contours from points off the caller's actor.
    ///
    /// Everything the result answers from is made here, off the caller's
    /// actor: the grid, the contours, the band polygons in
    /// latitude/longitude and their hit-test index. Cancelling the calling
    /// task stops every stage within milliseconds and throws
    /// `CancellationError`. Bad points are left out as in the synchronous
    /// overload.
    /// - Throws: `CancellationError`; ``HeatMapError`` for a configuration
    ///   out of its domain or not enough memory.
    public static func compute<P: HeatMapable>(
        from points: [P],
        configuration: HeatMapConfiguration = HeatMapConfiguration()
    ) async throws -> HeatMapContours {
        try await compute(from: points, configuration: configuration, progress: nil)
    }

    /// Computes band contours off the caller's actor, reporting progress.
    ///
    /// - Parameter progress: called (from any thread) as each stage advances,
    ///   `.index` last.
    /// - Throws: `CancellationError` when the task is cancelled; ``HeatMapError``
    ///   as the overload without progress.
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
    /// Runs on the calling thread (with every core); with `control: .none`
    /// it is the throwing variant of the synchronous overload.
    ///
    /// - Parameters:
    ///   - strict: when true, the first bad point throws
    ///     ``HeatMapError/invalidPoint(index:reason:)`` instead of being left out.
    ///   - kinds: as in ``compute(from:configuration:control:summary:kinds:)``.
    /// - Throws: `CancellationError`; ``HeatMapError``.
    public static func compute<P: HeatMapable>(
        from points: [P],
        configuration: HeatMapConfiguration,
        control: ComputeControl,
        strict: Bool = false,
        kinds: ContourKinds = .all
    ) throws -> HeatMapContours {
        let prepared = try PointPreparation.prepare(
            points, configuration: configuration, strict: strict,
            control: control)
        let grid = try DensityGrid.compute(
            points: prepared.points, projection: prepared.projection,
            configuration: configuration, control: control)
        var result = try compute(
            from: grid, configuration: configuration, control: control, summary: prepared.summary,
            kinds: kinds)
        let onPoints = notes(on: prepared.points, leftOut: prepared.summary.rejectedCount, grid: grid)
        // A note on the points says why the grid is flat, too.
        if onPoints.contains(where: \.explainsAFlatGrid) {
            result.notes = onPoints
        } else {
            result.notes = onPoints + result.notes
        }
        return result
    }

    /// The notes on the points behind `grid` (the levels' are the grid's own).
    private static func notes(on points: PlanePoints, leftOut: Int, grid: DensityGrid) -> [HeatMapNote] {
        var weighted = 0, total = 0.0, onePlace = true
        for i in 0..<points.count {
            if points.weight[i] > 0 { weighted += 1 }
            total += points.weight[i]
            if points.x[i] != points.x[0] || points.y[i] != points.y[0] { onePlace = false }
        }
        if let note = HeatMapNote.points(
            count: points.count, weighted: weighted, atOnePlace: onePlace, leftOut: leftOut)
        {
            return [note]
        }
        return HeatMapNote.rim(grid, totalWeight: total).map { [$0] } ?? []
    }

    /// Contours of a grid computed elsewhere (streamed input, a grid file,
    /// aggregates from a database).
    ///
    /// - Parameter kinds: the kinds of ``contourSet`` to build; the others
    ///   are left empty. With ``ContourKinds/polygons`` (in the default
    ///   `.all`) the band polygons of ``contours`` and their hit-test index
    ///   are made here, stages `.assemble` and `.index`; without it
    ///   ``contours`` and the hit tests are empty, and an export of one kind
    ///   builds only that one, in less time and memory. Levels are traced
    ///   and their smoothing settled here; the plane set is assembled when
    ///   first read (see ``contourSet``).
    /// - Throws: `CancellationError`; ``HeatMapError``.
    public static func compute(
        from grid: DensityGrid,
        configuration: HeatMapConfiguration,
        control: ComputeControl = .none,
        summary: InputSummary = InputSummary(),
        kinds: ContourKinds = .all
    ) throws -> HeatMapContours {
        let thresholds = try thresholds(for: grid, configuration: configuration, control: control)
        let pieces = try ContourBuilder.pieces(
            grid: grid, thresholds: thresholds,
            smoother: configuration.smoother, control: control)
        if control.isCancelled {
            DeferredRelease.release(consume pieces)
            throw CancellationError()
        }
        let levelNote = HeatMapNote.levels(thresholds, grid: grid).map { [$0] } ?? []
        guard configuration.simplification > 0 else {
            // Bands are assembled when first read: the polygons, an export
            // or the set itself, whichever comes first.
            do {
                var result = try HeatMapContours(
                    grid: grid, contours: .pieces(pieces), kinds: kinds, configuration: configuration,
                    summary: summary, control: control)
                result.notes = levelNote
                return result
            } catch {
                DeferredRelease.release(consume pieces)
                throw error
            }
        }
        var set = try ContourPieces.contourSet(of: pieces, kinds: kinds, control: control)
        set = try set.simplified(tolerance: configuration.simplification, on: grid, control: control)
        if control.isCancelled {
            DeferredRelease.release(consume set)
            throw CancellationError()
        }
        do {
            var result = try HeatMapContours(
                grid: grid, contours: .set(set), kinds: kinds, configuration: configuration, summary: summary,
                control: control)
            result.notes = levelNote
            return result
        } catch {
            DeferredRelease.release(consume set)
            throw error
        }
    }

    /// The thresholds `configuration` gives on `grid` (stage `.levels`),
    /// once the memory contouring it takes is known to be there.
    package static func thresholds(
        for grid: DensityGrid, configuration: HeatMapConfiguration,
        control: ComputeControl
    ) throws -> [Double] {
        try control.begin(.levels)
        try configuration.checkSettings()
        let g = grid.geometry
        try MemoryBudget.reserve(
            ContourBuilder.bytesNeeded(cells: grid.values.count),
            for: "contouring the grid of \(g.columns) × \(g.rows) nodes")
        return try ThresholdResolver.thresholds(
            for: configuration.levelSpacing,
            levelCount: configuration.contourLevels, grid: grid,
            control: control)
    }

    /// No contours; `failure` says why.
    package static func empty(configuration: HeatMapConfiguration, failure: (any Error)? = nil) -> HeatMapContours {
        let projection = PlaneProjection(kind: configuration.projection)
        let geometry = GridGeometry.fitting(
            box: .empty, radius: configuration.radius, paddingFactor: 0,
            resolution: 2)
        let grid = DensityGrid(
            geometry: geometry, values: Array(repeating: 0, count: geometry.count),
            projection: projection, radius: configuration.radius,
            estimator: configuration.estimator, units: projection.densityUnits)
        return HeatMapContours(
            grid: grid, contourSet: ContourSet(thresholds: [], levels: [], bands: [], isolines: []),
            configuration: configuration, summary: InputSummary(), failure: failure)
    }
}

// MARK: - Inspecting

extension HeatMapContours {
    /// Every band polygon containing the coordinate (at most one, since
    /// bands do not overlap), found through the index `compute` made: O(1)
    /// to find the cell, then the few dozen edges in it, each binary-searched
    /// to its ring (O(log rings)) and projected. Tested in the grid's plane;
    /// a point on the ring two bands share belongs to the upper band. Empty
    /// when the result was computed without ``ContourKinds/polygons``, and
    /// for a coordinate the projection does not map
    /// (``PlaneProjection/maps(_:)``: a latitude past a pole, a NaN).
    /// For many points at once, use ``BandLocator``.
    public func contours(containing coordinate: LocationCoordinate2D) -> [HeatMapPolygon] {
        guard grid.projection.maps(coordinate) else { return [] }
        let p = grid.projection.project(coordinate)
        return storage.bands.index.polygons(containing: p).map { contours[$0] }
    }

    /// The band level at a plane point, or nil below the lowest threshold
    /// (or without ``ContourKinds/polygons``). Cost as ``contours(containing:)``.
    public func level(at point: PlanePoint) -> Int? {
        storage.bands.index.highestPolygon(containing: point).map { contours[$0].level }
    }

    /// The band level at each coordinate (nil below the lowest threshold),
    /// in order, through the index `compute` made, on every core: for
    /// thousands of taps or readings at once, without building a
    /// ``BandLocator`` (whose plane bands ``contourSet`` would assemble).
    /// O(n) projections and lookups. Empty-handed (all nil) without
    /// ``ContourKinds/polygons``; nil for each coordinate the projection
    /// does not map.
    public func levels(at coordinates: [LocationCoordinate2D]) -> [Int?] {
        let projector = PointProjector(projection)
        let points = coordinates.map { projector.plane(latitude: $0.latitude, longitude: $0.longitude) }
        let polygons = contours
        let found = storage.bands.index.highestPolygons(containing: points)
        return zip(coordinates, found).map { c, polygon in
            projection.maps(c) ? polygon.map { polygons[$0].level } : nil
        }
    }

    /// What lies under a coordinate: the interpolated value and its band
    /// (both nil for a coordinate the projection does not map).
    /// O(1) for the value, plus a hit test as ``contours(containing:)``.
    public func inspect(_ coordinate: LocationCoordinate2D) -> HeatMapInspection {
        let mapped = grid.projection.maps(coordinate)
        let p = grid.projection.project(coordinate)
        let level = mapped ? self.level(at: p) : nil
        return HeatMapInspection(
            coordinate: coordinate,
            value: mapped ? grid.value(at: p) : nil,
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
