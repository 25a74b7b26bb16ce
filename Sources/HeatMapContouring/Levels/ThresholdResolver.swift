import Foundation
import HeatMapCore
import HeatMapDensity

/// Turns a ``LevelSpacing`` into ascending thresholds for a grid (docs/level-spacing.md).
///
/// Every strategy returns strictly ascending values inside (min, max) of
/// the grid's defined values, at least 1e-9 of their range apart; the count
/// may be below the asked level count (quantile ties, custom values out of
/// range or closer than that), never above it, and levels are never
/// renumbered afterwards. Cost: O(cells) for linear, log and
/// nice; O(cells log cells) for quantile, auto and probability.
package enum ThresholdResolver {
    /// The thresholds of `spacing` with `levelCount` levels for `grid`.
    /// A density is never negative: values a hair below zero are rounding
    /// noise of the fast paths, so the range of a density grid starts at 0
    /// at the lowest (and a "nice" 0 never becomes a threshold). Values
    /// further below zero are data (a raster of elevations or anomalies
    /// read as a grid), and keep their range.
    package static func thresholds(for spacing: LevelSpacing, levelCount: Int, grid: DensityGrid) -> [Double] {
        // Only cancellation can fail, and this control never cancels.
        (try? thresholds(for: spacing, levelCount: levelCount, grid: grid, control: .none)) ?? []
    }

    /// The thresholds of ``thresholds(for:levelCount:grid:)``, polling
    /// `control` between blocks of nodes.
    /// - Throws: `CancellationError`.
    package static func thresholds(
        for spacing: LevelSpacing, levelCount: Int, grid: DensityGrid,
        control: ComputeControl
    ) throws -> [Double] {
        try thresholds(
            for: spacing, levelCount: levelCount, values: grid.values,
            floor: grid.estimator == .density ? 0 : nil, control: control)
    }

    /// The thresholds of `spacing` with `levelCount` levels for raw values
    /// (NaN values are undefined and ignored); `floor`, when given, raises
    /// the minimum to at least that value.
    package static func thresholds(
        for spacing: LevelSpacing, levelCount: Int, values: [Double],
        floor: Double? = nil
    ) -> [Double] {
        (try? thresholds(for: spacing, levelCount: levelCount, values: values, floor: floor, control: .none)) ?? []
    }

    /// The thresholds of ``thresholds(for:levelCount:values:floor:)``,
    /// polling `control` between blocks of values. Quantiles and the auto
    /// rule select order statistics (O(n), no sort of all values); the
    /// probability rule sorts by radix.
    /// - Throws: `CancellationError`.
    package static func thresholds(
        for spacing: LevelSpacing, levelCount: Int, values: [Double],
        floor: Double? = nil, control: ComputeControl
    ) throws -> [Double] {
        try values.withUnsafeBufferPointer { buffer in
            try thresholds(for: spacing, levelCount: levelCount, values: buffer, floor: floor, control: control)
        }
    }

    private static func thresholds(
        for spacing: LevelSpacing, levelCount: Int, values: UnsafeBufferPointer<Double>,
        floor: Double?, control: ComputeControl
    ) throws -> [Double] {
        try thresholds(
            for: spacing, levelCount: levelCount, passes: ValuePasses(values), candidateLimit: .max,
            sortedDescending: { try OrderStatistics.sortedDescending(values, above: 0, control: control) },
            floor: floor, control: control)
    }

    /// The thresholds of ``thresholds(for:levelCount:values:floor:control:)``
    /// over values passed over as often as needed (every frame's, say),
    /// holding about `candidateLimit` of them at most for the order
    /// statistics; `sortedDescending` gives the values above 0, largest
    /// first (only the probability rule asks).
    /// - Throws: `CancellationError`; what the passes throw.
    static func thresholds(
        for spacing: LevelSpacing, levelCount: Int, passes values: ValuePasses, candidateLimit: Int,
        sortedDescending: () throws -> [Double], floor: Double?, control: ComputeControl
    ) throws -> [Double] {
        var (lo, hi) = try OrderStatistics.extremes(values, control: control)
        if let floor, lo < floor, floor - lo <= noiseBelowFloor * (hi - floor) { lo = floor }
        guard lo.isFinite, hi.isFinite, hi > lo else { return [] }
        let levels = max(levelCount, 1)
        let range = hi - lo
        let result: [Double]
        switch spacing {
        case .auto:
            let chosen = try autoSpacing(
                values: values, minimum: lo, range: range, candidateLimit: candidateLimit, control: control)
            return try thresholds(
                for: chosen, levelCount: levelCount, passes: values, candidateLimit: candidateLimit,
                sortedDescending: sortedDescending, floor: floor, control: control)
        case .linear:
            result = (0..<levels).map { lo + range * Double($0 + 1) / Double(levels + 1) }
        case .logarithmic:
            let base = Double(levels + 1)
            result = (0..<levels).map { l in
                let f = Double(l + 1) / Double(levels + 1)
                return lo + range * (pow(base, f) - 1) / (base - 1)
            }
        case .quantile:
            let (count, picks) = try OrderStatistics.select(
                values, above: nonZeroFloor(minimum: lo, range: range),
                ranks: { m in
                    (0..<levels).map { l in min(Int(Double(l + 1) / Double(levels + 1) * Double(m)), m - 1) }
                }, candidateLimit: candidateLimit, control: control)
            guard count > 0 else { return [] }
            result = picks
        case .custom(let given):
            result = given.filter { $0 > lo && $0 < hi }
        case .nice:
            result = niceSteps(from: lo, to: hi, about: levels)
        case .probability(let shares):
            result = probabilityThresholds(sortedDescending: try sortedDescending(), shares: shares)
        }
        return ascendingUnique(
            result.filter { $0.isFinite && $0 > lo && $0 < hi || isQuantileEdge($0, lo, hi, spacing) },
            resolution: range.isFinite ? resolution * range : 0)
    }

    /// Quantile thresholds are grid values and may equal the maximum; the
    /// Apple package keeps them, so they are kept too (the level is then a
    /// set of single nodes, drawn as nothing).
    private static func isQuantileEdge(_ v: Double, _ lo: Double, _ hi: Double, _ spacing: LevelSpacing) -> Bool {
        if case .quantile = spacing { return v > lo && v <= hi }
        if case .auto = spacing { return v > lo && v <= hi }
        return false
    }

    /// `.quantile` when mean / median of the non-zero cells exceeds 2, else
    /// `.linear` (the mean summed in grid order).
    static func autoSpacing(
        values: ValuePasses, minimum: Double, range: Double, candidateLimit: Int,
        control: ComputeControl
    ) throws -> LevelSpacing {
        let floor = nonZeroFloor(minimum: minimum, range: range)
        let (count, median) = try OrderStatistics.select(
            values, above: floor, ranks: { $0 >= 2 ? [$0 / 2] : [] }, candidateLimit: candidateLimit,
            control: control)
        guard count >= 2, let median = median.first else { return .linear }
        let mean = try OrderStatistics.sum(values, above: floor, control: control) / Double(count)
        guard median > 0 else { return .linear }
        return mean / median > 2 ? .quantile : .linear
    }

    /// ``autoSpacing(values:minimum:range:candidateLimit:control:)`` of an array.
    static func autoSpacing(values: [Double], minimum: Double, range: Double) -> LevelSpacing {
        values.withUnsafeBufferPointer {
            (try? autoSpacing(
                values: ValuePasses($0), minimum: minimum, range: range, candidateLimit: .max, control: .none))
                ?? .linear
        }
    }

    /// How far below the floor, as a share of the values' height above it,
    /// the minimum may lie and still be rounding noise: floating-point
    /// sums err by a few ulps of the maximum, while a raster's own negative
    /// values lie far further below.
    static let noiseBelowFloor = 1e-6

    /// Where the Apple package's "non-zero" values begin: above min + 1e-10 × range.
    static func nonZeroFloor(minimum: Double, range: Double) -> Double { minimum + range * 1e-10 }

    /// Multiples of a 1, 2 or 5 × 10ᵏ step strictly between lo and hi, the
    /// step chosen so their count is as close to `count` as possible.
    static func niceSteps(from lo: Double, to hi: Double, about count: Int) -> [Double] {
        let range = hi - lo
        guard range > 0, range.isFinite else { return [] }
        var best: [Double] = []
        var bestScore = Int.max
        let e0 = Int(floor(log10(range / Double(max(count, 1))))) - 1
        for e in e0...(e0 + 3) {
            for m in [1.0, 2.0, 5.0] {
                let step = m * pow(10, Double(e))
                let first = (lo / step).rounded(.down) + 1
                let last = (hi / step).rounded(.up) - 1
                guard last >= first, last - first < 10_000 else { continue }
                let values = stride(from: first, through: last, by: 1).map { ($0 * step).roundedToSignificant(12) }
                    .filter { $0 > lo && $0 < hi }
                let score = abs(values.count - count)
                if score < bestScore || (score == bestScore && values.count < best.count) {
                    best = values
                    bestScore = score
                }
            }
        }
        return best
    }

    /// For each share p, the largest threshold t such that the cells with
    /// value ≥ t hold at least share p of the total (cell-summed) mass;
    /// `sorted` holds the positive values, largest first.
    static func probabilityThresholds(sortedDescending sorted: [Double], shares: [Double]) -> [Double] {
        let total = sorted.reduce(0, +)
        guard total > 0 else { return [] }
        var out: [Double] = []
        for p in shares where p > 0 && p < 1 {
            var acc = 0.0
            var t = sorted.last ?? 0
            for v in sorted {
                acc += v
                if acc >= p * total { t = v; break }
            }
            out.append(t)
        }
        return out
    }

    /// The fraction of the value range below which two thresholds are one
    /// level. Contouring places each crossing at least
    /// ``CrossingRule/epsilon`` edge lengths from a node and no finer:
    /// levels closer than that share crossings along the steep edges, and
    /// the band between them folds onto itself (quantiles of a field with
    /// plateaus, such as a uniform kernel's, pick values that differ only
    /// in their last bits).
    static let resolution = CrossingRule.epsilon

    /// `values` ascending, each at least `resolution` above the one kept
    /// before it (the first of a closer run is kept).
    static func ascendingUnique(_ values: [Double], resolution: Double = 0) -> [Double] {
        var out: [Double] = []
        for v in values.sorted() where out.last.map({ v - $0 > resolution }) ?? true { out.append(v) }
        return out
    }
}

extension Double {
    /// The value rounded to `digits` significant decimal digits (removes
    /// binary noise such as 0.30000000000000004 from step multiples).
    func roundedToSignificant(_ digits: Int) -> Double {
        guard self != 0, isFinite else { return self }
        let scale = pow(10, Double(digits) - (log10(abs(self))).rounded(.up))
        let r = (self * scale).rounded() / scale
        return r.isFinite ? r : self
    }
}
