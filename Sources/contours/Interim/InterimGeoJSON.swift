import Foundation
import HeatMap

/// INTERIM: a minimal GeoJSON encoding of contours, used until the
/// library's GeoJSON writer (Sources/HeatMap/GeoJSON) lands. It does not
/// split at the antimeridian nor repair rounding; delete it then.
enum InterimGeoJSON {
    static func encode(_ contours: HeatMapContours, mode: ContourMode, perPolygon: Bool, precision: Int) -> String {
        let projection = contours.projection
        let scale = pow(10, Double(precision))
        func number(_ v: Double) -> String {
            let r = (v * scale).rounded() / scale
            if r == r.rounded(), abs(r) < 1e15 { return String(Int64(r)) }
            return "\(r)"
        }
        func ring(_ points: [PlanePoint]) -> String {
            var parts = points.map { p -> String in
                let c = projection.unproject(p)
                let lon = projection.isGeographic ? LongitudeArc.normalized(c.longitude) : c.longitude
                return "[\(number(lon)),\(number(c.latitude))]"
            }
            if let first = parts.first { parts.append(first) }
            return "[" + parts.joined(separator: ",") + "]"
        }
        func polygon(_ p: PlanePolygon) -> String {
            "[" + ([ring(p.exterior)] + p.holes.map(ring)).joined(separator: ",") + "]"
        }
        let set = contours.contourSet
        var features: [String] = []
        for (level, threshold) in set.thresholds.enumerated() {
            let upper = mode == .bands && level + 1 < set.thresholds.count ? number(set.thresholds[level + 1]) : "null"
            let properties = "{\"level\":\(level),\"threshold\":\(threshold),\"upper\":\(upper),\"units\":\"\(contours.units)\"}"
            let geometries: [String]
            if mode == .isolines {
                let lines = set.isolines[level].map { ring($0) }
                geometries = lines.isEmpty ? [] : ["{\"type\":\"MultiLineString\",\"coordinates\":[\(lines.joined(separator: ","))]}"]
            } else {
                let polygons = (mode == .bands ? set.bands : set.levels)[level].map(polygon)
                if perPolygon {
                    geometries = polygons.map { "{\"type\":\"Polygon\",\"coordinates\":\($0)}" }
                } else {
                    geometries = polygons.isEmpty ? [] : ["{\"type\":\"MultiPolygon\",\"coordinates\":[\(polygons.joined(separator: ","))]}"]
                }
            }
            for g in geometries {
                features.append("{\"type\":\"Feature\",\"properties\":\(properties),\"geometry\":\(g)}")
            }
        }
        return "{\"type\":\"FeatureCollection\",\"features\":[\n" + features.joined(separator: ",\n") + "\n]}\n"
    }
}
