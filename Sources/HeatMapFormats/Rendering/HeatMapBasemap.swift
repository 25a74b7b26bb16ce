import Foundation
import HeatMapContouring
import HeatMapCore
import HeatMapDensity

/// What to draw under or over a picture for orientation: the built-in
/// world map (Natural Earth 1:50m land, country borders and coastlines),
/// and lines and areas of your own read from GeoJSON (coastlines,
/// borders, roads). Lines are stroked; areas are filled in the land
/// colour, and their rings are stroked too (as lines).
///
/// The renderer projects everything with the data's own
/// ``PlaneProjection``, so the map registers with the contours or bins
/// exactly, and data around ±180° (New Zealand with the Chatham Islands,
/// Fiji) is one continuous map. The world map is drawn only on
/// geographic pictures; your own lines are drawn on planar ones too
/// (x in `longitude`, y in `latitude`).
///
/// ```swift
/// var options = HeatMapRenderOptions()          // options.basemap is .world
/// let coast = try HeatMapBasemap(contentsOf: URL(fileURLWithPath: "nz_coastline.geojson"))
/// options.basemap = .world + coast              // the world, and a finer coast on top
/// options.basemap = nil                         // no basemap
/// ```
public struct HeatMapBasemap: Sendable {
    /// Polylines of coordinates (longitude/latitude in degrees; for planar
    /// pictures x in `longitude`, y in `latitude`). Rings are closed by
    /// repeating their first position, as in GeoJSON.
    public var lines: [[LocationCoordinate2D]]
    /// Rings filled as land (even-odd, so holes stay open), each closed.
    public var areas: [[LocationCoordinate2D]]
    /// Whether the built-in Natural Earth world map is drawn too (on
    /// geographic pictures only).
    public var includesWorld: Bool

    /// A basemap of the given lines and areas.
    public init(lines: [[LocationCoordinate2D]], areas: [[LocationCoordinate2D]] = [], includesWorld: Bool = false) {
        self.lines = lines
        self.areas = areas
        self.includesWorld = includesWorld
    }

    /// The built-in world map: Natural Earth 1:50m countries (land and
    /// borders) and coastlines, public domain ("Made with Natural Earth"),
    /// compiled into the library (about 160,000 points at 1e-4°).
    public static let world = HeatMapBasemap(lines: [], includesWorld: true)

    /// Both basemaps: the lines and areas of each, and the world map if
    /// either includes it. Later lines are drawn over earlier ones.
    public static func + (a: HeatMapBasemap, b: HeatMapBasemap) -> HeatMapBasemap {
        HeatMapBasemap(
            lines: a.lines + b.lines, areas: a.areas + b.areas,
            includesWorld: a.includesWorld || b.includesWorld)
    }

    /// Reads a GeoJSON file (see ``init(geoJSON:)``).
    public init(contentsOf url: URL) throws {
        let data: Data
        do {
            // Through read(2), once: a pipe or `<(…)` is read like a file.
            data = Data(try ByteSource(path: url.path).readToEnd())
        } catch let e as InputError {
            throw HeatMapRenderError.invalidBasemap("\(url.path): cannot read the file (\(e.message))")
        }
        do {
            try self.init(geoJSON: data)
        } catch HeatMapRenderError.invalidBasemap(let why) {
            throw HeatMapRenderError.invalidBasemap("\(url.path): \(why)")
        }
    }

    /// Reads the LineString, MultiLineString, Polygon and MultiPolygon
    /// geometries of GeoJSON text: a FeatureCollection, a Feature, a
    /// GeometryCollection or a bare geometry. Polygon rings become
    /// ``areas`` and, for their outlines, ``lines`` too. Points are ignored; a
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
            throw HeatMapRenderError.invalidBasemap("not JSON (\(JSONParseFailure.describe(error, in: data)))")
        }
        var reader = GeoJSONLineReader()
        try reader.read(root, path: "root")
        lines = reader.lines
        areas = reader.areas
        includesWorld = false
    }
}

/// Collects lines from parsed GeoJSON, naming the place of any fault.
private struct GeoJSONLineReader {
    package var lines: [[LocationCoordinate2D]] = []
    var areas: [[LocationCoordinate2D]] = []

    package mutating func read(_ object: Any, path: String) throws {
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
        case "MultiLineString":
            for (i, line) in try array(dict["coordinates"], path: path).enumerated() {
                lines.append(try positions(line, path: "\(path), line \(i)"))
            }
        case "Polygon":
            for (i, ring) in try array(dict["coordinates"], path: path).enumerated() {
                let r = try positions(ring, path: "\(path), ring \(i)")
                lines.append(r)
                areas.append(r)
            }
        case "MultiPolygon":
            for (i, polygon) in try array(dict["coordinates"], path: path).enumerated() {
                for (j, ring) in try array(polygon, path: "\(path), polygon \(i)").enumerated() {
                    let r = try positions(ring, path: "\(path), polygon \(i), ring \(j)")
                    lines.append(r)
                    areas.append(r)
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
                lon.isFinite, lat.isFinite
            else {
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
