import Foundation
import HeatMapContouring
import HeatMapCore
import HeatMapDensity

/// The points binned at every zoom, for a tile's `bins` layer: hexagons
/// regular on the screen (in Web Mercator) or H3 cells, sized per zoom so
/// that a cell is about ``cellPixels`` screen pixels across its edge. A
/// cell's `density` is its weight per km² of ground, so it is read
/// against the bands' thresholds and coloured with their legend at every
/// zoom.
///
/// Points are kept sorted by world u; a tile bins the points within two
/// cells of it, so a cell on a tile edge counts all of its points in both
/// tiles. Memory: 5 numbers a point.
struct TileBins: Sendable {
    /// The cells.
    let shape: HeatMapTiles.BinShape
    private let u: [Double], v: [Double], w: [Double], latitude: [Double], longitude: [Double]
    /// The latitude H3 resolutions are chosen at (the middle of the data).
    private let referenceLatitude: Double

    /// Cell edge (hexagon radius), in screen pixels of a 256-pixel tile.
    static let cellPixels = 12.0

    init(latitude lat: [Double], longitude lon: [Double], weight: [Double], shape: HeatMapTiles.BinShape) {
        self.shape = shape
        let n = lat.count
        let uu = lon.map(WebMercator.u(longitude:))
        let order = (0..<n).sorted { uu[$0] < uu[$1] || (uu[$0] == uu[$1] && $0 < $1) }
        u = order.map { uu[$0] }
        v = order.map { WebMercator.v(latitude: lat[$0]) }
        w = order.map { weight[$0] }
        latitude = order.map { lat[$0] }
        longitude = order.map { lon[$0] }
        let finite = lat.filter(\.isFinite)
        referenceLatitude = finite.isEmpty ? 0 : (finite.min()! + finite.max()!) / 2
    }

    /// The hexagon radius at zoom z, world units: about ``cellPixels``
    /// pixels, and a whole number of pointy hexagons (each √3 radii wide)
    /// around the world, so the cells are the same on both sides of ±180°.
    static func hexagonRadius(z: Int) -> Double {
        let across = (256 * Double(1 << z) / (cellPixels * 3.0.squareRoot())).rounded()
        return 1 / (across * 3.0.squareRoot())
    }

    /// The H3 resolution at zoom z: the one whose average edge is nearest
    /// ``cellPixels`` pixels on the ground at the data's middle latitude.
    func h3Resolution(z: Int) -> Int {
        let metres = Self.hexagonRadius(z: z) / WebMercator.unitsPerMetre(latitude: referenceLatitude)
        return H3Cell.resolution(nearestEdgeKm: metres / 1000)
    }

    /// One bin of a tile: its ring in tile units (exterior, positive
    /// area with y down), count, weight and weight per km².
    struct Bin {
        var ring: [PlanePoint]
        var count: Int
        var weight: Double
        var density: Double
    }

    /// The bins over tile (z, x, y) (x unwrapped) and its buffer.
    func bins(z: Int, x: Int, y: Int, control: ComputeControl) throws -> [Bin] {
        let n = Double(1 << z), extent = Double(TileLattice.extent)
        let buffer = Double(TileLattice.bufferCells * TileLattice.cellUnits) / extent / n
        let u0 = Double(x) / n - buffer, u1 = Double(x + 1) / n + buffer
        let v0 = Double(y) / n - buffer, v1 = Double(y + 1) / n + buffer
        // Cells reach at most `reach` from their points (two hexagon radii,
        // and H3 cells are within a few edges of their points).
        let h3 = shape == .h3 ? h3Resolution(z: z) : 0
        let reach =
            shape == .hexagon
            ? 2 * Self.hexagonRadius(z: z)
            : 4 * H3Cell.averageEdgeKm[h3] * 1000 * WebMercator.unitsPerMetre(latitude: referenceLatitude)
        var counts: [UInt64: (count: Int, weight: Double)] = [:]
        let grid = try HexGrid(radius: Self.hexagonRadius(z: z))
        // Tile columns are unwrapped across ±180°: a point counts at u − 1, u and u + 1.
        for turn in [-1.0, 0, 1] {
            let lo = u0 - reach - turn, hi = u1 + reach - turn
            var i = u.firstIndex(notBelow: lo)
            while i < u.count, u[i] <= hi {
                defer { i += 1 }
                if i & 0xffff == 0 { try control.checkCancellation() }
                guard v[i] >= v0 - reach, v[i] <= v1 + reach, w[i] > 0 else { continue }
                let key: UInt64
                if shape == .hexagon {
                    guard let cell = grid.cell(containing: PlanePoint(x: u[i] + turn, y: v[i])) else { continue }
                    key = UInt64(UInt32(bitPattern: Int32(cell.q))) << 32 | UInt64(UInt32(bitPattern: Int32(cell.r)))
                } else {
                    let rad = Double.pi / 180
                    guard let h = H3Encoding.index(lat: latitude[i] * rad, lon: longitude[i] * rad, resolution: h3)
                    else { continue }
                    key = h
                }
                counts[key, default: (0, 0)].count += 1
                counts[key, default: (0, 0)].weight += w[i]
            }
        }
        var out: [Bin] = []
        for key in counts.keys.sorted() {
            guard let c = counts[key] else { continue }
            // World corners, unwrapped next to the tile.
            var corners: [(u: Double, v: Double)]
            if shape == .hexagon {
                let cell = HexCell(
                    q: Int(Int32(bitPattern: UInt32(key >> 32))), r: Int(Int32(bitPattern: UInt32(key & 0xffff_ffff))))
                corners = grid.corners(of: cell).map { ($0.x, $0.y) }
            } else {
                let deg = 180 / Double.pi
                corners = H3Boundary.vertices(of: key).map {
                    (WebMercator.u(longitude: $0.lon * deg), WebMercator.v(latitude: $0.lat * deg))
                }
                // Keep the ring together across ±180°, then next to the tile.
                for k in 1..<corners.count {
                    corners[k].u += ((corners[k - 1].u - corners[k].u) + 0.5).rounded(.down)
                }
                let mid = corners.reduce(0) { $0 + $1.u } / Double(corners.count)
                let turns = ((u0 + u1) / 2 - mid).rounded()
                for k in corners.indices { corners[k].u += turns }
            }
            let cu = corners.reduce(0) { $0 + $1.u } / Double(corners.count)
            let cv = corners.reduce(0) { $0 + $1.v } / Double(corners.count)
            guard
                corners.contains(where: { $0.u >= u0 && $0.u <= u1 && $0.v >= v0 && $0.v <= v1 })
                    || (cu >= u0 && cu <= u1 && cv >= v0 && cv <= v1)
            else { continue }
            var ring = corners.map {
                PlanePoint(x: ($0.u * n - Double(x)) * extent, y: ($0.v * n - Double(y)) * extent)
            }
            var area2 = 0.0
            for k in corners.indices {
                let a = corners[k], b = corners[(k + 1) % corners.count]
                area2 += a.u * b.v - b.u * a.v
            }
            if area2 < 0 { ring.reverse() }
            let km2 = (shape == .hexagon ? Self.mercatorArea(corners) : Self.sphericalArea(key)) / 1e6
            out.append(Bin(ring: ring, count: c.count, weight: c.weight, density: km2 > 0 ? c.weight / km2 : 0))
        }
        return out
    }

    /// The ground area (m²) of a polygon with straight edges in Web
    /// Mercator: its area in (u, sin φ), Lambert's equal-area cylinder,
    /// times C²/2π (the edges are taken straight there too; for cells of
    /// a few pixels the difference is far below a part in a thousand).
    static func mercatorArea(_ corners: [(u: Double, v: Double)]) -> Double {
        var twice = 0.0
        for k in corners.indices {
            let a = corners[k], b = corners[(k + 1) % corners.count]
            let sa = tanh(Double.pi * (1 - 2 * a.v)), sb = tanh(Double.pi * (1 - 2 * b.v))
            twice += a.u * sb - b.u * sa
        }
        let c = WebMercator.circumference
        return abs(twice) / 2 * c * c / (2 * Double.pi)
    }

    /// The area (m²) of an H3 cell on the authalic sphere: the spherical
    /// excess of its great-circle boundary.
    static func sphericalArea(_ cell: UInt64) -> Double {
        let vertices = H3Boundary.vertices(of: cell)
        var excess = 0.0
        for k in vertices.indices {
            let a = vertices[k], b = vertices[(k + 1) % vertices.count]
            let ta = tan(a.lat / 2), tb = tan(b.lat / 2)
            excess += 2 * atan2(tan((b.lon - a.lon) / 2) * (ta + tb), 1 + ta * tb)
        }
        let r = PlaneProjection.authalicRadius
        return abs(excess) * r * r
    }

    /// The bins layer of a tile, or nil when it has none.
    func layer(z: Int, x: Int, y: Int, legend: TileLegend, control: ComputeControl) throws -> VectorTileLayer? {
        let bins = try bins(z: z, x: x, y: y, control: control)
        guard !bins.isEmpty else { return nil }
        var layer = VectorTileLayer(name: "bins", extent: TileLattice.extent)
        for bin in bins {
            guard let ring = TileQuantizer.ring(bin.ring, exterior: true) else { continue }
            var geometry = VectorTileGeometry()
            geometry.ring(ring)
            let band = legend.band(of: bin.density)
            var attributes: [(String, VectorTileLayer.Value)] = [
                ("count", .unsigned(UInt64(bin.count))), ("weight", .double(bin.weight)),
                ("density", .double(bin.density)), ("units", .string(legend.units))
            ]
            if band > 0 { attributes.append(("level", .unsigned(UInt64(band - 1)))) }
            attributes.append(("fill", .string(legend.fills.isEmpty ? "#cccccc" : legend.fills[max(band - 1, 0)])))
            layer.add(type: .polygon, geometry: geometry, attributes: attributes)
        }
        return layer.featureCount > 0 ? layer : nil
    }
}
