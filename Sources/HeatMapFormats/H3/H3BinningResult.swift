import Foundation
import HeatMapContouring
import HeatMapCore
import HeatMapDensity

/// Points binned into H3 cells of one resolution, in ascending cell order.
public struct H3BinningResult: Sendable {
    /// The resolution, 0...15.
    public let resolution: Int
    /// Occupied cells (and, when asked for, the empty cells covering the data), ascending.
    public let bins: [H3Bin]
    /// Points binned and points left out (with why).
    public let summary: InputSummary
    /// An equal-area plane fitted to the data, for drawing the cells.
    public let projection: PlaneProjection

    /// Creates a result from its parts.
    public init(resolution: Int, bins: [H3Bin], summary: InputSummary, projection: PlaneProjection) {
        self.resolution = resolution
        self.bins = bins
        self.summary = summary
        self.projection = projection
    }

    /// The number of points binned (Σ count).
    public var pointCount: Int { summary.used }

    /// The smallest and largest defined value of `aggregate`, nil when none is. O(bins).
    public func valueRange(_ aggregate: BinAggregate) -> ClosedRange<Double>? {
        var lo = Double.infinity, hi = -Double.infinity
        for bin in bins {
            guard let v = bin.statistics.value(aggregate) else { continue }
            lo = min(lo, v)
            hi = max(hi, v)
        }
        return lo <= hi ? lo...hi : nil
    }
}
