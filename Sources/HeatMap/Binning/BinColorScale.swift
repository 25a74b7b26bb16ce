import Foundation

/// How bin values map to a position on a gradient (0 = low, 1 = high).
public enum BinColorScale: Sendable, Hashable {
    /// (v − min) / (max − min).
    case linear
    /// By log v between log min and log max; values ≤ 0 map to 0.
    case log
    /// By sign(v) · log(1 + |v| · slopeAtZero), as Swift Charts'
    /// `.symmetricLog(slopeAtZero:)`: linear near zero, logarithmic far out.
    case symlog(slopeAtZero: Double = 1)

    /// The position of `value` on the gradient for values spanning `range`;
    /// 0 for a degenerate range at its value, clamped to 0...1, never NaN.
    public func fraction(of value: Double, in range: ClosedRange<Double>) -> Double {
        let t: (Double) -> Double
        switch self {
        case .linear:
            t = { $0 }
        case .log:
            let floor = range.lowerBound > 0 ? range.lowerBound : Swift.min(range.upperBound, 1) * 1e-9
            guard range.upperBound > 0, value > 0 else { return 0 }
            t = { Foundation.log(Swift.max($0, floor)) }
        case .symlog(let slope):
            let s = slope.isFinite && slope > 0 ? slope : 1
            t = { ($0 < 0 ? -1 : 1) * Foundation.log1p(abs($0) * s) }
        }
        let lo = t(range.lowerBound), hi = t(range.upperBound), v = t(value)
        guard lo.isFinite, hi.isFinite, v.isFinite, hi > lo else { return value >= range.upperBound && hi > lo ? 1 : 0 }
        return Swift.min(Swift.max((v - lo) / (hi - lo), 0), 1)
    }
}
