import Foundation
import HeatMapCore

/// Binning for ``DiscConvolutionFill``: each point's weight shared among
/// the 4 × 4 nodes around it by cubic Lagrange weights, into a plane
/// padded by ``padding`` nodes on every side.
///
/// Convolving these node weights with the kernel sampled at node offsets
/// gives, at every node, the cubic interpolation (in the point's position)
/// of the exact kernel sum. Inside the support the quartic and triweight
/// are polynomials, interpolated with an error of order δ⁴; what remains
/// is where a node sees the edge of the support, whose kink (a jump of
/// the second derivative for the quartic, the third for the triweight)
/// the interpolation smooths: for a lone point, about 0.3 / (r/δ)² of its
/// peak for the quartic (table on ``DensityPlan/discScheme(method:kernel:radius:xAxis:yAxis:channels:pointCount:)``).
///
/// Points whose 4 × 4 nodes leave the padded plane are left to the exact
/// splat (``Binnability``).
struct CubicBinning: PointDepositor {
    let xAxis: GaussianAxis
    let yAxis: GaussianAxis
    /// The transform's buffers, holding the padded planes.
    let planes: UnsafeMutablePointer<Double>
    let layout: DiscConvolutionLayout

    /// Nodes of padding on each side: the taps reach one node before the
    /// point's cell and two after.
    static let padding = 2

    var scratchCount: Int { 1 }
    /// A band's rows of the plane stay in cache while its points are
    /// binned in any order: sorting by band alone is enough.
    var tileWidth: Int { 1 << 30 }
    var pollInterval: Int { 4096 }
    var reachRows: Int { 2 }

    /// The node below-left of fractional index f, when all four taps
    /// (node − 1 … node + 2) lie in the padded axis of `count` nodes.
    @inline(__always) static func cell(_ f: Double, count: Int) -> Int? {
        guard f >= -1, f < Double(count) else { return nil }
        return GaussianAxis.floor(f)
    }

    @inline(__always) static func contains(x: Double, y: Double, xAxis: GaussianAxis, yAxis: GaussianAxis) -> Bool {
        cell(xAxis.index(of: x), count: xAxis.count) != nil && cell(yAxis.index(of: y), count: yAxis.count) != nil
    }

    @inline(__always) func anchor(x px: Double, y py: Double) -> (row: Int, column: Int)? {
        guard let c = CubicBinning.cell(xAxis.index(of: px), count: xAxis.count),
            let r = CubicBinning.cell(yAxis.index(of: py), count: yAxis.count)
        else { return nil }
        // The anchor must be a grid row and column (RowBands sorts by them).
        return (min(max(r, 0), yAxis.count - 1), min(max(c, 0), xAxis.count - 1))
    }

    /// The cubic Lagrange weights of nodes −1, 0, 1, 2 at t in [0, 1).
    @inline(__always) static func weights(_ t: Double) -> SIMD4<Double> {
        let a = t + 1, b = t - 1, c = t - 2
        let tb = t * b, ac = a * c
        // Over a common 6, multiplied by its inverse: no division per point.
        return SIMD4(-tb * c, 3 * ac * b, -3 * ac * t, tb * a) * (1.0 / 6)
    }

    /// The 4 × 4 nodes a point at (x, y) shares its weight among: the
    /// padded plane's row and column of the first (node (r − 1, c − 1) of
    /// the grid, the point in cell (r, c)) and the cubic weights along each
    /// axis; nil when they leave the padded plane.
    @inline(__always) func stencil(
        x px: Double, y py: Double
    ) -> (row: Int, column: Int, wx: SIMD4<Double>, wy: SIMD4<Double>)? {
        let fx = xAxis.index(of: px), fy = yAxis.index(of: py)
        guard let c = CubicBinning.cell(fx, count: xAxis.count), let r = CubicBinning.cell(fy, count: yAxis.count)
        else { return nil }
        let pad = CubicBinning.padding
        return (r - 1 + pad, c - 1 + pad, CubicBinning.weights(fx - Double(c)), CubicBinning.weights(fy - Double(r)))
    }

    @inline(__always)
    func deposit(x px: Double, y py: Double, weight w: Double, value v: Double, scratch: UnsafeMutablePointer<Double>) {
        if w == 0 { return }
        guard let s = stencil(x: px, y: py) else { return }
        let wy = s.wy * w
        add(s.wx, wy, into: planes, row: s.row, column: s.column)
        if layout.channels == 2 {
            let wv = wy * v
            for k in 0..<4 { add(planes + layout.valueOffset(row: s.row + k) + s.column, s.wx * wv[k]) }
        }
    }

    /// The same as ``deposit(x:y:weight:value:scratch:)`` for one channel,
    /// into `window`: the plane's rows from `firstRow`, ``DiscConvolutionLayout/width``
    /// doubles each (``RowWindows``).
    @inline(__always)
    func deposit(
        x px: Double, y py: Double, weight w: Double, into window: UnsafeMutablePointer<Double>, firstRow: Int
    ) {
        if w == 0 { return }
        guard let s = stencil(x: px, y: py) else { return }
        let width = layout.width
        add(s.wx, s.wy * w, at: window + (s.row - firstRow) * width + s.column, rowStride: width)
    }

    /// A point's weight shared by `shares` among up to three planes of
    /// this layout, `stride` doubles apart from ``planes`` (plane
    /// `slots[j]`, none where it is below 0): the same nodes and cubic
    /// weights as ``deposit(x:y:weight:value:scratch:)``'s, found once for
    /// all three. One channel.
    @inline(__always)
    func deposit(x px: Double, y py: Double, shares: SIMD3<Double>, slots: SIMD3<Int>, stride: Int) {
        guard let s = stencil(x: px, y: py) else { return }
        for j in 0..<3 where slots[j] >= 0 && shares[j] != 0 {
            add(s.wx, s.wy * shares[j], into: planes + slots[j] * stride, row: s.row, column: s.column)
        }
    }

    /// Adds wx ⊗ wy into the 4 × 4 nodes of `plane` (this layout's) from
    /// padded row `first` and column `column`.
    @inline(__always) private func add(
        _ wx: SIMD4<Double>, _ wy: SIMD4<Double>, into plane: UnsafeMutablePointer<Double>, row first: Int,
        column: Int
    ) {
        let layout = self.layout
        if first + 3 < layout.split || first >= layout.split {
            // The four rows in one half: consecutive rows of the buffer.
            add(wx, wy, at: plane + layout.offset(row: first) + column, rowStride: layout.columns)
        } else {
            for k in 0..<4 { add(plane + layout.offset(row: first + k) + column, wx * wy[k]) }
        }
    }

    /// Adds wx ⊗ wy into the 4 × 4 nodes from `q`, rows `rowStride` apart.
    @inline(__always) private func add(
        _ wx: SIMD4<Double>, _ wy: SIMD4<Double>, at q: UnsafeMutablePointer<Double>, rowStride n: Int
    ) {
        add(q, wx * wy[0])
        add(q + n, wx * wy[1])
        add(q + 2 * n, wx * wy[2])
        add(q + 3 * n, wx * wy[3])
    }

    @inline(__always) private func add(_ q: UnsafeMutablePointer<Double>, _ row: SIMD4<Double>) {
        q[0] += row[0]
        q[1] += row[1]
        q[2] += row[2]
        q[3] += row[3]
    }
}

extension CubicBinning: WindowDepositor {
    /// The padded plane's rows (``DiscConvolutionLayout/height``) of the
    /// cells of `ys` and the taps around them.
    func rowsWritten(y ys: ClosedRange<Double>) -> Range<Int> {
        // Clamped before rounding: a point far off the grid writes nothing.
        let limit = Double(yAxis.count + 1)
        let first = GaussianAxis.floor(min(max(yAxis.index(of: ys.lowerBound), -2), limit))
        let last = GaussianAxis.floor(min(max(yAxis.index(of: ys.upperBound), -2), limit))
        return max(first - 1 + CubicBinning.padding, 0)..<min(last + 3 + CubicBinning.padding, layout.height)
    }

    @inline(__always) func writes(x: Double, y: Double) -> Bool {
        CubicBinning.contains(x: x, y: y, xAxis: xAxis, yAxis: yAxis)
    }
}
