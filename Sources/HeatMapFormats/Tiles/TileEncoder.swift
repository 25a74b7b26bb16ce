import HeatMapContouring
import HeatMapCore
import HeatMapDensity

/// One tile's node values to its Mapbox Vector Tile: contoured with the
/// package's marching squares on the tile's own grid (tile units, y down,
/// the buffer around it), bands as polygons rounded to the extent, and
/// isolines when asked. A tile too large is simplified until it fits (or
/// until simplifying further would make a band invalid once rounded); no
/// band is ever dropped for size.
enum TileEncoder {
    /// The largest tile, gzipped, before simplifying.
    static let sizeLimit = 500 * 1024

    /// What a tile holds.
    enum Content {
        /// Nothing at any level: left out of an archive.
        case empty
        /// Wholly inside one band: every such tile of that band is the same.
        case uniform(level: Int)
        /// Contours cross it.
        case contoured
    }

    /// Classifies a tile from its node values (row-major, `TileLattice.tileNodes` square).
    static func content(_ values: [Double], legend: TileLegend) -> Content {
        var band = -1
        for v in values {
            // A node on a threshold may be traced as either side: contour it.
            if !v.isNaN, legend.thresholds.contains(v) { return .contoured }
            let b = legend.band(of: v)
            if band < 0 { band = b } else if b != band { return .contoured }
        }
        return band <= 0 ? .empty : .uniform(level: band - 1)
    }

    /// The tile's MVT bytes (uncompressed) and their gzip, or nil when
    /// the tile is empty.
    ///
    /// - Parameter simplify: simplify by half a screen pixel first (where
    ///   the lattice resolves the kernel; on coarser zooms the boundaries
    ///   zigzag cell by cell and longer segments could cross once rounded).
    static func encode(
        _ values: [Double], legend: TileLegend, smoother: PolygonSmoother, simplify: Bool,
        control: ComputeControl
    ) throws -> (mvt: [UInt8], gzipped: [UInt8])? {
        switch content(values, legend: legend) {
        case .empty:
            return nil
        case .uniform(let level):
            let lo = Double(-TileLattice.bufferCells * TileLattice.cellUnits)
            let hi = Double(TileLattice.extent) - lo
            let square = PlanePolygon(exterior: [
                PlanePoint(x: lo, y: lo), PlanePoint(x: lo, y: hi),
                PlanePoint(x: hi, y: hi), PlanePoint(x: hi, y: lo)
            ])
            // y runs down, so this order has a positive surveyor's area.
            var bands = [[PlanePolygon]](repeating: [], count: legend.thresholds.count)
            bands[level] = [square]
            let mvt = tile(bands: TileQuantizer.rounded(bands), isolines: [], legend: legend)
            return (mvt, Gzip.compress(mvt))
        case .contoured:
            // Half a screen pixel (a 256-px tile has 16 units a pixel): the
            // lattice puts a vertex on every cell edge a boundary crosses,
            // most of them on lines straight to well under a pixel.
            var tolerance = Double(TileLattice.extent) / 256 / 2
            var set = try contours(values, legend: legend, smoother: smoother, control: control)
            // A simplification that rounding would make invalid is not
            // taken: the tile keeps the boundaries it had (where a mean's
            // field falls steeply to the undefined nodes, every level's
            // boundary runs along the same cells, a unit or two apart).
            // The bands checked are the bands written, rounded once.
            func simplified(_ set: ContourSet) throws -> (set: ContourSet, bands: TileQuantizer.RoundedBands)? {
                let fewer = try set.simplified(tolerance: tolerance, control: control)
                let bands = TileQuantizer.rounded(fewer.bands)
                let valid = TileQuantizer.roundsValid(bands, control: control)
                try control.checkCancellation()
                return valid ? (fewer, bands) : nil
            }
            var bands: TileQuantizer.RoundedBands
            if simplify, let fewer = try simplified(set) {
                (set, bands) = fewer
            } else {
                bands = TileQuantizer.rounded(set.bands)
            }
            while true {
                let mvt = tile(bands: bands, isolines: set.isolines, legend: legend)
                // Contours in the buffer alone: nothing of its own to show.
                if mvt.isEmpty { return nil }
                let gz = Gzip.compress(mvt)
                if gz.count <= sizeLimit || tolerance > Double(TileLattice.extent) { return (mvt, gz) }
                tolerance *= 2
                // Too big, and simplifying further would break a band: the
                // tile stays as big as it is.
                guard let fewer = try simplified(set) else { return (mvt, gz) }
                (set, bands) = fewer
            }
        }
    }

    /// The contour set of a tile's grid, in tile units.
    ///
    /// Contoured in level space (``levelSpace(_:thresholds:)``): which
    /// nodes are inside each level is unchanged, but along an edge the
    /// crossings of neighbouring levels are at least 1/(levels + 1) of a
    /// cell apart, so rounding to the tile's integers never merges two
    /// boundaries — where the density is steep on a coarse zoom, straight
    /// interpolation of the values would put them within a unit.
    static func contours(
        _ values: [Double], legend: TileLegend, smoother: PolygonSmoother,
        control: ComputeControl
    ) throws -> ContourSet {
        let n = TileLattice.tileNodes, step = Double(TileLattice.cellUnits)
        let origin = -Double(TileLattice.bufferCells) * step
        let geometry = GridGeometry(columns: n, rows: n, x0: origin, y0: origin, dx: step, dy: step)
        // Nodes within `gap` of a level are moved to that distance (on their
        // own side): a crossing is then at least a unit from every node,
        // so two passes of one boundary by a node (a neck narrower than a
        // unit) stay apart once rounded.
        let levels = legend.thresholds.count
        let gap = min(Double(levels + 1) / Double(TileLattice.cellUnits), 0.45)
        let spaced = values.map { v -> Double in
            let g = levelSpace(v, thresholds: legend.thresholds)
            let k = g.rounded()
            guard abs(g - k) < gap, k >= 0, k < Double(levels) else { return g }
            return g >= k ? k + gap : k - gap
        }
        let grid = DensityGrid(
            geometry: geometry, values: spaced,
            projection: PlaneProjection(kind: .planar), radius: step, estimator: .density,
            units: legend.units)
        var kinds: ContourKinds = [.bands]
        if legend.isolines { kinds.insert(.isolines) }
        return try ContourBuilder.build(
            grid: grid, thresholds: legend.thresholds.indices.map(Double.init),
            smoother: smoother, kinds: kinds, control: control)
    }

    /// A value in level units: threshold k is k, linear between
    /// neighbouring thresholds (and at the first and last gap's rate
    /// beyond them), clamped to −1 … levels. Increasing, so every node
    /// stays on its side of every threshold. NaN stays NaN.
    static func levelSpace(_ v: Double, thresholds t: [Double]) -> Double {
        guard !v.isNaN, let first = t.first, let last = t.last else { return v }
        let count = t.count
        if v < first {
            let gap = count > 1 ? t[1] - first : max(abs(first), .leastNormalMagnitude)
            return max(-1, (v - first) / gap)
        }
        if v >= last {
            let gap = count > 1 ? last - t[count - 2] : max(abs(last), .leastNormalMagnitude)
            return min(Double(count), Double(count - 1) + (v - last) / gap)
        }
        var lo = 0, hi = count - 1
        while hi - lo > 1 {
            let mid = (lo + hi) / 2
            if t[mid] <= v { lo = mid } else { hi = mid }
        }
        return Double(lo) + (v - t[lo]) / (t[lo + 1] - t[lo])
    }

    /// The MVT of rounded band polygons (and isolines), grid numbers used
    /// as tile coordinates: a counter-clockwise exterior of the plane has
    /// the positive surveyor's area MVT asks of exteriors.
    /// Polygons and lines wholly in the buffer (``reachesTheTile(_:ring:)``)
    /// are left out: they show only in the neighbour, which has them
    /// itself, and a tile of nothing else is empty.
    static func tile(bands: TileQuantizer.RoundedBands, isolines: [[[PlanePoint]]], legend: TileLegend) -> [UInt8] {
        var layer = VectorTileLayer(name: "bands", extent: TileLattice.extent)
        for (level, polygons) in bands.enumerated() {
            var geometry = VectorTileGeometry()
            for polygon in polygons where reachesTheTile(polygon.first ?? []) {
                for ring in polygon { geometry.ring(ring) }
            }
            layer.add(type: .polygon, geometry: geometry, attributes: legend.attributes(level: level))
        }
        var tile = ProtobufWriter()
        if layer.featureCount > 0 { tile.message(3, layer.encoded) }
        if legend.isolines {
            var lines = VectorTileLayer(name: "isolines", extent: TileLattice.extent)
            for (level, parts) in isolines.enumerated() {
                var geometry = VectorTileGeometry()
                for part in parts {
                    // A closed isoline comes back to its start.
                    var points = part
                    if let first = part.first, part.count > 2 { points.append(first) }
                    if let line = TileQuantizer.line(points), reachesTheTile(line, ring: false) { geometry.line(line) }
                }
                lines.add(
                    type: .lineString, geometry: geometry,
                    attributes: [
                        ("level", .unsigned(UInt64(level))), ("threshold", .double(legend.thresholds[level])),
                        ("units", .string(legend.units))
                    ])
            }
            if lines.featureCount > 0 { tile.message(3, lines.encoded) }
        }
        return tile.bytes
    }

    /// Whether `points` (a ring, or a line) reach into the tile's own
    /// square: a box that misses it does not; a ring whose box meets it in
    /// a corner (a band in the corner's buffer cell) must overlap it with
    /// some area, its part in the square found by clipping
    /// (``HalfPlaneClipper``, each side of the square in turn); a line, its box.
    static func reachesTheTile(_ points: [TilePoint], ring: Bool = true) -> Bool {
        guard let first = points.first else { return false }
        var lo = first, hi = first
        for p in points {
            lo = TilePoint(x: min(lo.x, p.x), y: min(lo.y, p.y))
            hi = TilePoint(x: max(hi.x, p.x), y: max(hi.y, p.y))
        }
        let extent = Int32(TileLattice.extent)
        guard hi.x > 0, lo.x < extent, hi.y > 0, lo.y < extent else { return false }
        if !ring || (lo.x >= 0 && hi.x <= extent) || (lo.y >= 0 && hi.y <= extent) { return true }
        // The exterior (counter-clockwise, open) clipped to the square, side by side.
        let e = Double(extent)
        var pieces = [PlanePolygon(exterior: points.map { PlanePoint(x: Double($0.x), y: Double($0.y)) })]
        for (side, c) in [(HalfPlaneClipper.Side.east, 0.0), (.west, e), (.north, 0), (.south, e)] {
            pieces = pieces.flatMap { HalfPlaneClipper.clip($0, keeping: side, of: c) }
            if pieces.isEmpty { return false }
        }
        return pieces.contains { PlaneRing.signedArea($0.exterior) != 0 }
    }
}
