import Foundation
import HeatMapContouring
import HeatMapCore
import HeatMapDensity

extension HeatMapBinLayer {
    /// The bins of a binning result, coloured by `aggregate`.
    ///
    /// ```swift
    /// let result = try HeatMapBinning.bin(quakes, configuration: BinningConfiguration(size: 60))
    /// let svg = HeatMapRenderer.svg(HeatMapBinLayer(result), scale: .symmetricLog)
    /// ```
    ///
    /// - Parameters:
    ///   - result: the bins to draw.
    ///   - aggregate: the figure that colours each cell (count by default).
    ///   - valueName: what that figure is called in the legend and
    ///     tooltips (default: the aggregate's name, e.g. "mean").
    ///   - units: the unit of the values ("" for none).
    ///   - showsStatistics: whether tooltips list sum, mean, min and max
    ///     too (default: for every aggregate but count). O(bins).
    public init(
        _ result: BinningResult, aggregate: BinAggregate = .count, valueName: String? = nil,
        units: String = "", showsStatistics: Bool? = nil
    ) {
        let (firstName, secondName) = result.grid.idNames
        let statistics = showsStatistics ?? (aggregate != .count)
        let tiles = result.bins.map { bin -> BinTile in
            let s = bin.statistics
            let extra = BinTile.otherAggregates(of: s, besides: aggregate, listed: statistics)
            let id = "\(firstName) \(bin.id.first), \(secondName) \(bin.id.second)"
            return BinTile(
                corners: bin.corners, count: s.count, value: s.value(aggregate) ?? 0, id: id,
                aggregates: extra)
        }
        self.init(
            bins: tiles, projection: result.projection, valueName: valueName ?? aggregate.rawValue,
            units: units)
    }
}
