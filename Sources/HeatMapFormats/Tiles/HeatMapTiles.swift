import Foundation
import HeatMapContouring
import HeatMapCore
import HeatMapDensity

/// Vector tiles of a density's bands, from continents to city blocks:
/// each zoom contoured from the density sampled at that zoom's own
/// resolution (a node every 4 screen pixels, on a lattice aligned to the
/// tiles), with one kernel radius and one set of thresholds at every zoom,
/// so a band means the same density at every scale.
///
/// ```swift
/// let tiles = try await HeatMapTiles.make(from: quakes, configuration: configuration)
/// let mvt = try await tiles.tile(z: 6, x: 62, y: 36)   // an answer to /6/62/36.mvt
/// try await tiles.write(to: file)                       // the whole PMTiles archive
/// ```
///
/// Tiles are Mapbox Vector Tiles 2.1 (extent 4096, a buffer of 64) with a
/// `bands` layer (and `isolines` when the configuration's render mode
/// draws lines): one feature per level with `level`, `threshold`, `upper`
/// (not on the top band), `units` and `fill`.
public struct HeatMapTiles: Sendable {
    /// The zooms an archive holds.
    public private(set) var zooms: ClosedRange<Int>
    /// The thresholds of every zoom, ascending, in ``units``.
    public var thresholds: [Double] { legend.thresholds }
    /// The unit of the thresholds.
    public var units: String { legend.units }
    /// The kernel radius (metres), the same at every zoom.
    public let radius: Double
    let legend: TileLegend
    let field: any TileField
    let smoother: PolygonSmoother
    let estimator: DensityEstimator
    /// The kernel summed, and whether its values are densities or raw sums.
    let kernel: DensityKernel
    let kernelValues: KernelValues

    /// The deepest zoom any archive may hold.
    public static let deepestZoom = 22

    /// The cells of the optional `bins` layer, sized per zoom (an edge of
    /// about 12 screen pixels).
    public enum BinShape: String, Sendable, Hashable, CaseIterable {
        /// Hexagons regular on the screen (in Web Mercator).
        case hexagon
        /// H3 cells, the resolution nearest the size at each zoom.
        case h3
    }

    /// The points binned per zoom for the `bins` layer, or nil for none.
    var bins: TileBins?
    /// The points' own radii, when they have them, as the grid the
    /// thresholds came from names them (the archive's legend says so).
    var pointRadii: PointRadii?

    init(
        field: any TileField, radius: Double, legend: TileLegend, smoother: PolygonSmoother,
        estimator: DensityEstimator, kernel: DensityKernel, kernelValues: KernelValues,
        zooms: ClosedRange<Int>?
    ) {
        self.field = field
        self.radius = radius
        self.legend = legend
        self.smoother = smoother
        self.estimator = estimator
        self.kernel = kernel
        self.kernelValues = kernelValues
        // Past cells of σ/2 the kernel shows no more detail.
        self.zooms =
            zooms ?? Self.defaultZooms(box: field.worldBox, detail: Self.detail(kernel: kernel, radius: radius))
    }

    /// The cell size (metres) past which `kernel` of `radius` shows no
    /// more detail: half its σ (the standard deviation along one axis),
    /// radius / 6 for the Gaussian.
    static func detail(kernel: DensityKernel, radius: Double) -> Double {
        radius / kernel.radiusPerSigma / 2
    }

    /// Tiles of points already in a plane, with `radius` and `thresholds`
    /// chosen (the tool's path, whose planner chose them on the same
    /// points). Points with ``PlanePoints/radius`` keep their own radii;
    /// an adaptive bandwidth's radii are computed here, as the planner
    /// computes them for the grid.
    package init(
        points: PlanePoints, projection: PlaneProjection, radius: Double, thresholds: [Double],
        units: String, configuration: HeatMapConfiguration, zooms: ClosedRange<Int>?,
        control: ComputeControl
    ) throws {
        var points = points
        if let radii = try AdaptiveRadii.radii(
            of: points, projection: projection, configuration: configuration, control: control)
        {
            points.radius = radii
        }
        let field = try PointTileField(
            points: points, projection: projection, radius: radius, kernel: configuration.kernel,
            kernelValues: configuration.kernelValues, control: control)
        self.init(
            field: field, radius: radius,
            legend: TileLegend(
                thresholds: thresholds, units: units, gradient: configuration.gradient,
                isolines: configuration.renderMode.isolineStroke != nil),
            smoother: configuration.smoother, estimator: configuration.estimator,
            kernel: configuration.kernel, kernelValues: configuration.kernelValues, zooms: zooms)
    }

    /// Tiles of points under `configuration`: the radius and thresholds
    /// are those ``HeatMapContours/compute(from:configuration:)-1n5vu`` gives on
    /// the same points; every tile is contoured from the exact kernel sums
    /// at its own nodes. Geographic points only.
    ///
    /// - Parameter zooms: nil: from the zoom where the data fits one tile
    ///   to the one past which the kernel shows no more detail.
    /// - Parameter bins: a `bins` layer of these cells in every tile
    ///   (count, weight and weight per km² of each, coloured by the bands'
    ///   legend), or nil for none.
    /// - Throws: `CancellationError`; ``HeatMapError/invalidConfiguration(_:)``
    ///   for planar points.
    public static func make<P: HeatMapable>(
        from points: [P], configuration: HeatMapConfiguration,
        zooms: ClosedRange<Int>? = nil, bins: BinShape? = nil
    ) async throws -> HeatMapTiles {
        guard configuration.projection != .planar else { throw planarRefusal }
        return try await BackgroundWork.run { control in
            let prepared = try PointPreparation.prepare(
                points, configuration: configuration, strict: false,
                control: control)
            let grid = try DensityGrid.compute(
                points: prepared.points, projection: prepared.projection,
                configuration: configuration, control: control)
            let thresholds = try HeatMapContours.thresholds(for: grid, configuration: configuration, control: control)
            var tiles = try HeatMapTiles(
                points: prepared.points, projection: prepared.projection, radius: grid.radius,
                thresholds: thresholds, units: grid.units, configuration: configuration,
                zooms: zooms, control: control)
            tiles.pointRadii = grid.pointRadii
            if let bins {
                let unprojection = Unprojection(prepared.projection)
                let p = prepared.points
                let places = (0..<p.count).map { unprojection.coordinate(PlanePoint(x: p.x[$0], y: p.y[$0])) }
                tiles.bins = TileBins(
                    latitude: places.map(\.latitude), longitude: places.map(\.longitude), weight: p.weight,
                    shape: bins)
            }
            return tiles
        }
    }

    /// Tiles of computed contours: their thresholds, and their grid read
    /// at every tile node (so no zoom shows more detail than the grid has).
    public init(contours: HeatMapContours, zooms: ClosedRange<Int>? = nil) throws {
        guard contours.projection.isGeographic else { throw Self.planarRefusal }
        let grid = contours.grid
        let field = GridTileField(grid: grid)
        let cell = max(grid.geometry.dx, grid.geometry.dy)
        self.init(
            field: field, radius: grid.radius,
            legend: TileLegend(
                thresholds: contours.thresholds, units: contours.units,
                gradient: contours.gradient, isolines: contours.renderMode.isolineStroke != nil),
            smoother: contours.configuration.smoother, estimator: grid.estimator,
            kernel: contours.configuration.kernel, kernelValues: contours.configuration.kernelValues,
            zooms: zooms ?? Self.defaultZooms(box: field.worldBox, detail: cell))
        pointRadii = grid.pointRadii
    }

    /// The same tiles over other zooms: either end given replaces the
    /// default's (the other end follows when they would cross).
    package func zooms(minimum: Int?, maximum: Int?) -> HeatMapTiles {
        var copy = self
        let hi = maximum ?? max(zooms.upperBound, minimum ?? 0)
        let lo = minimum ?? min(zooms.lowerBound, hi)
        copy.zooms = lo...max(lo, hi)
        return copy
    }

    static let planarRefusal = HeatMapError.invalidConfiguration(
        "tiles need geographic data (longitude and latitude): planar coordinates have no place on a web map")

    /// From the zoom where `box` fits one tile to the first whose cells
    /// are at most `detail` metres where cells are largest (nearest the
    /// equator).
    static func defaultZooms(
        box: (minU: Double, minV: Double, maxU: Double, maxV: Double),
        detail: Double
    ) -> ClosedRange<Int> {
        guard !holdsNothing(box) else { return 0...0 }
        let span = max(box.maxU - box.minU, box.maxV - box.minV, 1e-12)
        let fits = Int(max(0, floor(log2(1 / span))))
        let latitude: Double
        if box.minV <= 0.5 && box.maxV >= 0.5 {
            latitude = 0
        } else {
            latitude = min(abs(WebMercator.latitude(v: box.minV)), abs(WebMercator.latitude(v: box.maxV)))
        }
        let world = WebMercator.circumference * cos(latitude * .pi / 180)
        let cells = world / max(detail, 1e-9) / Double(TileLattice.cellsPerTile)
        let deepest = min(Int(max(0, ceil(log2(cells)))), deepestZoom)
        let shallow = min(fits, deepest)
        return shallow...max(shallow, deepest)
    }
}

// MARK: - Serving and writing

extension HeatMapTiles {
    /// Tile z/x/y's MVT bytes (uncompressed; empty when the tile holds no
    /// band), computed off the caller's actor; cancelling the task throws
    /// `CancellationError`. O(points near the tile × nodes within their
    /// reach + the tile's 67² nodes).
    public func tile(z: Int, x: Int, y: Int) async throws -> [UInt8] {
        try await BackgroundWork.run { control in try self.tile(z: z, x: x, y: y, control: control) }
    }

    /// ``tile(z:x:y:)`` on the calling thread.
    package func tile(z: Int, x: Int, y: Int, control: ComputeControl) throws -> [UInt8] {
        guard (0...Self.deepestZoom).contains(z), (0..<(1 << z)).contains(x), (0..<(1 << z)).contains(y) else {
            throw HeatMapError.invalidConfiguration("no tile \(z)/\(x)/\(y)")
        }
        let range = columnRange(z: z)
        let n = 1 << z
        guard let column = [x, x - n, x + n].first(where: { range.contains($0) }), rowRange(z: z).contains(y) else {
            return []
        }
        let block = TileBlock(z: z, x0: column, y0: y, width: 1, height: 1)
        let values = try field.values(block, control: control)
        return try encode(values, z: z, x: column, y: y, control: control)?.mvt ?? []
    }

    /// A tile's MVT and its gzip from its node values (x unwrapped): the
    /// bands (and isolines), then the bins when asked; nil when empty.
    func encode(_ values: [Double], z: Int, x: Int, y: Int, control: ComputeControl) throws -> (
        mvt: [UInt8], gzipped: [UInt8]
    )? {
        let bands = try TileEncoder.encode(
            values, legend: legend, smoother: smoother, simplify: simplifies(z: z), control: control)
        guard let bins, let layer = try bins.layer(z: z, x: x, y: y, legend: legend, control: control) else {
            return bands
        }
        var tile = ProtobufWriter()
        tile.message(3, layer.encoded)
        let mvt = (bands?.mvt ?? []) + tile.bytes
        return (mvt, Gzip.compress(mvt))
    }

    /// Whether zoom z's tiles are simplified: where its cells, at the
    /// latitude nearest the equator, are at most σ of the narrowest kernel
    /// (its standard deviation along one axis: the lattice resolves every
    /// kernel there).
    func simplifies(z: Int) -> Bool {
        let box = field.worldBox
        guard !holdsNothing(box) else { return false }
        let latitude =
            box.minV <= 0.5 && box.maxV >= 0.5
            ? 0
            : min(abs(WebMercator.latitude(v: box.minV)), abs(WebMercator.latitude(v: box.maxV)))
        let cell =
            WebMercator.circumference * cos(latitude * .pi / 180) / Double(1 << z)
            / Double(TileLattice.cellsPerTile)
        return cell <= field.finestRadius / kernel.radiusPerSigma
    }

    /// The tile columns (unwrapped: continuous across the antimeridian,
    /// at most 2^z of them) holding anything at zoom z; empty for a field
    /// with nothing in it.
    func columnRange(z: Int) -> Range<Int> {
        let box = field.worldBox, n = Double(1 << z)
        guard !holdsNothing(box) else { return 0..<0 }
        var lo = Int(floor(box.minU * n)), hi = Int(floor(box.maxU * n))
        if hi - lo + 1 > 1 << z {
            let centre = Int(floor((box.minU + box.maxU) / 2 * n))
            lo = centre - (1 << z) / 2
            hi = lo + (1 << z) - 1
        }
        return lo..<(hi + 1)
    }

    /// The tile rows holding anything at zoom z; empty for a field with
    /// nothing in it.
    func rowRange(z: Int) -> Range<Int> {
        let box = field.worldBox, n = 1 << z
        guard !holdsNothing(box) else { return 0..<0 }
        let lo = max(0, Int(floor(box.minV * Double(n)))), hi = min(n - 1, Int(floor(box.maxV * Double(n))))
        return lo..<(max(lo, hi) + 1)
    }

    /// The blocks of zoom z: aligned squares of up to 8 × 8 tiles, cut to
    /// the tiles holding anything.
    func blocks(z: Int) -> [TileBlock] {
        let columns = columnRange(z: z), rows = rowRange(z: z)
        guard !columns.isEmpty, !rows.isEmpty else { return [] }
        let side = min(8, 1 << z)
        func floorDiv(_ a: Int) -> Int { a >= 0 ? a / side : -((-a + side - 1) / side) }
        var out: [TileBlock] = []
        let lastColumn = columns.upperBound - 1, lastRow = rows.upperBound - 1
        for by in floorDiv(rows.lowerBound)...floorDiv(lastRow) {
            for bx in floorDiv(columns.lowerBound)...floorDiv(lastColumn) {
                let x0 = max(bx * side, columns.lowerBound), x1 = min(bx * side + side - 1, lastColumn)
                let y0 = max(by * side, rows.lowerBound), y1 = min(by * side + side - 1, lastRow)
                out.append(TileBlock(z: z, x0: x0, y0: y0, width: x1 - x0 + 1, height: y1 - y0 + 1))
            }
        }
        return out
    }
}
