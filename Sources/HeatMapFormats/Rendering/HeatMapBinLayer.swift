import Foundation
import HeatMapContouring
import HeatMapCore
import HeatMapDensity

/// One bin to draw: its cell polygon in the binning plane and what it holds.
///
/// Any binning result adapts in one line, e.g.
/// `cells.map { BinTile(corners: $0.corners, count: $0.count, value: $0.mean) }`.
public struct BinTile: Sendable, Hashable {
    /// A named figure shown in the bin's tooltip (sum, mean, min, max…).
    public struct Aggregate: Sendable, Hashable {
        /// What the figure is, e.g. "mean Sale_Price".
        public var name: String
        /// The figure.
        public var value: Double

        /// Creates an aggregate.
        public init(name: String, value: Double) {
            self.name = name
            self.value = value
        }
    }

    /// The cell's corners in the binning plane (x east, y north), counter-
    /// clockwise, not repeating the first.
    public var corners: [PlanePoint]
    /// Points in the cell.
    public var count: Int
    /// The value that colours the cell (the count, or the chosen aggregate).
    public var value: Double
    /// The cell's id for the tooltip, e.g. "q 3, r −2" ("" for none).
    public var id: String
    /// Further figures for the tooltip.
    public var aggregates: [Aggregate]

    /// The sum, mean, min and max of an occupied bin other than `shown`
    /// (the figure that colours it), for its tooltip; none when
    /// `listed` is false. O(1).
    static func otherAggregates(of s: BinStatistics, besides shown: BinAggregate, listed: Bool) -> [Aggregate] {
        guard listed, s.count > 0 else { return [] }
        return [BinAggregate.sum, .mean, .min, .max].compactMap { a in
            guard a != shown, let v = s.value(a) else { return nil }
            return Aggregate(name: a.rawValue, value: v)
        }
    }

    /// Creates a bin.
    public init(corners: [PlanePoint], count: Int, value: Double, id: String = "", aggregates: [Aggregate] = []) {
        self.corners = corners
        self.count = count
        self.value = value
        self.id = id
        self.aggregates = aggregates
    }
}

/// Bins ready to draw: the cells, the plane they live in, and what their
/// value means.
public struct HeatMapBinLayer: Sendable, Hashable {
    /// The cells.
    public var bins: [BinTile]
    /// The binning plane's projection (also used to project the basemap);
    /// `PlaneProjection(kind: .planar)` for bins of raw x/y.
    public var projection: PlaneProjection
    /// What ``BinTile/value`` is, for the legend and tooltips, e.g.
    /// "count" or "mean Sale_Price".
    public var valueName: String
    /// The unit of the values ("" for none).
    public var units: String

    /// Creates a bin layer.
    public init(bins: [BinTile], projection: PlaneProjection, valueName: String = "count", units: String = "") {
        self.bins = bins
        self.projection = projection
        self.valueName = valueName
        self.units = units
    }
}
