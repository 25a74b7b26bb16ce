import Foundation
import HeatMapContouring
import HeatMapCore
import HeatMapDensity

/// How a value maps to a position along a colour scale, named as Swift
/// Charts' `ScaleType`: `.linear`, `.log`, `.symmetricLog` and
/// `.symmetricLog(slopeAtZero:)`.
///
/// Each maps a domain `lo...hi` onto 0...1 through a transform `f`,
/// position = (f(v) − f(lo)) / (f(hi) − f(lo)):
/// - linear: f(x) = x;
/// - log: f(x) = ln x (only x > 0 has a position);
/// - symmetric log: f(x) = sign(x) · ln(1 + |x · slopeAtZero|), which is
///   Swift Charts' `y = a · sign(x) · log(1 + |x · slopeAtZero|) + b` with
///   `a`, `b` chosen to fit the range. Near zero it is linear with slope
///   `slopeAtZero`, far from it logarithmic; zero and negatives are fine.
public struct HeatMapScaleType: Sendable, Hashable {
    package enum Kind: Sendable, Hashable {
        case linear
        case log
        case symmetricLog(slopeAtZero: Double)
    }

    package let kind: Kind

    /// Position proportional to the value.
    public static let linear = HeatMapScaleType(kind: .linear)
    /// Position proportional to the logarithm of the value (values ≤ 0 have none).
    public static let log = HeatMapScaleType(kind: .log)
    /// Symmetric log with `slopeAtZero` 1.
    public static let symmetricLog = HeatMapScaleType(kind: .symmetricLog(slopeAtZero: 1))

    /// Symmetric log, f(x) = sign(x) · ln(1 + |x · slopeAtZero|).
    /// `slopeAtZero` must be positive; anything else is taken as 1.
    public static func symmetricLog(slopeAtZero: Double) -> HeatMapScaleType {
        let s = slopeAtZero.isFinite && slopeAtZero > 0 ? slopeAtZero : 1
        return HeatMapScaleType(kind: .symmetricLog(slopeAtZero: s))
    }

    /// The scale from the tool's `--scale` word: `linear`, `log`, `symlog`
    /// or `symlog:SLOPE`; nil otherwise.
    public init?(name: String) {
        let word = name.trimmingCharacters(in: .whitespaces).lowercased()
        switch word {
        case "linear": self = .linear
        case "log": self = .log
        case "symlog", "symmetriclog": self = .symmetricLog
        default:
            guard word.hasPrefix("symlog:"), let s = Double(word.dropFirst(7)), s.isFinite, s > 0 else { return nil }
            self = .symmetricLog(slopeAtZero: s)
        }
    }

    private init(kind: Kind) { self.kind = kind }

    /// The transform f of the value; nil where it has none (log of x ≤ 0, NaN).
    public func transform(_ x: Double) -> Double? {
        guard x.isFinite else { return nil }
        if kind == .log, x <= 0 { return nil }
        return f(x)
    }

    /// f itself, without the checks: log of x ≤ 0 is −∞ or NaN here.
    private func f(_ x: Double) -> Double {
        switch kind {
        case .linear: return x
        case .log: return Foundation.log(x)
        case .symmetricLog(let s):
            let m = Foundation.log1p(abs(x * s))
            return x < 0 ? -m : m
        }
    }

    /// Where `value` lies on a gradient for values spanning `range`, 0...1:
    /// the `fill` of a GeoJSON bin feature. Unlike
    /// ``HeatMapColorScale/position(of:)`` (pictures, where zero has its own
    /// faint colour), every value gets a place: clamped to 0...1, 0 for a
    /// degenerate range, and for `.log` values ≤ 0 sit at 0 while a range
    /// reaching down to 0 starts a billionth of its top (at most 1) above it.
    /// Never NaN. O(1).
    public func fraction(of value: Double, in range: ClosedRange<Double>) -> Double {
        var floor = -Double.infinity
        if kind == .log {
            guard range.upperBound > 0, value > 0 else { return 0 }
            floor = range.lowerBound > 0 ? range.lowerBound : Swift.min(range.upperBound, 1) * 1e-9
        }
        let lo = f(Swift.max(range.lowerBound, floor)), hi = f(Swift.max(range.upperBound, floor))
        let v = f(Swift.max(value, floor))
        guard lo.isFinite, hi.isFinite, v.isFinite, hi > lo else { return value >= range.upperBound && hi > lo ? 1 : 0 }
        return Swift.min(Swift.max((v - lo) / (hi - lo), 0), 1)
    }

    /// The inverse of ``transform(_:)`` (for placing legend ticks).
    public func inverse(_ y: Double) -> Double {
        switch kind {
        case .linear: return y
        case .log: return exp(y)
        case .symmetricLog(let s):
            let m = expm1(abs(y)) / s
            return y < 0 ? -m : m
        }
    }

    /// Whether values must be positive (log).
    public var needsPositiveValues: Bool { kind == .log }

    /// Symmetric log, as the bin scale's former spelling `.symlog(slopeAtZero:)`.
    @available(*, deprecated, renamed: "symmetricLog(slopeAtZero:)")
    public static func symlog(slopeAtZero: Double = 1) -> HeatMapScaleType { symmetricLog(slopeAtZero: slopeAtZero) }
}

/// The bin colour scale's former name: bins and pictures share one scale type.
@available(*, deprecated, renamed: "HeatMapScaleType")
public typealias BinColorScale = HeatMapScaleType

extension HeatMapScaleType: CustomStringConvertible {
    /// "linear", "log", "symmetricLog(slopeAtZero: 1)".
    public var description: String {
        switch kind {
        case .linear: return "linear"
        case .log: return "log"
        case .symmetricLog(let s):
            return "symmetricLog(slopeAtZero: \(HeatMapNumberFormat.string(s, significantDigits: 6)))"
        }
    }
}
