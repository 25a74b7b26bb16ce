import Foundation
import HeatMapCore

/// One contour feature read back from GeoJSON: its level, bounds and polygons.
package struct ContourFeature: Sendable {
    /// The `level` property (0-based).
    package var level: Int
    /// The `threshold` property (the band's lower bound), if present.
    package var threshold: Double?
    /// The `upper` property (the band's upper bound; nil for the top band).
    package var upper: Double?
    /// The polygons, x = longitude and y = latitude (or planar x/y), rings
    /// open (the closing position dropped).
    package var polygons: [PlanePolygon]
    /// The `frame` property of a file of frames (`--frames`), if present.
    package var frame: Int?
    /// Where the feature starts in its file (1-based line and column).
    package var line = 0, column = 0
}

/// Reads the band or level polygons of a contour GeoJSON file (as
/// `contours export` writes it), for hit testing.
///
/// Features are read one at a time (``GeoJSONFeatureStream``). Each needs
/// Polygon or MultiPolygon geometry and an integer `level` property;
/// `threshold` and `upper` are read when present. O(bytes).
package enum GeoJSONContourReader {
    /// The largest |coordinate| of a planar contour file: beyond it, the
    /// products that ring areas and point tests take would overflow.
    static let largestPlanarCoordinate = 1e150

    /// Reads every contour feature of the file at `path` ("-" for standard
    /// input) and checks that the file is fit to answer queries: positions
    /// finite and (when `geographic`) longitudes in [-180, 180] and
    /// latitudes in [-90, 90], planar ones within ±``largestPlanarCoordinate``;
    /// rings of at least three positions with an area; one threshold per
    /// level, ascending with the level, each below its band's `upper`.
    ///
    /// A file of frames (features with a `frame` property, as `--frames`
    /// writes) answers for one frame: `frame`'s features are read, and a
    /// file of more than one frame without `frame` is refused, as is
    /// `frame` for a file without frames or without that frame.
    ///
    /// - Parameter geographic: whether positions are longitude/latitude;
    ///   nil checks only what holds for both.
    /// - Throws: ``InputError`` naming the file, line and column of invalid
    ///   JSON or of the feature that breaks a rule, and which rule.
    package static func read(path: String, geographic: Bool? = nil, frame: Int? = nil) throws -> [ContourFeature] {
        let source = try ByteSource(path: path)
        let stream = GeoJSONFeatureStream(source: source)
        var out: [ContourFeature] = []
        var frames = Set<Int>(), unframed = false
        while let node = try stream.next() {
            guard stream.inFeatureCollection else {
                throw fail(
                    node, source.name,
                    "expected a FeatureCollection of contour features (as 'contours export' writes), found a bare \(node["type"]?.string ?? node.kind)"
                )
            }
            let f = try feature(node, file: source.name)
            try checkPositions(f, node: node, geographic: geographic, file: source.name)
            if let k = f.frame { frames.insert(k) } else { unframed = true }
            if frame == nil || f.frame == frame { out.append(f) }
        }
        let span = frames.isEmpty ? "" : "\(frames.min()!)…\(frames.max()!)"
        if let frame {
            guard !frames.isEmpty else {
                throw InputError(
                    file: source.name, line: 1, column: "1", reason: "no frames",
                    message: "--frame \(frame): the file has no frames (no feature has a 'frame' property)")
            }
            guard frames.contains(frame) else {
                throw InputError(
                    file: source.name, line: 1, column: "1", reason: "no such frame",
                    message: "--frame \(frame): the file has no band in that frame (its frames: \(span))")
            }
        } else if frames.count > 1 || (!frames.isEmpty && unframed) {
            throw InputError(
                file: source.name, line: 1, column: "1", reason: "frames",
                message: "the file holds \(frames.count) frames (features with a 'frame' property, \(span)): "
                    + "give --frame K to answer from frame K")
        }
        try checkLevels(out, file: source.name)
        return out
    }

    private static func checkPositions(_ f: ContourFeature, node: JSONNode, geographic: Bool?, file: String) throws {
        for polygon in f.polygons {
            for ring in [polygon.exterior] + polygon.holes {
                for p in ring {
                    if geographic == true {
                        guard abs(p.x) <= 180, abs(p.y) <= 90 else {
                            throw fail(
                                node, file,
                                "contour feature (level \(f.level)) has position [\(p.x), \(p.y)]"
                                    + " outside longitude [-180, 180] or latitude [-90, 90]")
                        }
                    } else if !(abs(p.x) <= largestPlanarCoordinate && abs(p.y) <= largestPlanarCoordinate) {
                        throw fail(
                            node, file,
                            "contour feature (level \(f.level)) has position [\(p.x), \(p.y)]"
                                + " beyond ±1e150, too large to test points against")
                    }
                }
                guard PlaneRing.signedArea(ring) != 0 else {
                    throw fail(node, file, "contour feature (level \(f.level)) has a ring without area")
                }
            }
        }
    }

    private static func checkLevels(_ features: [ContourFeature], file: String) throws {
        func at(_ f: ContourFeature, _ message: String) -> InputError {
            InputError(file: file, line: f.line, column: String(f.column), reason: "invalid contours", message: message)
        }
        var byLevel: [Int: ContourFeature] = [:]
        for f in features {
            if let t = f.threshold, let u = f.upper, !(t < u) {
                throw at(f, "contour feature (level \(f.level)) has threshold \(t) not below its upper \(u)")
            }
            if let first = byLevel[f.level] {
                if first.threshold != f.threshold {
                    throw at(
                        f,
                        "contour feature (level \(f.level)) has threshold \(f.threshold.map { "\($0)" } ?? "none"),"
                            + " but an earlier feature of that level has \(first.threshold.map { "\($0)" } ?? "none")")
                }
            } else {
                byLevel[f.level] = f
            }
        }
        var previous: ContourFeature?
        for level in byLevel.keys.sorted() {
            let f = byLevel[level]!
            if let p = previous, let a = p.threshold, let b = f.threshold, !(a < b) {
                throw at(
                    f,
                    "contour levels out of order: level \(f.level) has threshold \(b),"
                        + " not above level \(p.level)'s \(a)")
            }
            previous = f
        }
    }

    private static func fail(_ node: JSONNode, _ file: String, _ message: String) -> InputError {
        InputError(
            file: file, line: node.line, column: String(node.column), reason: "invalid contours", message: message)
    }

    package static func feature(_ node: JSONNode, file: String) throws -> ContourFeature {
        guard node["type"]?.string == "Feature" else {
            throw fail(node, file, "expected a contour Feature, found \(node["type"]?.string ?? node.kind)")
        }
        let properties = node["properties"]
        guard let levelNode = properties?["level"], let level = levelNode.number,
            level == level.rounded(), level >= 0, level < 1_000_000
        else {
            throw fail(properties ?? node, file, "contour feature without an integer 'level' property >= 0")
        }
        guard let threshold = properties?["threshold"]?.number, threshold.isFinite else {
            throw fail(
                properties ?? node, file, "contour feature (level \(Int(level))) without a numeric 'threshold' property"
            )
        }
        let upper = properties?["upper"]?.number
        if let given = properties?["upper"], given.kind != "null", !(upper?.isFinite ?? false) {
            throw fail(
                properties ?? node, file, "contour feature (level \(Int(level))) has an 'upper' that is not a number")
        }
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
            throw fail(
                geometry, file,
                "expected Polygon or MultiPolygon contours, found \(type)"
                    + (type.contains("LineString") ? " (isolines cannot be hit-tested; export bands)" : ""))
        }
        var frame: Int?
        if let given = properties?["frame"], given.kind != "null" {
            guard let k = given.number, k == k.rounded(), k >= 0, k < 1_000_000 else {
                throw fail(
                    properties ?? node, file,
                    "contour feature (level \(Int(level))) has a 'frame' that is not an integer >= 0")
            }
            frame = Int(k)
        }
        return ContourFeature(
            level: Int(level), threshold: threshold, upper: upper, polygons: polygons, frame: frame,
            line: node.line, column: node.column)
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
                x.isFinite, y.isFinite
            else {
                throw fail(p, file, "a position must be [longitude, latitude] numbers")
            }
            ring.append(PlanePoint(x: x, y: y))
        }
        guard ring.count >= 4 else { throw fail(node, file, "a ring needs at least 4 positions") }
        guard ring.first == ring.last else {
            throw fail(node, file, "a ring must end at the position it starts from (RFC 7946: a closed ring)")
        }
        ring.removeLast()
        return ring
    }
}
