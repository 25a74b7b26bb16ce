import Foundation
import HeatMapContouring
import HeatMapCore
import HeatMapDensity

/// The simplestyle fill of a bin feature: its aggregate's place on the
/// colour scale, and the export's opacity. Empty cells (and cells without
/// a value) are transparent in the gradient's first colour.
struct BinFill {
    package let gradient: HeatMapGradient
    package let opacity: Double
    package let range: ClosedRange<Double>?
    package let colorScale: HeatMapScaleType
    let stroke: HeatMapColor?

    /// The fill for bins whose values span `range`, styled by `options`.
    package init(options: GeoJSONOptions, range: ClosedRange<Double>?) {
        gradient = (options.gradient ?? HeatMapStyle.binGradient).visibleForBins
        opacity = options.fillOpacity.map(HeatMapColor.clampedOpacity) ?? 1
        self.range = range
        colorScale = options.colorScale
        stroke = options.stroke
    }

    /// The colour and the fill opacity of a bin. O(1).
    package func style(of stats: BinStatistics, aggregate: BinAggregate) -> (color: HeatMapColor, alpha: Double) {
        guard let value = stats.value(aggregate), let range, stats.count > 0 else { return (gradient.color(at: 0), 0) }
        let color = gradient.color(at: colorScale.fraction(of: value, in: range))
        return (color, opacity * color.alpha)
    }

    /// The aggregate properties every bin feature carries: `count`, the
    /// chosen aggregate as `value`, and `sum`, `mean`, `min`, `max`.
    func addAggregates(of stats: BinStatistics, value: Double?, to p: inout JSONProperties) {
        p.add("count", stats.count)
        p.add("value", GeoJSONExport.finite(value))
        p.add("sum", GeoJSONExport.finite(stats.sum))
        p.add("mean", GeoJSONExport.finite(stats.mean))
        p.add("min", GeoJSONExport.finite(stats.minimum))
        p.add("max", GeoJSONExport.finite(stats.maximum))
    }

    /// The simplestyle keys `fill`, `fill-opacity` and `stroke` (the fill
    /// colour unless the export sets one).
    func addStyle(color: HeatMapColor, alpha: Double, to p: inout JSONProperties) {
        p.add("fill", color.hex)
        p.add("fill-opacity", GeoJSONExport.roundedOpacity(alpha))
        p.add("stroke", (stroke ?? color).hex)
    }
}
