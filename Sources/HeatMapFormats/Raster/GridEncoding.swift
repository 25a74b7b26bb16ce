import Foundation
import HeatMapContouring
import HeatMapCore
import HeatMapDensity

/// Text encodings of a density grid (`contours grid`, docs/formats.md).
public enum GridEncoding {
    /// The JSON of docs/formats.md: columns, rows, x0, y0, dx, dy (node positions in
    /// the plane), projection, units and the row-major values (row 0 the
    /// lowest y); undefined values are written as null. `crs` (a PROJ
    /// string or `EPSG:N`) is the given one, else the projection's
    /// (``RasterCRS/of(_:)``); planar grids without one have none. O(cells).
    public static func json(_ grid: DensityGrid, crs: RasterCRS? = nil) -> String {
        var s = jsonMembers(grid, crs: crs) + ",\"values\":["
        s.reserveCapacity(s.utf8.count + grid.values.count * 12)
        for (i, v) in grid.values.enumerated() {
            if i > 0 { s += "," }
            s += v.isNaN ? "null" : number(v)
        }
        s += "]}\n"
        return s
    }

    /// The JSON object's opening and every member but `values`, up to
    /// (without) the comma before it.
    package static func jsonMembers(_ grid: DensityGrid, crs: RasterCRS? = nil) -> String {
        let g = grid.geometry
        var s = "{\"columns\":\(g.columns),\"rows\":\(g.rows),"
        s += "\"x0\":\(number(g.x0)),\"y0\":\(number(g.y0)),\"dx\":\(number(g.dx)),\"dy\":\(number(g.dy)),"
        let p = grid.projection
        s += "\"projection\":{\"name\":\"\(p.kind.rawValue)\""
        if p.isGeographic {
            s += ",\"centre_latitude\":\(number(p.centreLatitude)),\"centre_longitude\":\(number(p.centreLongitude))"
            s +=
                ",\"sphere_radius_m\":\(number(p.kind == .webMercator ? PlaneProjection.mercatorRadius : PlaneProjection.authalicRadius))"
            s += ",\"plane_units\":\"m\""
        }
        if let crs = crs ?? RasterCRS.of(p) {
            s += "},\"crs\":\(JSONEscaping.quoted(crs.proj, for: .script))"
        } else {
            s += "}"
        }
        s += ",\"radius\":\(number(grid.radius)),\"estimator\":\"\(grid.estimator.rawValue)\","
        // The default Gaussian density is left unnamed, as before kernels had names.
        if grid.kernel != .gaussian || grid.kernelValues != .density {
            s +=
                "\"kernel\":\(JSONEscaping.quoted(grid.kernel.name)),\"kernel_values\":\"\(grid.kernelValues.rawValue)\","
        }
        if let radii = grid.pointRadii { s += "\"radii\":\(json(radii))," }
        // Units may be a user's column name: escape it like any JSON string.
        s += "\"units\":\(JSONEscaping.quoted(grid.units, for: .script))"
        return s
    }

    /// The `radii` member of a grid whose points have radii of their own
    /// (``DensityGrid/pointRadii``), as grid JSON and GeoJSON's `kernel`
    /// member write it: `{"kind":"per_point","smallest","largest"}`, or
    /// `{"kind":"adaptive","sensitivity","trim","pilot_radius",
    /// "geometric_mean","p5","p95","smallest","largest","trimmed"}`
    /// (radii in plane units).
    package static func json(_ radii: PointRadii) -> String {
        switch radii {
        case .perPoint(let smallest, let largest):
            return "{\"kind\":\"per_point\",\"smallest\":\(number(smallest)),\"largest\":\(number(largest))}"
        case .adaptive(let sensitivity, let trim, let a):
            return "{\"kind\":\"adaptive\",\"sensitivity\":\(number(sensitivity)),\"trim\":\(number(trim)),"
                + "\"pilot_radius\":\(number(a.pilotRadius)),\"geometric_mean\":\(number(a.geometricMean)),"
                + "\"p5\":\(number(a.percentile5)),\"p95\":\(number(a.percentile95)),"
                + "\"smallest\":\(number(a.smallest)),\"largest\":\(number(a.largest)),\"trimmed\":\(a.trimmed)}"
        }
    }

    /// The radii a `radii` member of ``json(_:)-(PointRadii)`` describes, or nil.
    static func pointRadii(_ object: [String: Any]?) -> PointRadii? {
        guard let object, let kind = object["kind"] as? String else { return nil }
        func value(_ key: String) -> Double? {
            (object[key] as? NSNumber).map(\.doubleValue).flatMap { $0.isFinite ? $0 : nil }
        }
        guard let smallest = value("smallest"), let largest = value("largest") else { return nil }
        switch kind {
        case "per_point": return .perPoint(smallest: smallest, largest: largest)
        case "adaptive":
            guard let sensitivity = value("sensitivity"), let trim = value("trim"), let pilot = value("pilot_radius"),
                let mean = value("geometric_mean")
            else { return nil }
            let summary = AdaptiveSummary(
                pilotRadius: pilot, geometricMean: mean, smallest: smallest, largest: largest,
                percentile5: value("p5") ?? smallest, percentile95: value("p95") ?? largest,
                trimmed: (object["trimmed"] as? NSNumber)?.intValue ?? 0)
            return .adaptive(sensitivity: sensitivity, trim: trim, summary: summary)
        default: return nil
        }
    }

    /// An ESRI ASCII grid: header (ncols, nrows, xllcenter, yllcenter,
    /// cellsize, NODATA_value) then rows from the top (highest y) down.
    /// ESRI grids have square cells; when dx ≠ dy the header carries dx and dy.
    public static func asc(_ grid: DensityGrid) -> String {
        let g = grid.geometry
        var s = "ncols \(g.columns)\nnrows \(g.rows)\nxllcenter \(number(g.x0))\nyllcenter \(number(g.y0))\n"
        if abs(g.dx - g.dy) <= 1e-9 * max(abs(g.dx), abs(g.dy)) {
            s += "cellsize \(number(g.dx))\n"
        } else {
            s += "dx \(number(g.dx))\ndy \(number(g.dy))\n"
        }
        s += "NODATA_value -9999\n"
        for r in stride(from: g.rows - 1, through: 0, by: -1) {
            var line = ""
            for c in 0..<g.columns {
                if c > 0 { line += " " }
                let v = grid.values[r * g.columns + c]
                line += v.isNaN ? "-9999" : number(v)
            }
            s += line + "\n"
        }
        return s
    }

    /// Shortest round-trip decimal text of a finite double.
    package static func number(_ v: Double) -> String {
        guard v.isFinite else { return "null" }
        if v == v.rounded(), abs(v) < 1e15 { return String(Int64(v)) }
        return "\(v)"
    }
}
