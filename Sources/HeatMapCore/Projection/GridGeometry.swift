import Foundation

/// Where the density grid's nodes lie in the plane.
///
/// The padded box is cut into `columns` × `rows` cells; the nodes are the
/// cell centres, node (c, r) at (x0 + c·dx, y0 + r·dy). Contour vertices
/// are placed on these same nodes' edges (no half-cell offset).
public struct GridGeometry: Sendable, Hashable, Codable {
    /// Nodes along x.
    public var columns: Int
    /// Nodes along y.
    public var rows: Int
    /// x of node column 0 (the centre of the first cell).
    public var x0: Double
    /// y of node row 0 (the lowest).
    public var y0: Double
    /// Spacing of nodes along x.
    public var dx: Double
    /// Spacing of nodes along y.
    public var dy: Double

    /// Creates a geometry from its parts.
    public init(columns: Int, rows: Int, x0: Double, y0: Double, dx: Double, dy: Double) {
        self.columns = columns
        self.rows = rows
        self.x0 = x0
        self.y0 = y0
        self.dx = dx
        self.dy = dy
    }

    /// Checks that the grid ``fitting(box:radius:paddingFactor:resolution:)``
    /// would make spans a finite width: the points' box, and that box
    /// padded by `paddingFactor × radius` on each side.
    ///
    /// - Throws: ``HeatMapError/invalidConfiguration(_:)`` naming the points
    ///   or the radius and padding, whichever is too large.
    public static func checkSpan(box: PlaneBox, radius: Double, paddingFactor: Double) throws {
        let pad = max(paddingFactor * radius, radius)
        guard box.isEmpty || (box.width.isFinite && box.height.isFinite) else {
            throw HeatMapError.invalidConfiguration(
                "the points span more than the largest number (about 1.8e308) across: no grid can cover them")
        }
        let width = box.isEmpty ? 0 : max(box.width, box.height)
        guard (width + 2 * pad).isFinite, (2 * pad).isFinite else {
            // The largest radius this padding allows, and the largest padding for this radius.
            let room = (Double.greatestFiniteMagnitude - width) / 2
            let radiusLimit = room / max(paddingFactor, 1), paddingLimit = room / radius
            let limits =
                paddingLimit >= 1
                ? "at most \(short(radiusLimit)) with this padding, or the padding at most \(short(paddingLimit)) with this radius"
                : "at most \(short(radiusLimit))"
            throw HeatMapError.invalidConfiguration(
                "radius \(short(radius)) with padding \(short(paddingFactor)) makes the grid wider than the largest"
                    + " number (about 1.8e308): the radius must be \(limits)")
        }
    }

    private static func short(_ v: Double) -> String {
        v == v.rounded() && abs(v) < 1e15 ? String(Int64(v)) : String(format: "%.3g", v)
    }

    /// The geometry of docs/density-model.md: `box` padded by `paddingFactor × radius` on every
    /// side, `resolution` cells along the longer axis and
    /// max(2, Int(resolution × shorter / longer)) along the other.
    ///
    /// A degenerate box (one point, or all on a line) gets at least a
    /// radius of padding so the grid has an area.
    public static func fitting(box: PlaneBox, radius: Double, paddingFactor: Double, resolution: Int) -> GridGeometry {
        let pad = max(paddingFactor * radius, box.isEmpty ? radius : 0)
        var minX = box.isEmpty ? -pad : box.minX - pad, maxX = box.isEmpty ? pad : box.maxX + pad
        var minY = box.isEmpty ? -pad : box.minY - pad, maxY = box.isEmpty ? pad : box.maxY + pad
        // A zero padding and a degenerate box would give cells of no size.
        if maxX - minX <= 0 { minX -= max(radius, 1e-9); maxX += max(radius, 1e-9) }
        if maxY - minY <= 0 { minY -= max(radius, 1e-9); maxY += max(radius, 1e-9) }
        let width = maxX - minX, height = maxY - minY
        let res = max(resolution, 2)
        let columns: Int, rows: Int
        // The shorter side's share; a box too wide for a Double (∞ / ∞)
        // gets a square grid, whose infinite cells the accumulator refuses.
        func cells(_ short: Double, _ long: Double) -> Int {
            let f = Double(res) * short / long
            return f.isFinite ? max(2, Int(min(f, Double(res)))) : res
        }
        if height >= width {
            rows = res
            columns = cells(width, height)
        } else {
            columns = res
            rows = cells(height, width)
        }
        let dx = width / Double(columns), dy = height / Double(rows)
        return GridGeometry(columns: columns, rows: rows, x0: minX + dx / 2, y0: minY + dy / 2, dx: dx, dy: dy)
    }

    /// The number of nodes.
    public var count: Int { columns * rows }
    /// The area of one cell in square plane units.
    public var cellArea: Double { dx * dy }

    /// The position of node (column, row).
    public func node(column: Int, row: Int) -> PlanePoint {
        PlanePoint(x: x0 + Double(column) * dx, y: y0 + Double(row) * dy)
    }

    /// The box of all cells (node box padded by half a cell).
    public var cellBox: PlaneBox {
        PlaneBox(
            minX: x0 - dx / 2, minY: y0 - dy / 2,
            maxX: x0 + (Double(columns) - 0.5) * dx, maxY: y0 + (Double(rows) - 0.5) * dy)
    }
}
