import Foundation

/// Lines to draw under or over a picture for orientation: coastlines,
/// borders, roads. Read from GeoJSON; polygons contribute their rings as
/// lines (they are drawn unfilled).
///
/// The renderer projects the lines with the data's own ``PlaneProjection``,
/// so they register with the contours or bins exactly, and data around
/// ±180° (New Zealand with the Chatham Islands, Fiji) is one continuous map.
///
/// ```swift
/// let coast = try HeatMapBasemap(contentsOf: URL(fileURLWithPath: "nz_coastline.geojson"))
/// var options = HeatMapRenderOptions()
/// options.basemap = coast
/// ```
public struct HeatMapBasemap: Sendable {
    /// Polylines of coordinates (longitude/latitude in degrees; for planar
    /// pictures x in `longitude`, y in `latitude`). Rings are closed by
    /// repeating their first position, as in GeoJSON.
    public var lines: [[LocationCoordinate2D]]

    /// A basemap of the given lines.
    public init(lines: [[LocationCoordinate2D]]) {
        self.lines = lines
    }

    /// Reads a GeoJSON file (see ``init(geoJSON:)``).
    public init(contentsOf url: URL) throws {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw HeatMapRenderError.invalidBasemap("\(url.path): cannot read the file (\(error.localizedDescription))")
        }
        do {
            try self.init(geoJSON: data)
        } catch HeatMapRenderError.invalidBasemap(let why) {
            throw HeatMapRenderError.invalidBasemap("\(url.path): \(why)")
        }
    }

    /// Reads the LineString, MultiLineString, Polygon and MultiPolygon
    /// geometries of GeoJSON text: a FeatureCollection, a Feature, a
    /// GeometryCollection or a bare geometry. Points are ignored; a
    /// feature with a null geometry is skipped. O(positions).
    ///
    /// - Throws: ``HeatMapRenderError/invalidBasemap(_:)`` naming the
    ///   feature and what is wrong (not JSON, a position that is not two
    ///   finite numbers, a latitude outside [-90, 90]).
    public init(geoJSON data: Data) throws {
        let root: Any
        do {
            root = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        } catch {
            throw HeatMapRenderError.invalidBasemap("not JSON (\(error.localizedDescription))")
        }
        var reader = GeoJSONLineReader()
        try reader.read(root, path: "root")
        lines = reader.lines
    }
}

/// Collects lines from parsed GeoJSON, naming the place of any fault.
private struct GeoJSONLineReader {
    var lines: [[LocationCoordinate2D]] = []

    mutating func read(_ object: Any, path: String) throws {
        guard let dict = object as? [String: Any], let type = dict["type"] as? String else {
            throw HeatMapRenderError.invalidBasemap("\(path): not a GeoJSON object with a \"type\"")
        }
        switch type {
        case "FeatureCollection":
            guard let features = dict["features"] as? [Any] else {
                throw HeatMapRenderError.invalidBasemap("\(path): FeatureCollection without a \"features\" array")
            }
            for (i, f) in features.enumerated() { try read(f, path: "feature \(i)") }
        case "Feature":
            if let g = dict["geometry"], !(g is NSNull) { try read(g, path: path) }
        case "GeometryCollection":
            guard let geometries = dict["geometries"] as? [Any] else {
                throw HeatMapRenderError.invalidBasemap("\(path): GeometryCollection without \"geometries\"")
            }
            for (i, g) in geometries.enumerated() { try read(g, path: "\(path), geometry \(i)") }
        case "Point", "MultiPoint":
            break
        case "LineString":
            lines.append(try positions(dict["coordinates"], path: path))
        case "MultiLineString", "Polygon":
            for (i, line) in try array(dict["coordinates"], path: path).enumerated() {
                lines.append(try positions(line, path: "\(path), \(type == "Polygon" ? "ring" : "line") \(i)"))
            }
        case "MultiPolygon":
            for (i, polygon) in try array(dict["coordinates"], path: path).enumerated() {
                for (j, ring) in try array(polygon, path: "\(path), polygon \(i)").enumerated() {
                    lines.append(try positions(ring, path: "\(path), polygon \(i), ring \(j)"))
                }
            }
        default:
            throw HeatMapRenderError.invalidBasemap("\(path): unknown GeoJSON type \"\(type)\"")
        }
    }

    private func array(_ value: Any?, path: String) throws -> [Any] {
        guard let a = value as? [Any] else {
            throw HeatMapRenderError.invalidBasemap("\(path): \"coordinates\" is not an array")
        }
        return a
    }

    private func positions(_ value: Any?, path: String) throws -> [LocationCoordinate2D] {
        var out: [LocationCoordinate2D] = []
        for (k, item) in try array(value, path: path).enumerated() {
            guard let pair = item as? [Any], pair.count >= 2,
                  let lon = (pair[0] as? NSNumber)?.doubleValue, let lat = (pair[1] as? NSNumber)?.doubleValue,
                  lon.isFinite, lat.isFinite else {
                throw HeatMapRenderError.invalidBasemap("\(path), position \(k): not [longitude, latitude] numbers")
            }
            guard (-90...90).contains(lat) else {
                throw HeatMapRenderError.invalidBasemap("\(path), position \(k): latitude \(lat) outside [-90, 90]")
            }
            out.append(LocationCoordinate2D(latitude: lat, longitude: lon))
        }
        return out
    }
}

extension HeatMapBasemap {
    /// The lines in `projection`'s plane, cut where the projection tears:
    /// at the far hemisphere for the azimuthal equal-area projection, and
    /// at the seam opposite the centre meridian for the cylindrical ones.
    /// Planar projections take x = longitude, y = latitude as given. O(positions).
    func planeLines(_ projection: PlaneProjection) -> [[PlanePoint]] {
        var out: [[PlanePoint]] = []
        let rad = Double.pi / 180
        let sinPhi0 = sin(projection.centreLatitude * rad), cosPhi0 = cos(projection.centreLatitude * rad)
        for line in lines {
            var current: [PlanePoint] = []
            var previousOffset: Double?
            for c in line {
                let offset = LongitudeArc.normalized(c.longitude - projection.centreLongitude)
                var tear = false
                switch projection.kind {
                case .planar:
                    break
                case .equalArea:
                    let cosc = sinPhi0 * sin(c.latitude * rad) + cosPhi0 * cos(c.latitude * rad) * cos(offset * rad)
                    if cosc < 0 {
                        // Beyond the horizon: leave this vertex out and break the line.
                        if current.count > 1 { out.append(current) }
                        current = []
                        previousOffset = nil
                        continue
                    }
                case .equirectangular, .webMercator:
                    if let p = previousOffset, abs(offset - p) > 180 { tear = true }
                }
                if tear {
                    if current.count > 1 { out.append(current) }
                    current = []
                }
                current.append(projection.project(c))
                previousOffset = offset
            }
            if current.count > 1 { out.append(current) }
        }
        return out
    }
}

/// Cuts polylines to a box (Liang–Barsky per segment), keeping the parts inside.
enum LineClipper {
    /// The pieces of `line` inside `box`; consecutive inside segments stay
    /// one polyline. O(points).
    static func clip(_ line: [PlanePoint], to box: PlaneBox) -> [[PlanePoint]] {
        var pieces: [[PlanePoint]] = []
        var current: [PlanePoint] = []
        for (a, b) in zip(line, line.dropFirst()) {
            guard let (p, q) = clipSegment(a, b, box) else {
                if current.count > 1 { pieces.append(current) }
                current = []
                continue
            }
            if let last = current.last, last == p {
                current.append(q)
            } else {
                if current.count > 1 { pieces.append(current) }
                current = [p, q]
            }
            // A segment that leaves the box ends the piece.
            if q != b {
                pieces.append(current)
                current = []
            }
        }
        if current.count > 1 { pieces.append(current) }
        return pieces
    }

    /// The part of segment a–b inside the box, or nil.
    static func clipSegment(_ a: PlanePoint, _ b: PlanePoint, _ box: PlaneBox) -> (PlanePoint, PlanePoint)? {
        let dx = b.x - a.x, dy = b.y - a.y
        var t0 = 0.0, t1 = 1.0
        for (p, q) in [(-dx, a.x - box.minX), (dx, box.maxX - a.x), (-dy, a.y - box.minY), (dy, box.maxY - a.y)] {
            if p == 0 {
                if q < 0 { return nil }
            } else {
                let r = q / p
                if p < 0 { if r > t1 { return nil }; if r > t0 { t0 = r } }
                else { if r < t0 { return nil }; if r < t1 { t1 = r } }
            }
        }
        let start = t0 == 0 ? a : PlanePoint(x: a.x + t0 * dx, y: a.y + t0 * dy)
        let end = t1 == 1 ? b : PlanePoint(x: a.x + t1 * dx, y: a.y + t1 * dy)
        return (start, end)
    }
}
