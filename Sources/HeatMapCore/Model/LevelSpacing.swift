import Foundation

/// How contour thresholds are spread over the range of the density grid.
///
/// The first five cases follow the Apple HeatMap package exactly; `nice`
/// and `probability` are additions. `Levels/ThresholdResolver.swift`
/// turns a spacing into numbers.
public enum LevelSpacing: Sendable, Hashable {
    /// `quantile` when mean / median of the non-zero cells exceeds 2, else `linear`.
    case auto
    /// Fractions (l + 1) / (L + 1) of [min, max].
    case linear
    /// min + range × (base^f − 1) / (base − 1), base = L + 1, f = (l + 1) / (L + 1).
    case logarithmic
    /// Quantiles (l + 1) / (L + 1) of the non-zero cells, duplicates removed.
    case quantile
    /// These values, in the grid's units; those outside (min, max) are
    /// dropped, the rest sorted and de-duplicated.
    case custom(_ thresholds: [Double])
    /// Round values (1, 2, 5 × 10ᵏ) between min and max, about L of them.
    case nice
    /// Highest-density regions: for each share p in (0, 1), the threshold
    /// whose superlevel set holds share p of the total mass.
    case probability(_ shares: [Double])
}

extension LevelSpacing: CustomStringConvertible {
    public var description: String {
        switch self {
        case .auto: return "auto"
        case .linear: return "linear"
        case .logarithmic: return "logarithmic"
        case .quantile: return "quantile"
        case .nice: return "nice"
        case .custom(let t): return "custom(\(t.count) thresholds)"
        case .probability(let p): return "probability(\(p.map { String($0) }.joined(separator: ",")))"
        }
    }
}
