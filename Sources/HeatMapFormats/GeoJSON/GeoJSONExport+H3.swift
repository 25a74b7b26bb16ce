import Foundation
import HeatMapContouring
import HeatMapCore
import HeatMapDensity

extension GeoJSONExport {
    /// One Feature per H3 bin: the cell's polygon in longitude/latitude
    /// (edges densified along their great circles, split at ±180°, closed
    /// along the pole's parallel for the two polar cells), with properties
    /// `h3` (15 hex digits, as the reference prints it), `id` (the same),
    /// `lat`, `lon` (the centre), `count`, `value` (the `aggregate`, null
    /// where undefined), `sum`, `mean`, `min`, `max`, `area_km2` (exact),
    /// `density` (Σ value per km²) and `fill`, `fill-opacity`, `stroke` as
    /// for ``bins(_:aggregate:options:control:)``. O(bins).
    /// - Throws: `CancellationError` when `control` is cancelled.
    public static func h3Bins(
        _ result: H3BinningResult, aggregate: BinAggregate = .count,
        options: GeoJSONOptions = GeoJSONOptions(),
        control: ComputeControl = .none
    ) throws -> String {
        let precision = VertexPrecision(decimals: options.precision, limit: FixedRing.decimalsLimit(forMagnitude: 180))
        let fill = BinFill(options: options, range: result.valueRange(aggregate))
        let pieces = { (k: Int) in
            AntimeridianSplitter.split(PlanePolygon(exterior: H3CellOutline.ring(result.bins[k].cell)))
        }
        let decimals = min(max(options.precision, 0), 15)
        let scale = pow(10, Double(decimals))
        let collector = ByteCollector()
        try writeBins(
            count: result.bins.count, pieces: pieces, precision: precision, geographic: true,
            crsName: nil, to: collector, control: control
        ) { k in
            let bin = result.bins[k]
            let stats = bin.statistics
            let value = stats.value(aggregate)
            let (color, alpha) = fill.style(of: stats, aggregate: aggregate)
            let c = bin.cell.center
            var p = JSONProperties()
            p.add("h3", bin.cell.description)
            p.add("id", bin.cell.description)
            p.add("lat", (c.latitude * scale).rounded() / scale)
            p.add("lon", (c.longitude * scale).rounded() / scale)
            fill.addAggregates(of: stats, value: value, to: &p)
            p.add("area_km2", finite(bin.areaKm2))
            p.add("density", finite(bin.density))
            fill.addStyle(color: color, alpha: alpha, to: &p)
            return p.json
        }
        return collector.takeString()
    }
}
