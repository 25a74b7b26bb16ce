import Foundation
import HeatMapCore

/// The Gaussian factor exp(−d² / 2σ²) along one axis of the grid.
///
/// The 2-D kernel is separable, exp(−(dx² + dy²)/2σ²) = gx · gy, so a point's
/// footprint is the outer product of two 1-D vectors. Along an axis the
/// nodes are evenly spaced, which makes the vector a recurrence: with
/// g(j) = exp(−(xⱼ − p)²/2σ²), the ratio q(j) = g(j+1)/g(j) itself changes by
/// the constant factor exp(−δ²/σ²) per step, so a vector of length L costs
/// two `exp` and 2L multiplications instead of L `exp`.
package struct GaussianAxis: Sendable {
    /// Position of node 0.
    package let origin: Double
    /// Node spacing δ (> 0).
    package let step: Double
    /// Number of nodes.
    package let count: Int
    /// The kernel's σ, in the same units.
    package let sigma: Double
    /// Distance beyond which the kernel is dropped.
    package let reach: Double

    private let halfInverseVariance: Double  // 1 / 2σ²
    private let ratioStep: Double  // exp(−δ²/σ²)
    private let stepSquared: Double
    private let inverseStep: Double

    package init(origin: Double, step: Double, count: Int, sigma: Double, reach: Double) {
        self.origin = origin
        self.step = step
        self.count = count
        self.sigma = sigma
        self.reach = reach
        halfInverseVariance = 1 / (2 * sigma * sigma)
        ratioStep = exp(-step * step / (sigma * sigma))
        stepSquared = step * step
        inverseStep = 1 / step
    }

    /// The fractional node index of position p: (p − origin) / δ.
    @inline(__always) package func index(of p: Double) -> Double { (p - origin) * inverseStep }

    /// The node indices within `reach` of p, clipped to the grid, as an
    /// inclusive range `lo...hi`; empty (lo > hi) when none. p must be finite.
    @inline(__always) package func span(of p: Double) -> (lo: Int, hi: Int) {
        span(of: p, reach: reach)
    }

    /// Like ``span(of:)`` for another reach (the circular footprint narrows
    /// its rows).
    @inline(__always) package func span(of p: Double, reach r: Double) -> (lo: Int, hi: Int) {
        // Clamp in floating point before converting: far-away points must not
        // overflow Int.
        let upper = Double(count)
        let lo = max(GaussianAxis.ceiling(min(max((p - r - origin) * inverseStep, -1), upper)), 0)
        let hi = GaussianAxis.floor(min(max((p + r - origin) * inverseStep, -1), upper))
        return (lo, min(hi, count - 1))
    }

    // Swift's rounding calls libm's floor/ceil on baseline x86-64 (no
    // SSE4.1); truncation plus a fix-up is several times cheaper in these
    // per-row loops. Valid for |v| < 2⁶², which the clamps above ensure.
    @inline(__always) package static func floor(_ v: Double) -> Int {
        let t = Int(v)
        return Double(t) > v ? t - 1 : t
    }

    @inline(__always) static func ceiling(_ v: Double) -> Int {
        let t = Int(v)
        return Double(t) < v ? t + 1 : t
    }

    /// The node nearest to the fractional index `f`, or nil when `f` lies
    /// half a cell or more outside the axis.
    @inline(__always) package func node(atIndex f: Double) -> Int? {
        guard f >= -0.5, f < Double(count) - 0.5 else { return nil }
        return min(GaussianAxis.floor(f + 0.5), count - 1)
    }

    /// The node nearest p, clamped to the grid.
    @inline(__always) package func nearest(_ p: Double) -> Int {
        let n = GaussianAxis.floor(min(max(index(of: p), -1), Double(count)) + 0.5)
        return min(max(n, 0), count - 1)
    }

    /// Writes exp(−(xⱼ − p)²/2σ²) for j in lo...hi to `out[0...(hi − lo)]`.
    ///
    /// The recurrence starts at the node nearest p and runs outward both
    /// ways (two independent multiply chains, interleaved), so every ratio
    /// is ≤ 1: nothing overflows, and far values fade to zero rather than to
    /// NaN. The two starting ratios multiply to exp(−δ²/σ²), so one `exp`
    /// and a division give both.
    @inline(__always)
    package func fill(_ out: UnsafeMutablePointer<Double>, around p: Double, lo: Int, hi: Int) {
        guard lo <= hi else { return }
        let nearest = GaussianAxis.floor(min(max(index(of: p), Double(lo) - 1), Double(hi) + 1) + 0.5)
        let centre = min(max(nearest, lo), hi)
        let d = origin + Double(centre) * step - p
        let k = centre - lo
        let g = expOfNegative(-d * d * halfInverseVariance)
        out[k] = g
        // Rightward ratio g(j+1)/g(j) = exp(−(2dδ + δ²)/2σ²), leftward
        // exp(−(δ² − 2dδ)/2σ²); each then shrinks by exp(−δ²/σ²) per step.
        var right = expOfNegative(-(2 * d * step + stepSquared) * halfInverseVariance)
        var left =
            right > 1e-300
            ? ratioStep / right
            : expOfNegative(-(stepSquared - 2 * d * step) * halfInverseVariance)
        var vr = g, vl = g
        let rightCount = hi - centre, leftCount = k
        let both = min(rightCount, leftCount)
        var t = 1
        while t <= both {
            vr *= right
            vl *= left
            out[k + t] = vr
            out[k - t] = vl
            right *= ratioStep
            left *= ratioStep
            t += 1
        }
        while t <= rightCount {
            vr *= right
            out[k + t] = vr
            right *= ratioStep
            t += 1
        }
        while t <= leftCount {
            vl *= left
            out[k - t] = vl
            left *= ratioStep
            t += 1
        }
    }
}
