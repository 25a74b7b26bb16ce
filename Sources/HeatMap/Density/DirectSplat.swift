import Foundation

/// The exact method: every point adds its own truncated Gaussian footprint.
///
/// Per point, the x and y kernel vectors come from ``SplatTables`` (one
/// multiply-add per node; kernels from a 64th of a cell to 48 cells of
/// reach) or from the recurrence of ``GaussianAxis`` (two `exp` each),
/// and their outer product is added row by row, each row a contiguous
/// multiply-add that the compiler vectorises. The footprint is the disc of
/// radius `reach` (5σ for the exact method, 4σ when the automatic method
/// picks this one; plus half a cell diagonal): outside it the kernel is
/// below e^−12.5 ≈ 4e−6 (or e^−8 ≈ 3.4e−4) of its peak, inside the 1e−3
/// bound.
/// Cost O(N · (reach/δ)²).
struct DirectSplat: PointDepositor {
    let xAxis: GaussianAxis
    let yAxis: GaussianAxis
    let columns: Int
    /// Σ w e^(−d²/2σ²) (no normalisation), row-major; nil only in a binned
    /// accumulator that has met no off-grid point (and so never calls here).
    let density: UnsafeMutablePointer<Double>?
    /// Σ v w K, or nil.
    let weightedValue: UnsafeMutablePointer<Double>?
    /// Tabulated kernel vectors and per-row chord widths, when the kernel is
    /// neither far narrower than a cell nor too many cells wide (see
    /// ``SplatTables``): plain values, as the band loop copies the splat
    /// for every point and a reference would be retained and released each
    /// time. Whoever makes the splat keeps the tables alive while it runs.
    let tables: SplatTables.View?

    init(xAxis: GaussianAxis, yAxis: GaussianAxis, columns: Int, density: UnsafeMutablePointer<Double>?,
         weightedValue: UnsafeMutablePointer<Double>?, tables: SplatTables.View? = nil) {
        self.xAxis = xAxis
        self.yAxis = yAxis
        self.columns = columns
        self.density = density
        self.weightedValue = weightedValue
        self.tables = tables
    }

    /// The same splat adding into other grids (of the same geometry).
    func writing(into density: UnsafeMutablePointer<Double>,
                 weightedValue: UnsafeMutablePointer<Double>?) -> DirectSplat {
        DirectSplat(xAxis: xAxis, yAxis: yAxis, columns: columns, density: density, weightedValue: weightedValue,
                    tables: tables)
    }

    var scratchCount: Int {
        // x vector over the whole reach, y vector likewise (or a table row).
        let nx = Int(min(2 * xAxis.reach / xAxis.step + 3, Double(xAxis.count)))
        let ny = Int(min(2 * yAxis.reach / yAxis.step + 3, Double(yAxis.count)))
        return max(nx + ny, tables?.x.width ?? 0)
    }

    var pollInterval: Int {
        let taps = (2 * xAxis.reach / xAxis.step + 1) * (2 * yAxis.reach / yAxis.step + 1)
        return Int(min(max(200_000 / taps, 1), 4096))
    }

    var reachRows: Int { Int(min(yAxis.reach / yAxis.step + 1, Double(yAxis.count))) + 1 }

    @inline(__always) func anchor(x px: Double, y py: Double) -> (row: Int, column: Int)? {
        let rows = yAxis.span(of: py), columns = xAxis.span(of: px)
        guard rows.lo <= rows.hi, columns.lo <= columns.hi else { return nil }
        return (yAxis.nearest(py), xAxis.nearest(px))
    }

    @inline(__always)
    func deposit(x px: Double, y py: Double, weight w: Double, value v: Double,
                 scratch: UnsafeMutablePointer<Double>) {
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

    /// The splat from tables: the kernel vectors are interpolated, each row
    /// spans the disc's chord (widened by half a cell for the point's offset).
    /// false when the point's nearest node is off the grid (the recurrence
    /// handles those).
    @inline(__always)
    private func tabulated(_ px: Double, _ py: Double, _ w: Double, _ v: Double,
                           _ density: UnsafeMutablePointer<Double>, _ tables: SplatTables.View,
                           _ scratch: UnsafeMutablePointer<Double>) -> Bool {
        let fx = xAxis.index(of: px), fy = yAxis.index(of: py)
        guard fx >= -0.5, fy >= -0.5, fx < Double(xAxis.count) - 0.5, fy < Double(yAxis.count) - 0.5 else {
            return false
        }
        let cn = GaussianAxis.floor(fx + 0.5), rn = GaussianAxis.floor(fy + 0.5)
        let x = tables.x, y = tables.y
        let hx = x.half, hy = y.half
        let (bx, sx, tx) = x.locate(fx - Double(cn))
        let (by, sy, ty) = y.locate(fy - Double(rn))
        // A kernel at most eight columns wide, away from the side edges:
        // whole rows as one vector each (the table's zero padding adds
        // nothing), no per-row chord. The loop bookkeeping of a few
        // columns per row otherwise costs more than the arithmetic.
        if x.stride <= 8, cn - hx >= 0, cn - hx + x.stride <= xAxis.count {
            @inline(__always) func rows<V: SIMD>(_ vector: V.Type) where V.Scalar == Double {
                DirectSplat.vectorRows(vector, bx, sx, tx, by, sy, ty, w: w, v: v, column: cn - hx,
                                       rn: rn, hy: hy, height: y.width, rows: yAxis.count, columns: columns,
                                       density: density, weightedValue: weightedValue)
            }
            if x.stride == 4 { rows(SIMD4<Double>.self) } else { rows(SIMD8<Double>.self) }
            return true
        }
        let gx = scratch
        for i in 0..<x.width { gx[i] = w * (bx[i] + tx * sx[i]) }
        let j0 = max(0, hy - rn), j1 = min(y.width - 1, yAxis.count - 1 - rn + hy)
        guard j0 <= j1 else { return true }
        let lastColumn = xAxis.count - 1
        for j in j0...j1 {
            let half = tables.chord[j]
            let c0 = max(cn - half, 0), c1 = min(cn + half, lastColumn)
            guard c0 <= c1 else { continue }
            let a = by[j] + ty * sy[j]
            let row = (rn - hy + j) * columns
            let src = gx + (c0 - cn + hx)
            let dst = density + row + c0
            let n = c1 - c0 + 1
            for k in 0..<n { dst[k] += a * src[k] }
            if let weightedValue {
                let av = a * v
                let dstV = weightedValue + row + c0
                for k in 0..<n { dstV[k] += av * src[k] }
            }
        }
        return true
    }
}

extension DirectSplat {
    /// Adds rows of the kernel's square footprint, each as one vector of
    /// V.scalarCount columns starting at `column` (the kernel is at most
    /// that wide, and the columns exist); `hy` and `height` are the y
    /// table's half-width and width. Rows off the grid are skipped. Static,
    /// so that no copy of the splat is made per point.
    /// Writing to the row's padding columns adds zero, and rows belong to
    /// one band at a time, so no other task writes them.
    @inline(__always)
    static func vectorRows<V: SIMD>(_: V.Type, _ bx: UnsafePointer<Double>, _ sx: UnsafePointer<Double>, _ tx: Double,
                                    _ by: UnsafePointer<Double>, _ sy: UnsafePointer<Double>, _ ty: Double,
                                    w: Double, v: Double, column: Int, rn: Int, hy: Int, height: Int,
                                    rows: Int, columns: Int, density: UnsafeMutablePointer<Double>,
                                    weightedValue: UnsafeMutablePointer<Double>?) where V.Scalar == Double {
        let g = w * (UnsafeRawPointer(bx).loadUnaligned(as: V.self) + tx * UnsafeRawPointer(sx).loadUnaligned(as: V.self))
        let j0 = max(0, hy - rn), j1 = min(height - 1, rows - 1 - rn + hy)
        guard j0 <= j1 else { return }
        for j in j0...j1 {
            let a = by[j] + ty * sy[j]
            let offset = (rn - hy + j) * columns + column
            let dst = UnsafeMutableRawPointer(density + offset)
            dst.storeBytes(of: dst.loadUnaligned(as: V.self) + a * g, as: V.self)
            if let weightedValue {
                let dstV = UnsafeMutableRawPointer(weightedValue + offset)
                dstV.storeBytes(of: dstV.loadUnaligned(as: V.self) + (a * v) * g, as: V.self)
            }
        }
    }
}

/// What the tabulated exact splat needs: kernel tables along both axes and,
/// per row offset j from the nearest row, how many columns either side of
/// the nearest column the disc of radius `reach` can reach (a point sits up
/// to half a cell off its nearest node).
final class SplatTables: @unchecked Sendable {
    let x: GaussianTable
    let y: GaussianTable
    /// Per row offset j (0..<y.width): columns either side, or −1 for none.
    private let chord: UnsafeMutablePointer<Int>

    /// The tables seen through plain values, valid while they live.
    struct View {
        let x: GaussianTable.Lookup
        let y: GaussianTable.Lookup
        /// Per row offset j (0..<y.width): columns either side, or −1 for none.
        let chord: UnsafePointer<Int>
    }

    var view: View { View(x: x.lookup, y: y.lookup, chord: UnsafePointer(chord)) }

    /// Tables for the axes, or nil when the kernel is narrower than a
    /// 64th of a cell (the table would need too many intervals) or wider
    /// than the tables allow.
    init?(xAxis: GaussianAxis, yAxis: GaussianAxis) {
        guard xAxis.sigma >= xAxis.step / 64, yAxis.sigma >= yAxis.step / 64,
              GaussianTable.fits(xAxis), GaussianTable.fits(yAxis) else { return nil }
        let x = GaussianTable(axis: xAxis), y = GaussianTable(axis: yAxis)
        self.x = x
        self.y = y
        let reach = xAxis.reach
        let hx = x.half, hy = y.half
        chord = .allocate(capacity: y.width)
        for j in 0..<y.width {
            let dy = max(0, Double(abs(j - hy)) - 0.5) * yAxis.step
            let left = reach * reach - dy * dy
            chord[j] = left < 0 ? -1 : min(hx, Int((left.squareRoot() / xAxis.step + 0.5).rounded(.down)))
        }
    }

    deinit { chord.deallocate() }
}
