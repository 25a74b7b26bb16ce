import Foundation
import HeatMapContouring
import HeatMapCore
import HeatMapDensity

/// CSV text of H3 bins: a header `h3,lat,lon,count,value,area_km2,density`,
/// then one row per cell in ascending order. `h3` is the 15-hex-digit id as
/// the reference prints it; lat/lon the cell centre rounded to `precision`
/// decimals; `value` the `aggregate` (empty where undefined); `density`
/// Σ value per km² of the cell's exact area.
package enum H3CSV {
    /// The whole CSV text. O(bins).
    package static func text(_ result: H3BinningResult, aggregate: BinAggregate = .count, precision: Int = 6) -> String
    {
        var out = "h3,lat,lon,count,value,area_km2,density\n"
        out.reserveCapacity(64 + result.bins.count * 80)
        let decimals = min(max(precision, 0), 15)
        for bin in result.bins {
            let c = bin.cell.center
            out += "\(bin.cell),\(fixed(c.latitude, decimals)),\(fixed(c.longitude, decimals)),\(bin.statistics.count),"
            if let v = bin.statistics.value(aggregate), v.isFinite { out += JSONText.number(v) }
            out += ",\(JSONText.number(bin.areaKm2)),\(JSONText.number(bin.density))\n"
        }
        return out
    }

    private static func fixed(_ v: Double, _ decimals: Int) -> String {
        String(format: "%.\(decimals)f", v)
    }
}
