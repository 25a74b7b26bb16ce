import Foundation
import HeatMapContouring
import HeatMapCore
import HeatMapDensity

/// CSV text of bins (docs/formats.md): a header `q,r,x,y,count,value` for hexagons or
/// `i,j,x,y,count,value` for squares, then one row per bin in the result's
/// row-major order. x, y is the cell centre in output coordinates
/// (longitude, latitude wrapped into [-180, 180) for geographic input;
/// plane x/y for planar input) rounded to `precision` decimals; `value` is
/// the `aggregate`, empty where it is undefined (mean, min or max of an
/// empty cell). Numbers are plain decimals without exponents.
package enum BinCSV {
    /// The whole CSV text. O(bins).
    package static func text(_ result: BinningResult, aggregate: BinAggregate = .count, precision: Int = 6) -> String {
        var out = JSONText(reserving: 64 + result.bins.count * 48)
        let (a, b) = result.grid.idNames
        out.append("\(a),\(b),x,y,count,value\n")
        let decimals = min(max(precision, 0), FixedRing.maximumDecimals)
        let scale = FixedRing.powers[decimals]
        for bin in result.bins {
            let c = result.outputCenter(of: bin)
            out.append(String(bin.id.first)); out.append(",")
            out.append(String(bin.id.second)); out.append(",")
            append(c.longitude, scale: scale, decimals: decimals, to: &out); out.append(",")
            append(c.latitude, scale: scale, decimals: decimals, to: &out); out.append(",")
            out.append(String(bin.statistics.count)); out.append(",")
            if let v = bin.statistics.value(aggregate), v.isFinite { out.append(JSONText.number(v)) }
            out.append("\n")
        }
        return out.string
    }

    private static func append(_ v: Double, scale: Double, decimals: Int, to out: inout JSONText) {
        let s = (v * scale).rounded()
        if s.isFinite, abs(s) < FixedRing.scaledLimit * 2 {
            out.append(fixed: Int64(s), decimals: decimals)
        } else {
            // Too large to round on the integer grid: the shortest decimal instead.
            out.append(JSONText.number(v))
        }
    }
}
