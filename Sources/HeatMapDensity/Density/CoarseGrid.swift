import Foundation

/// A grid of twice the step for the widest radius classes (``ClassConvolution``),
/// and the cubic interpolation that brings its sums back to the grid's nodes.
/// The same over a coarse grid gives one of four times the step, whose
/// sums come back through both (``RadiusClassFill``).
///
/// A class of radius ρ ≥ 2 ρ₀ (ρ₀ the narrowest class, itself at least the
/// convolution's threshold) is still that threshold or more cells wide on
/// the coarse grid, so its binning errs by no more than the narrowest
/// class's there, relative to its own peak; its peak is a quarter of a
/// ρ₀ point's or less, and the interpolation back adds an error of the same
/// order (its kink at the support's edge, smoothed over a coarse cell). Its
/// transforms take a quarter of the nodes, and the fine grid's transform
/// need only reach the narrower classes.
///
/// Coarse node j sits on fine node 2j − 2 (one coarse node before the
/// grid's first, and enough after its last for the four taps of the
/// interpolation): a fine node of even index is a coarse node, one of odd
/// index the midpoint of two, read by the cubic Lagrange weights
/// (−1, 9, 9, −1) / 16.
enum CoarseGrid {
    /// The coarse axis over `axis`: twice its step, from one coarse step
    /// before its first node to at least two after its last.
    static func axis(over axis: GaussianAxis) -> GaussianAxis {
        GaussianAxis(
            origin: axis.origin - 2 * axis.step, step: 2 * axis.step, count: (axis.count - 1) / 2 + 4,
            sigma: axis.sigma, reach: axis.reach)
    }

    /// Fine row or column `i` of the coarse one's: the coarse node it sits
    /// on (even `i`), or the first of the four about the midpoint it sits
    /// on (odd `i`).
    @inline(__always) static func tap(_ i: Int) -> Int { i & 1 == 0 ? i / 2 + 1 : i / 2 }

    /// The fine row of `count` nodes from a coarse row (of at least
    /// `(count − 1) / 2 + 4` nodes), into `fine`. O(count).
    static func expand(_ coarse: UnsafePointer<Double>, into fine: UnsafeMutablePointer<Double>, count: Int) {
        var i = 0
        while i + 1 < count {
            let k = i / 2
            fine[i] = coarse[k + 1]
            fine[i + 1] = midpoint(coarse[k], coarse[k + 1], coarse[k + 2], coarse[k + 3])
            i += 2
        }
        if i < count { fine[i] = coarse[i / 2 + 1] }
    }

    /// Fine row `r` of `count` nodes from the rows of a grid already
    /// expanded along x (`count` nodes a row, row-major, at `expanded`),
    /// into `fine`. O(count).
    static func blend(
        row r: Int, of expanded: UnsafePointer<Double>, count: Int, into fine: UnsafeMutablePointer<Double>
    ) {
        let first = expanded + tap(r) * count
        if r & 1 == 0 {
            fine.update(from: first, count: count)
            return
        }
        let a = first, b = a + count, c = b + count, d = c + count
        for i in 0..<count { fine[i] = midpoint(a[i], b[i], c[i], d[i]) }
    }

    /// The cubic through four equally spaced values, at the middle of the two inner ones.
    @inline(__always) static func midpoint(_ a: Double, _ b: Double, _ c: Double, _ d: Double) -> Double {
        (9 * (b + c) - (a + d)) * (1.0 / 16)
    }
}
