import Foundation
import HeatMapCore

/// The exact method, and the reference every other scheme is measured
/// against: every point adds its own truncated Gaussian footprint.
///
/// ``deposit(x:y:weight:value:scratch:)`` reads as the definition: the x
/// and y kernel vectors from the recurrence of ``GaussianAxis`` (two `exp`
/// each), their outer product added row by row over the disc's chord,
/// each row a contiguous multiply-add that the compiler vectorises. When
/// the kernel is from a 64th of a cell to 48 cells of reach, the vectors
/// come from ``SplatTables`` instead (DirectSplat+Tables.swift: one
/// multiply-add per node). The footprint is the disc of
/// radius `reach` (5σ for the exact method, 4σ when the automatic method
/// picks this one; plus half a cell diagonal): outside it the kernel is
/// below e^−12.5 ≈ 4e−6 (or e^−8 ≈ 3.4e−4) of its peak, inside the 1e−3
/// bound.
/// Cost O(N · (reach/δ)²).
struct DirectSplat: PointDepositor {
    let xAxis: GaussianAxis
    let yAxis: GaussianAxis
    package let columns: Int
    /// Σ w e^(−d²/2σ²) (no normalisation), row-major; nil only in a binned
    /// accumulator that has met no off-grid point (and so never calls here).
    package let density: UnsafeMutablePointer<Double>?
    /// Σ v w K, or nil.
    let weightedValue: UnsafeMutablePointer<Double>?
    /// Tabulated kernel vectors and per-row chord widths, when the kernel is
    /// neither far narrower than a cell nor too many cells wide (see
    /// ``SplatTables``): plain values, as the band loop copies the splat
    /// for every point and a reference would be retained and released each
    /// time. Whoever makes the splat keeps the tables alive while it runs.
    package let tables: SplatTables.View?

    package init(
        xAxis: GaussianAxis, yAxis: GaussianAxis, columns: Int, density: UnsafeMutablePointer<Double>?,
        weightedValue: UnsafeMutablePointer<Double>?, tables: SplatTables.View? = nil
    ) {
        self.xAxis = xAxis
        self.yAxis = yAxis
        self.columns = columns
        self.density = density
        self.weightedValue = weightedValue
        self.tables = tables
    }

    /// The same splat adding into other grids (of the same geometry).
    package func writing(
        into density: UnsafeMutablePointer<Double>,
        weightedValue: UnsafeMutablePointer<Double>?
    ) -> DirectSplat {
        DirectSplat(
            xAxis: xAxis, yAxis: yAxis, columns: columns, density: density, weightedValue: weightedValue,
            tables: tables)
    }

    var scratchCount: Int {
        // x vector over the whole reach, y vector likewise (or a table row).
        let nx = Int(min(2 * xAxis.reach / xAxis.step + 3, Double(xAxis.count)))
        let ny = Int(min(2 * yAxis.reach / yAxis.step + 3, Double(yAxis.count)))
        return max(nx + ny, tables?.x.width ?? 0)
    }

    package var pollInterval: Int {
        let taps = (2 * xAxis.reach / xAxis.step + 1) * (2 * yAxis.reach / yAxis.step + 1)
        return Int(min(max(200_000 / taps, 1), 4096))
    }

    var reachRows: Int { Int(min(yAxis.reach / yAxis.step + 1, Double(yAxis.count))) + 1 }

    @inline(__always) package func anchor(x px: Double, y py: Double) -> (row: Int, column: Int)? {
        let rows = yAxis.span(of: py), columns = xAxis.span(of: px)
        guard rows.lo <= rows.hi, columns.lo <= columns.hi else { return nil }
        return (yAxis.nearest(py), xAxis.nearest(px))
    }

    @inline(__always)
    func deposit(
        x px: Double, y py: Double, weight w: Double, value v: Double,
        scratch: UnsafeMutablePointer<Double>
    ) {
        guard w != 0, let density else { return }
        if let tables, tabulated(px, py, w, v, density, tables, scratch) { return }
        let xs = xAxis.span(of: px)
        let ys = yAxis.span(of: py)
        guard xs.lo <= xs.hi, ys.lo <= ys.hi else { return }
        let gx = scratch
        let gy = scratch + (xs.hi - xs.lo + 1)
        xAxis.fill(gx, around: px, lo: xs.lo, hi: xs.hi)
        yAxis.fill(gy, around: py, lo: ys.lo, hi: ys.hi)
        let reachSquared = xAxis.reach * xAxis.reach
        for r in ys.lo...ys.hi {
            // The disc's chord on this row.
            let dy = yAxis.origin + Double(r) * yAxis.step - py
            let chordSquared = reachSquared - dy * dy
            guard chordSquared >= 0 else { continue }
            let cs = xAxis.span(of: px, reach: chordSquared.squareRoot())
            let c0 = max(cs.lo, xs.lo), c1 = min(cs.hi, xs.hi)
            guard c0 <= c1 else { continue }
            let a = w * gy[r - ys.lo]
            let n = c1 - c0 + 1
            let src = gx + (c0 - xs.lo)
            let dst = density + r * columns + c0
            for k in 0..<n { dst[k] += a * src[k] }
            if let weightedValue {
                let av = a * v
                let dstV = weightedValue + r * columns + c0
                for k in 0..<n { dstV[k] += av * src[k] }
            }
        }
    }
}
