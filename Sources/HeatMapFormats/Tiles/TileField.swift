import HeatMapContouring
import HeatMapCore
import HeatMapDensity

/// What tiles are contoured from: the value at every node of a block.
/// A node's value depends only on where it is, never on the block, so a
/// tile made alone is the tile made in its block, bit for bit.
protocol TileField: Sendable {
    /// Node values of `block`, row-major from its north-west node, rows
    /// going south; NaN where undefined (below every level).
    func values(_ block: TileBlock, control: ComputeControl) throws -> [Double]
    /// Where the field has anything: the world box (u, v) outside which
    /// every value is below every positive threshold.
    var worldBox: (minU: Double, minV: Double, maxU: Double, maxV: Double) { get }
    /// The smallest kernel radius (metres) in the field: the finest detail
    /// it has (points with their own radii have several).
    var finestRadius: Double { get }
}

/// Whether a field's world box holds nothing: no point with weight (its
/// two axes are filled from the same points, so they are empty together).
func holdsNothing(_ box: (minU: Double, minV: Double, maxU: Double, maxV: Double)) -> Bool {
    !(box.minU <= box.maxU && box.minV <= box.maxV)
}

extension TileBlock {
    /// The plane points of every node under `projection`, row-major.
    func planeNodes(_ projection: PlaneProjection) -> (x: [Double], y: [Double]) {
        let projector = PointProjector(projection)
        var xs = [Double](repeating: 0, count: columns * rows), ys = xs
        let longitudes = (0..<columns).map { WebMercator.longitude(u: u(column: $0)) }
        for r in 0..<rows {
            let latitude = WebMercator.latitude(v: v(row: r))
            for c in 0..<columns {
                let p = projector.plane(latitude: latitude, longitude: longitudes[c])
                xs[r * columns + c] = p.x
                ys[r * columns + c] = p.y
            }
        }
        return (xs, ys)
    }
}

/// A grid already computed (the contours' own): each node's value read
/// bilinearly where it falls in the grid's plane, NaN outside.
struct GridTileField: TileField {
    let grid: DensityGrid
    var finestRadius: Double { grid.radius }
    let worldBox: (minU: Double, minV: Double, maxU: Double, maxV: Double)

    init(grid: DensityGrid) {
        self.grid = grid
        let box = grid.geometry.cellBox
        var minU = Double.infinity, minV = Double.infinity, maxU = -Double.infinity, maxV = -Double.infinity
        let unprojection = Unprojection(grid.projection)
        // The box's edges, sampled: the plane's box is curved in Mercator.
        for k in 0...64 {
            let t = Double(k) / 64
            for p in [
                PlanePoint(x: box.minX + t * box.width, y: box.minY),
                PlanePoint(x: box.minX + t * box.width, y: box.maxY),
                PlanePoint(x: box.minX, y: box.minY + t * box.height),
                PlanePoint(x: box.maxX, y: box.minY + t * box.height)
            ] {
                let c = unprojection.coordinate(p)
                let u = WebMercator.u(longitude: c.longitude), v = WebMercator.v(latitude: c.latitude)
                minU = min(minU, u); maxU = max(maxU, u); minV = min(minV, v); maxV = max(maxV, v)
            }
        }
        worldBox = (minU, minV, maxU, maxV)
    }

    func values(_ block: TileBlock, control: ComputeControl) throws -> [Double] {
        try control.checkCancellation()
        let nodes = block.planeNodes(grid.projection)
        return (0..<nodes.x.count).map { grid.value(at: PlanePoint(x: nodes.x[$0], y: nodes.y[$0])) ?? .nan }
    }
}
