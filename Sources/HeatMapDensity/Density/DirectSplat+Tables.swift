import Foundation
import HeatMapCore

/// The exact splat's fast path: kernel vectors interpolated from
/// ``SplatTables`` (one multiply-add per node, no `exp`; within 1e−5 of a
/// point's peak of the recurrence in
/// ``DirectSplat/deposit(x:y:weight:value:scratch:)``), over the disc's
/// chords from the point's nearest node widened by half a cell, or for a
/// kernel at most eight columns wide its table's whole rows.
extension DirectSplat {
    /// The splat from tables: the kernel vectors are interpolated, each row
    /// spans the disc's chord (widened by half a cell for the point's offset).
    /// false when the point's nearest node is off the grid (the recurrence
    /// handles those).
    @inline(__always)
    func tabulated(
        _ px: Double, _ py: Double, _ w: Double, _ v: Double,
        _ density: UnsafeMutablePointer<Double>, _ tables: SplatTables.View,
        _ scratch: UnsafeMutablePointer<Double>
    ) -> Bool {
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
                DirectSplat.vectorRows(
                    vector, bx, sx, tx, by, sy, ty, w: w, v: v, column: cn - hx,
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

    /// Adds rows of the kernel's square footprint, each as one vector of
    /// V.scalarCount columns starting at `column` (the kernel is at most
    /// that wide, and the columns exist); `hy` and `height` are the y
    /// table's half-width and width. Rows off the grid are skipped. Static,
    /// so that no copy of the splat is made per point.
    /// Writing to the row's padding columns adds zero, and rows belong to
    /// one band at a time, so no other task writes them.
    @inline(__always)
    static func vectorRows<V: SIMD>(
        _: V.Type, _ bx: UnsafePointer<Double>, _ sx: UnsafePointer<Double>, _ tx: Double,
        _ by: UnsafePointer<Double>, _ sy: UnsafePointer<Double>, _ ty: Double,
        w: Double, v: Double, column: Int, rn: Int, hy: Int, height: Int,
        rows: Int, columns: Int, density: UnsafeMutablePointer<Double>,
        weightedValue: UnsafeMutablePointer<Double>?
    ) where V.Scalar == Double {
        let g =
            w * (UnsafeRawPointer(bx).loadUnaligned(as: V.self) + tx * UnsafeRawPointer(sx).loadUnaligned(as: V.self))
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
