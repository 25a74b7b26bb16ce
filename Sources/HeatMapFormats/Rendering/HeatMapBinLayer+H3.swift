import Foundation
import HeatMapContouring
import HeatMapCore
import HeatMapDensity

extension HeatMapBinLayer {
    /// The cells of an H3 binning, coloured by `aggregate`, drawn in the
    /// result's equal-area plane (edges densified along their great circles).
    /// Tooltips name the cell by its id. O(bins).
    public init(
        _ result: H3BinningResult, aggregate: BinAggregate = .count, valueName: String? = nil,
        units: String = "", showsStatistics: Bool? = nil
    ) {
        let statistics = showsStatistics ?? (aggregate != .count)
        let projection = result.projection
        let tiles = result.bins.map { bin -> BinTile in
            let s = bin.statistics
            var extra = BinTile.otherAggregates(of: s, besides: aggregate, listed: statistics)
            extra.append(BinTile.Aggregate(name: "per km²", value: bin.density))
            let corners = H3CellOutline.ring(bin.cell).map { projection.project(latitude: $0.y, longitude: $0.x) }
            return BinTile(
                corners: corners, count: s.count, value: s.value(aggregate) ?? 0, id: "h3 \(bin.cell)",
                aggregates: extra)
        }
        self.init(bins: tiles, projection: projection, valueName: valueName ?? aggregate.rawValue, units: units)
    }
}
