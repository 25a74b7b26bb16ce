import Foundation

/// How a grid's kernels got their radii when the points do not all share
/// one (``DensityGrid``'s `pointRadii`): each point's own, or Abramson's
/// adaptive bandwidth. The grid's `radius` is then the pilot's (adaptive)
/// or the one the grid was planned with (its padding and the `auto`
/// rule's floor), not every kernel's.
public enum PointRadii: Sendable, Hashable {
    /// Each point's own radius (a `--radius-column`, a ``HeatMapRadial``
    /// type), from `smallest` to `largest` over the points (plane units:
    /// metres for geographic input).
    case perPoint(smallest: Double, largest: Double)
    /// Abramson's adaptive bandwidth with this sensitivity and trim; the
    /// summary says what the points got.
    case adaptive(sensitivity: Double, trim: Double, summary: AdaptiveSummary)

    /// What the adaptive bandwidth chose; nil for radii per point.
    public var adaptiveSummary: AdaptiveSummary? {
        if case .adaptive(_, _, let summary) = self { return summary }
        return nil
    }

    /// The smallest and the largest radius a point got.
    public var range: ClosedRange<Double> {
        switch self {
        case .perPoint(let smallest, let largest): return smallest...largest
        case .adaptive(_, _, let summary): return summary.smallest...summary.largest
        }
    }
}
