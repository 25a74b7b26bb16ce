import Foundation
import HeatMapCore

/// exp(−(j·δ − u)²/2σ²) for the nodes j = −J…J around a point, tabulated
/// over the point's offset u from its nearest node (|u| ≤ δ/2) and
/// interpolated linearly.
///
/// Looking a point's kernel vector up costs one multiply-add per node,
/// instead of the exponentials and dependent multiply chain of
/// ``GaussianAxis/fill(_:around:lo:hi:)``. With N intervals the
/// interpolation error is at most max|∂²g/∂u²|/(8N²) = (δ/σ)²/(8N²) of the
/// peak: N = 128 keeps it below 7.7e−6 for σ ≥ δ, and narrower kernels get
/// N = 128·⌈2δ/σ⌉ (below 2e−6), far inside the 1e−3 accuracy bound. Used
/// when J is small (the table has about 2N · (2J + 1) entries). The table is
/// read at a random interval per point, so it is kept small (a few tens of
/// kilobytes for kernels of a few cells) and each interval's two rows side
/// by side: one or two cache lines per lookup.
final class GaussianTable: @unchecked Sendable {
    /// J: nodes on each side of the nearest one.
    package let half: Int
    /// 2J + 1.
    package let width: Int
    /// Intervals over u ∈ [−δ/2, δ/2].
    let intervals: Int
    /// Doubles per interval: the width rounded up to a multiple of four,
    /// the padding zero, so a vector load of a whole row is safe and adds
    /// nothing beyond the kernel.
    package let stride: Int
    /// For interval k, at `2k·stride`: g at its left end for j = 0..<width
    /// (padded to `stride`), then the change across it likewise.
    private let rows: UnsafeMutablePointer<Double>

    /// The largest J tabulated; beyond, the recurrence is cheaper in memory.
    static let maximumHalf = 48

    /// J for an axis: every node within reach of a point half a cell off
    /// its nearest node, |j| ≤ reach/δ + ½. (A Double: for a kernel too
    /// wide to tabulate it may not fit an Int.)
    private static func halfWidth(_ axis: GaussianAxis) -> Double {
        (axis.reach / axis.step + 0.5).rounded(.down)
    }

    /// J for an axis whose kernel ``fits(_:)``.
    package static func half(of axis: GaussianAxis) -> Int { Int(halfWidth(axis)) }

    /// Whether an axis's kernel is narrow enough in cells to tabulate.
    package static func fits(_ axis: GaussianAxis) -> Bool {
        halfWidth(axis) <= Double(maximumHalf)
    }

    package init(axis: GaussianAxis) {
        half = GaussianTable.half(of: axis)
        width = 2 * half + 1
        let narrowness = axis.step / axis.sigma
        intervals = narrowness <= 1 ? 128 : 128 * Int((2 * narrowness).rounded(.up))
        let n = intervals
        let values = UnsafeMutablePointer<Double>.allocate(capacity: (n + 1) * width)
        defer { values.deallocate() }
        let scale = axis.step / axis.sigma
        for k in 0...n {
            let u = -0.5 + Double(k) / Double(n)
            for j in 0..<width {
                let t = (Double(j - half) - u) * scale
                values[k * width + j] = exp(-t * t / 2)
            }
        }
        stride = (width + 3) / 4 * 4
        rows = .allocate(capacity: 2 * n * stride)
        rows.initialize(repeating: 0, count: 2 * n * stride)
        for k in 0..<n {
            let base = rows + 2 * k * stride, slope = base + stride
            for j in 0..<width {
                base[j] = values[k * width + j]
                slope[j] = values[(k + 1) * width + j] - values[k * width + j]
            }
        }
    }

    deinit { rows.deallocate() }

    /// The table's numbers without the object, for per-point loops: a copy
    /// costs no reference counting. Valid while the table lives.
    var lookup: Lookup {
        Lookup(half: half, width: width, intervals: intervals, stride: stride, rows: UnsafePointer(rows))
    }

    /// A ``GaussianTable`` seen through plain values (see ``GaussianTable/lookup``).
    struct Lookup {
        /// J: nodes on each side of the nearest one.
        package let half: Int
        /// 2J + 1.
        package let width: Int
        /// Intervals over u ∈ [−δ/2, δ/2].
        let intervals: Int
        /// Doubles per row (two rows per interval).
        package let stride: Int
        package let rows: UnsafePointer<Double>

        /// The interval of offset `u` (in cells, −0.5…0.5) and the position in it.
        @inline(__always) package func locate(_ u: Double) -> (
            base: UnsafePointer<Double>, slope: UnsafePointer<Double>, t: Double
        ) {
            let n = intervals
            let position = min(max((u + 0.5) * Double(n), 0), Double(n))
            let k = min(Int(position), n - 1)
            let base = rows + 2 * k * stride
            return (base, base + stride, position - Double(k))
        }
    }
}
