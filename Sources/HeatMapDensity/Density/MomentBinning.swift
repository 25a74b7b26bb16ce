import Foundation
import HeatMapCore

/// The binned methods: points are reduced to a few numbers per grid node,
/// which separable convolutions (``SeparableConvolution``) turn into the
/// density.
///
/// - Linear binning (`order == nil`): each point's weight is shared among
///   the four nodes around it by bilinear weights, one plane. Its error is
///   about δ²/8σ² per axis, which is below 1e−3 of the peak only for wide
///   kernels (σ ≳ 20 cells for both axes together).
/// - Taylor binning of order M: each point goes to its nearest node c,
///   offset u = p − c (|u| ≤ δ/2 per axis). With s = u/σ and t = jδ/σ the
///   kernel factors exactly as
///   exp(−(jδ − u)²/2σ²) = e^(−t²/2) · e^(ts) · e^(−s²/2),
///   and expanding e^(ts) = Σ (ts)^m / m! gives, per node, the moments
///   Aₘₙ = Σ w e^(−|s|²/2) sₓ^m s_y^n for m + n ≤ M, each convolved with
///   e^(−t²/2) t^m / m! along x and e^(−t²/2) t^n / n! along y. The first
///   dropped term is of order (δ/2σ)^(M+1), so a few planes keep the error
///   near 1e−4 of the peak down to σ = 2 cells.
///
/// Points whose node lies outside the grid are splatted exactly instead
/// (into a separate grid), so they still count wherever their kernel reaches.
struct MomentBinning: PointDepositor {
    let xAxis: GaussianAxis
    let yAxis: GaussianAxis
    /// Taylor order M, or nil for linear binning.
    package let order: Int?
    /// The moments, node-major (`planeCount` values per node, so a point
    /// touches one or two cache lines): the weight channel's, then (mean
    /// estimator) the value channel's.
    let planes: UnsafeMutablePointer<Double>
    /// Moment planes per channel.
    let planeCount: Int

    private var columns: Int { xAxis.count }
    private var rowCount: Int { yAxis.count }
    private var cells: Int { xAxis.count * yAxis.count }

    /// Moment planes for a Taylor order (pairs m + n ≤ M), 1 for linear binning.
    static func planeCount(order: Int?) -> Int {
        guard let m = order else { return 1 }
        return (m + 1) * (m + 2) / 2
    }

    var scratchCount: Int { 1 }
    package var pollInterval: Int { 4096 }
    /// Linear binning also writes the row above.
    var reachRows: Int { order == nil ? 1 : 0 }
    /// Whether values are accumulated too (mean estimator).
    let hasValue: Bool

    /// The node a point bins to: nearest for Taylor, lower-left for linear;
    /// nil when the point (or, for linear, its upper neighbour) is off grid.
    /// `fx`, `fy` are fractional node indices.
    @inline(__always)
    package static func node(_ fx: Double, _ fy: Double, order: Int?, columns: Int, rows: Int) -> (c: Int, r: Int)? {
        if order == nil {
            let c = fx.rounded(.down), r = fy.rounded(.down)
            guard c >= 0, r >= 0, c <= Double(columns - 2), r <= Double(rows - 2) else { return nil }
            return (Int(c), Int(r))
        }
        let c = fx.rounded(), r = fy.rounded()
        guard c >= 0, r >= 0, c <= Double(columns - 1), r <= Double(rows - 1) else { return nil }
        return (Int(c), Int(r))
    }

    @inline(__always) private func node(_ fx: Double, _ fy: Double) -> (c: Int, r: Int)? {
        MomentBinning.node(fx, fy, order: order, columns: columns, rows: rowCount)
    }

    /// Points off the binnable nodes are left to the exact splat.
    @inline(__always) package func anchor(x px: Double, y py: Double) -> (row: Int, column: Int)? {
        guard let n = node(xAxis.index(of: px), yAxis.index(of: py)) else { return nil }
        return (n.r, n.c)
    }

    @inline(__always)
    func deposit(
        x px: Double, y py: Double, weight w: Double, value v: Double,
        scratch: UnsafeMutablePointer<Double>
    ) {
        if w == 0 { return }
        let fx = xAxis.index(of: px), fy = yAxis.index(of: py)
        guard let n = node(fx, fy) else { return }
        if let order {
            let sx = (fx - Double(n.c)) * (xAxis.step / xAxis.sigma)
            let sy = (fy - Double(n.r)) * (yAxis.step / yAxis.sigma)
            let g = w * MomentBinning.expNegative((sx * sx + sy * sy) / 2)
            let cell = (n.r * columns + n.c) * planeCount
            addMoments(planes + cell, g, sx, sy, order)
            if hasValue { addMoments(planes + planeCount * cells + cell, g * v, sx, sy, order) }
        } else {
            let tx = fx - Double(n.c), ty = fy - Double(n.r)
            addLinear(n.r * columns + n.c, w * (1 - ty), tx, v)
            addLinear((n.r + 1) * columns + n.c, w * ty, tx, v)
        }
    }

    /// Shares `a` between `cell` and its right neighbour.
    @inline(__always) private func addLinear(_ cell: Int, _ a: Double, _ tx: Double, _ v: Double) {
        planes[cell] += a * (1 - tx)
        planes[cell + 1] += a * tx
        if hasValue {
            let valuePlane = planes + cells
            valuePlane[cell] += a * v * (1 - tx)
            valuePlane[cell + 1] += a * v * tx
        }
    }

    /// Adds g · sx^m · sy^n to moment (m, n) of the node at `cell`, ordered
    /// by n then m.
    @inline(__always)
    private func addMoments(
        _ cell: UnsafeMutablePointer<Double>, _ g: Double, _ sx: Double, _ sy: Double,
        _ order: Int
    ) {
        var plane = 0
        var gy = g
        for n in 0...order {
            var t = gy
            for _ in 0...(order - n) {
                cell[plane] += t
                t *= sx
                plane += 1
            }
            gy *= sy
        }
    }

    /// e^(−a) for a ≥ 0: a short series for the small arguments of binned
    /// offsets (a ≤ 1/8 when σ ≥ 1 cell; error < 1e−10), in Estrin's form
    /// (short dependency chains); `exp` otherwise.
    @inline(__always) static func expNegative(_ a: Double) -> Double {
        guard a <= 0.125 else { return exp(-a) }
        let a2 = a * a
        let low = (1 - a) + a2 * (0.5 - a * (1.0 / 6))
        let high = (1.0 / 24 - a * (1.0 / 120)) + a2 * (1.0 / 720)
        return low + (a2 * a2) * high
    }
}
