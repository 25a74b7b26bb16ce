import Foundation

/// One contour feature read back from GeoJSON: its level, bounds and polygons.
public struct ContourFeature: Sendable {
    /// The `level` property (0-based).
    public var level: Int
    /// The `threshold` property (the band's lower bound), if present.
    public var threshold: Double?
    /// The `upper` property (the band's upper bound; nil for the top band).
    public var upper: Double?
    /// The polygons, x = longitude and y = latitude (or planar x/y), rings
    /// open (the closing position dropped).
    public var polygons: [PlanePolygon]
}

/// Reads the band or level polygons of a contour GeoJSON file (as
/// `contours export` writes it), for hit testing.
///
/// Features are read one at a time (``GeoJSONFeatureStream``). Each needs
/// Polygon or MultiPolygon geometry and an integer `level` property;
/// `threshold` and `upper` are read when present. O(bytes).
public enum GeoJSONContourReader {
    /// Reads every contour feature of the file at `path` ("-" for standard input).
    ///
    /// - Throws: ``InputError`` naming the file, line and column of
    ///   invalid JSON, a feature without a level, or a non-polygon geometry.
    public static func read(path: String) throws -> [ContourFeature] {
        let source = try ByteSource(path: path)
        let stream = GeoJSONFeatureStream(source: source)
        var out: [ContourFeature] = []
        while let node = try stream.next() {
            out.append(try feature(node, file: source.name))
        }
        return out
    }

    private static func fail(_ node: JSONNode, _ file: String, _ message: String) -> InputError {
        InputError(file: file, line: node.line, column: String(node.column), reason: "invalid contours", message: message)
    }

    static func feature(_ node: JSONNode, file: String) throws -> ContourFeature {
        guard node["type"]?.string == "Feature" else {
            throw fail(node, file, "expected a contour Feature, found \(node["type"]?.string ?? node.kind)")
        }
        let properties = node["properties"]
        guard let levelNode = properties?["level"], let level = levelNode.number,
              level == level.rounded(), level >= 0, level < 1_000_000 else {
            throw fail(properties ?? node, file, "contour feature without an integer 'level' property >= 0")
        }
        let threshold = properties?["threshold"]?.number
        let upper = properties?["upper"]?.number
        guard let geometry = node["geometry"], let type = geometry["type"]?.string else {
            throw fail(node, file, "contour feature without a geometry")
        }
        var polygons: [PlanePolygon] = []
        switch type {
        case "Polygon":
            polygons.append(try polygon(geometry["coordinates"], in: geometry, file: file))
        case "MultiPolygon":
            guard let parts = geometry["coordinates"]?.array else {
                throw fail(geometry, file, "MultiPolygon without a 'coordinates' array")
            }
            for part in parts { polygons.append(try polygon(part, in: geometry, file: file)) }
        default:
            throw fail(geometry, file, "expected Polygon or MultiPolygon contours, found \(type)"
                        + (type.contains("LineString") ? " (isolines cannot be hit-tested; export bands)" : ""))
        }
        return ContourFeature(level: Int(level), threshold: threshold, upper: upper, polygons: polygons)
    }

    private static func polygon(_ node: JSONNode?, in geometry: JSONNode, file: String) throws -> PlanePolygon {
        guard let node, let rings = node.array, !rings.isEmpty else {
            throw fail(node ?? geometry, file, "a polygon must be an array of rings")
        }
        let parsed = try rings.map { try ring($0, file: file) }
        return PlanePolygon(exterior: parsed[0], holes: Array(parsed.dropFirst()))
    }

    private static func ring(_ node: JSONNode, file: String) throws -> [PlanePoint] {
        guard let positions = node.array else { throw fail(node, file, "a ring must be an array of positions") }
        var ring: [PlanePoint] = []
        ring.reserveCapacity(positions.count)
        for p in positions {
            guard let xy = p.array, xy.count >= 2, let x = xy[0].number, let y = xy[1].number,
                  x.isFinite, y.isFinite else {
                throw fail(p, file, "a position must be [longitude, latitude] numbers")
            }
            ring.append(PlanePoint(x: x, y: y))
        }
        if ring.count > 1, ring.first == ring.last { ring.removeLast() }
        guard ring.count >= 3 else { throw fail(node, file, "a ring needs at least 4 positions") }
        return ring
    }
}
