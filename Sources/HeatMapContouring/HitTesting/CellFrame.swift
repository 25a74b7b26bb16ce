import Foundation
import HeatMapCore
import HeatMapDensity

/// The raster of a ``RasterIndex``: which cell a point falls in, where
/// the cell centres are. Build and query share these functions, so a
/// point and the edges near it always agree on their cells.
struct CellFrame: Sendable {
    package let minX: Double, minY: Double, cellW: Double, cellH: Double
    package let columns: Int, rows: Int
    // Reciprocals: a multiply instead of a divide in the hot loops.
    private let perW: Double, perH: Double

    package init(minX: Double, minY: Double, cellW: Double, cellH: Double, columns: Int, rows: Int) {
        self.minX = minX; self.minY = minY; self.cellW = cellW; self.cellH = cellH
        self.columns = columns; self.rows = rows
        perW = 1 / cellW
        perH = 1 / cellH
    }

    @inline(__always) private func column(_ x: Double) -> Int {
        let f = (x - minX) * perW
        return f <= 0 ? 0 : min(Int(f), columns - 1)
    }

    @inline(__always) private func row(_ y: Double) -> Int {
        let f = (y - minY) * perH
        return f <= 0 ? 0 : min(Int(f), rows - 1)
    }

    /// The columns a segment's x-range meets.
    @inline(__always) package func columns(_ a: Double, _ b: Double) -> (Int, Int) {
        (column(min(a, b)), column(max(a, b)))
    }
    /// The rows a segment's y-range meets.
    @inline(__always) package func rows(_ a: Double, _ b: Double) -> (Int, Int) { (row(min(a, b)), row(max(a, b))) }

    /// The cell of a point, nil outside the raster (or NaN).
    @inline(__always) package func cell(of p: PlanePoint) -> (column: Int, row: Int)? {
        let fc = (p.x - minX) * perW, fr = (p.y - minY) * perH
        guard fc >= 0, fr >= 0, fc < Double(columns), fr < Double(rows) else { return nil }
        return (Int(fc), Int(fr))
    }

    @inline(__always) func centreX(_ column: Int) -> Double { minX + (Double(column) + 0.5) * cellW }
    @inline(__always) func centreY(_ row: Int) -> Double { minY + (Double(row) + 0.5) * cellH }

    /// Rows whose centre line a segment from y = a to y = b may cross (a
    /// row more on each side: the caller tests each exactly), nil if none.
    @inline(__always) func centreRows(_ a: Double, _ b: Double) -> (Int, Int)? {
        let lo = (min(a, b) - minY) * perH - 0.5, hi = (max(a, b) - minY) * perH - 0.5
        guard hi >= -1, lo < Double(rows) else { return nil }
        let r0 = max(GaussianAxis.floor(max(lo, -1)), 0), r1 = min(GaussianAxis.floor(hi) + 1, rows - 1)
        return r0 <= r1 ? (r0, r1) : nil
    }

    /// The first column whose centre lies strictly right of x (columns if none).
    @inline(__always) func firstColumn(rightOf x: Double) -> Int {
        let f = (x - minX) * perW - 0.5
        var c = f < 0 ? 0 : min(GaussianAxis.floor(f) + 1, columns)
        // The estimate may be a column off where x is within rounding of a centre.
        while c > 0, centreX(c - 1) > x { c -= 1 }
        while c < columns, centreX(c) <= x { c += 1 }
        return c
    }
}
