import Foundation
import HeatMapContouring
import HeatMapCore
import HeatMapDensity

/// Colours for bin values: a scale type (linear, log, symmetric log) over
/// a domain, a gradient, and a faint transparent colour for zero.
///
/// As in the Swift Charts hexagonal heat map, an empty or zero cell is not
/// left out but drawn in a faint, almost transparent tint of the gradient
/// (``zeroColor``), so the honeycomb stays visible. Non-zero values never
/// vanish: a transparent first stop of a gradient of three or more stops
/// is skipped (as the GeoJSON bin export does, so both agree), and a
/// two-stop fade from transparent starts at ``lowEnd``.
///
/// ```swift
/// let scale = HeatMapColorScale(type: .symmetricLog(slopeAtZero: 0.5),
///                               values: bins.map(\.value), gradient: .thermal)
/// let fill = scale.color(for: 42)
/// ```
public struct HeatMapColorScale: Sendable, Hashable {
    /// How values map to gradient positions.
    public var type: HeatMapScaleType
    /// The values at the low and high ends of the gradient.
    public var domain: ClosedRange<Double>
    /// The colours, low to high.
    public var gradient: HeatMapGradient
    /// The colour of zero (and, for `.log`, of values ≤ 0, which have no position).
    public var zeroColor: HeatMapColor
    /// Where on the (visible) gradient the domain's low end lies, 0...1:
    /// 0, or 0.1 when the visible gradient still starts transparent.
    public var lowEnd: Double
    /// The gradient the values run along (``gradient`` minus a transparent first stop).
    package let visible: HeatMapGradient

    /// Creates a scale over `domain`. The zero colour defaults to
    /// ``faintColor(of:)`` of the gradient.
    public init(
        type: HeatMapScaleType = .linear, domain: ClosedRange<Double>,
        gradient: HeatMapGradient = .thermal, zeroColor: HeatMapColor? = nil, lowEnd: Double? = nil
    ) {
        self.type = type
        self.domain = domain
        self.gradient = gradient
        self.zeroColor = zeroColor ?? HeatMapColorScale.faintColor(of: gradient)
        visible = gradient.visibleForBins
        let automatic = visible.colors[0].alpha == 0 ? 0.1 : 0
        self.lowEnd = lowEnd.map { $0.isFinite ? min(max($0, 0), 1) : automatic } ?? automatic
    }

    /// Creates a scale whose domain spans the non-zero finite `values`
    /// (only the positive ones for `.log`); 0...1 when there are none. O(n).
    public init(
        type: HeatMapScaleType = .linear, values: [Double], gradient: HeatMapGradient = .thermal,
        zeroColor: HeatMapColor? = nil, lowEnd: Double? = nil
    ) {
        var lo = Double.infinity, hi = -Double.infinity
        for v in values where v.isFinite && v != 0 && (v > 0 || !type.needsPositiveValues) {
            lo = min(lo, v)
            hi = max(hi, v)
        }
        let domain = lo <= hi ? lo...hi : (type.needsPositiveValues ? 1...10 : 0...1)
        self.init(type: type, domain: domain, gradient: gradient, zeroColor: zeroColor, lowEnd: lowEnd)
    }

    /// The faint colour for zero: the gradient's first visible hue at 8 % opacity.
    public static func faintColor(of gradient: HeatMapGradient) -> HeatMapColor {
        let hue = gradient.colors.first { $0.alpha > 0 } ?? gradient.colors[gradient.colors.count - 1]
        return hue.withAlpha(0.08)
    }

    /// Where `value` lies on the scale, 0 (domain low) … 1 (domain high),
    /// clamped; nil for zero, NaN, and values the scale cannot place (log
    /// of x ≤ 0). A domain of one value puts everything at 1. O(1).
    public func position(of value: Double) -> Double? {
        guard value.isFinite, value != 0, let f = type.transform(value) else { return nil }
        guard let lo = type.transform(domain.lowerBound), let hi = type.transform(domain.upperBound),
            hi > lo
        else { return 1 }
        return min(max((f - lo) / (hi - lo), 0), 1)
    }

    /// The colour of `value`: ``zeroColor`` where ``position(of:)`` is nil,
    /// else the visible gradient at lowEnd + (1 − lowEnd) × position. O(1).
    public func color(for value: Double) -> HeatMapColor {
        guard let p = position(of: value) else { return zeroColor }
        return color(atPosition: p)
    }

    /// The colour at a scale position 0...1 (for legend bars).
    public func color(atPosition p: Double) -> HeatMapColor {
        visible.color(for: lowEnd + (1 - lowEnd) * min(max(p, 0), 1))
    }

    /// Round values inside the domain for legend ticks, about `count` of
    /// them: 1-2-5 steps for linear; powers of ten (then 1-2-5 within
    /// decades) for log; zero and ± powers of ten for symmetric log. Both
    /// domain ends are added when fewer than two ticks fall inside. O(count).
    public func ticks(count: Int = 5) -> [Double] {
        let lo = domain.lowerBound, hi = domain.upperBound
        let n = max(count, 2)
        var ticks: [Double]
        switch type.kind {
        case .linear:
            ticks = NiceNumbers.linearTicks(lo, hi, count: n)
        case .log:
            ticks = NiceNumbers.logTicks(lo, hi, count: n)
        case .symmetricLog(let slope):
            ticks = NiceNumbers.symmetricLogTicks(lo, hi, slopeAtZero: slope, count: n)
        }
        if ticks.count < 2 { ticks = lo == hi ? [lo] : [lo, hi] }
        return ticks
    }
}

/// Round tick values: 1, 2, 5 × 10ᵏ.
enum NiceNumbers {
    /// The 1-2-5 step that cuts `span` into about `count` parts.
    package static func step(span: Double, count: Int) -> Double {
        guard span > 0, span.isFinite else { return 1 }
        let raw = span / Double(max(count, 1))
        let power = pow(10, floor(log10(raw)))
        let f = raw / power
        let nice: Double = f < 1.5 ? 1 : (f < 3.5 ? 2 : (f < 7.5 ? 5 : 10))
        return nice * power
    }

    /// Multiples of a 1-2-5 step inside lo...hi. Each tick is computed as
    /// k × step (not by repeated addition) and cleaned of binary noise.
    static func linearTicks(_ lo: Double, _ hi: Double, count: Int) -> [Double] {
        guard lo.isFinite, hi.isFinite, hi > lo else { return [] }
        let s = step(span: hi - lo, count: count)
        // Ticks too far from zero for their step cannot be told apart (and
        // would overflow Int): the caller falls back to the domain ends.
        guard abs(lo / s) < 1e15, abs(hi / s) < 1e15 else { return [] }
        // A hair of tolerance, so 0.35 / 0.05 = 6.9999… still counts as 7.
        let first = Int((lo / s - 1e-9).rounded(.up)), last = Int((hi / s + 1e-9).rounded(.down))
        guard last >= first, last - first <= 1000 else { return [] }
        return (first...last).map { clean(Double($0) * s) }
    }

    /// Powers of ten inside lo...hi (lo > 0), thinned to about `count`;
    /// with fewer than three, 1-2-5 multiples inside the decade(s).
    static func logTicks(_ lo: Double, _ hi: Double, count: Int) -> [Double] {
        guard lo > 0, hi > lo, lo.isFinite, hi.isFinite else { return [] }
        let e0 = Int(ceil(log10(lo) - 1e-12)), e1 = Int(floor(log10(hi) + 1e-12))
        var ticks: [Double] = []
        if e1 >= e0 {
            let every = max(1, Int(ceil(Double(e1 - e0 + 1) / Double(count))))
            for e in stride(from: e0, through: e1, by: every) { ticks.append(clean(pow(10, Double(e)))) }
        }
        if ticks.count < 3 {
            // One or two decades: 1-2-5 steps say more.
            ticks = []
            for e in (e0 - 1)...(e1 + 1) {
                for m in [1.0, 2, 5] {
                    let v = clean(m * pow(10, Double(e)))
                    if v >= lo * (1 - 1e-12) && v <= hi * (1 + 1e-12) { ticks.append(v) }
                }
            }
            if ticks.count > count {
                let every = Int(ceil(Double(ticks.count) / Double(count)))
                ticks = stride(from: 0, to: ticks.count, by: every).map { ticks[$0] }
            }
        }
        return ticks
    }

    /// Zero (when inside) and ± powers of ten inside lo...hi, thinned to
    /// about `count`. Magnitudes below 1 / slopeAtZero lie in the scale's
    /// linear part, squeezed near zero, so they get no tick there.
    static func symmetricLogTicks(_ lo: Double, _ hi: Double, slopeAtZero: Double, count: Int) -> [Double] {
        guard lo.isFinite, hi.isFinite, hi > lo else { return [] }
        var ticks: [Double] = []
        let linearPart = 0.999 / slopeAtZero
        if hi > 0 {
            let from = lo > 0 ? lo : min(linearPart, hi)
            ticks += hi > from ? logTicks(from, hi, count: 1000) : [hi]
        }
        if lo < 0 {
            let from = hi < 0 ? -hi : min(linearPart, -lo)
            ticks += (-lo > from ? logTicks(from, -lo, count: 1000) : [-lo]).map { -$0 }
        }
        if lo <= 0 && hi >= 0 { ticks.append(0) }
        ticks = Array(Set(ticks)).sorted()
        if ticks.count > count {
            let every = Int(ceil(Double(ticks.count) / Double(count)))
            // Keep zero (or the smallest magnitude) in the thinned set.
            let anchor = ticks.firstIndex(of: 0) ?? 0
            ticks = ticks.enumerated().filter { abs($0.offset - anchor) % every == 0 }.map(\.element)
        }
        return ticks
    }

    /// Drops binary noise: 0.30000000000000004 → 0.3 (15 significant digits).
    static func clean(_ v: Double) -> Double {
        guard v.isFinite, v != 0 else { return v }
        return Double(String(format: "%.15g", v)) ?? v
    }
}
