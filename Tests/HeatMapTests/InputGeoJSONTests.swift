import Foundation
import Testing

@testable import HeatMapContouring
@testable import HeatMapCore
@testable import HeatMapDensity
@testable import HeatMapFormats

/// The streaming GeoJSON point and contour readers.
@Suite struct InputGeoJSONTests {
    static func points(_ text: String, options: PointReaderOptions = PointReaderOptions(format: .geojson)) throws
        -> [InputPoint]
    {
        let folder = try ScratchFolder()
        let path = try folder.write("t.geojson", text)
        let reader = try PointReader(path: path, options: options)
        var out: [InputPoint] = []
        while let p = try reader.next() { out.append(p) }
        return out
    }

    static func error(_ text: String, options: PointReaderOptions = PointReaderOptions(format: .geojson)) throws
        -> String
    {
        do {
            _ = try points(text, options: options)
        } catch let e as InputError {
            return "\(e.line):\(e.column): \(e.message)"
        }
        Issue.record("no error for \(text.debugDescription)")
        return ""
    }

    @Test func featureCollectionOfPointsAndMultiPoints() throws {
        let text = """
            {"type": "FeatureCollection", "name": "quakes", "crs": {"type": "name"},
             "features": [
              {"type": "Feature", "properties": {"mag": 4.5}, "geometry": {"type": "Point", "coordinates": [178.5, -20.25]}},
              {"type": "Feature", "properties": {"mag": "5"}, "geometry": {"type": "MultiPoint", "coordinates": [[-179.5, -18], [179, -17, 120]]}}
             ],
             "bbox": [-180, -21, 180, -17]}
            """
        let options = PointReaderOptions(columns: PointColumns(weight: "mag"), format: .geojson)
        let p = try Self.points(text, options: options)
        #expect(
            p == [
                InputPoint(latitude: -20.25, longitude: 178.5, weight: 4.5),
                InputPoint(latitude: -18, longitude: -179.5, weight: 5),
                InputPoint(latitude: -17, longitude: 179, weight: 5)
            ])
    }

    @Test func bareFeatureGeometryAndCollections() throws {
        #expect(try Self.points(#"{"type":"Point","coordinates":[1,2]}"#) == [InputPoint(latitude: 2, longitude: 1)])
        #expect(
            try Self.points(#"{"type":"Feature","properties":null,"geometry":{"type":"Point","coordinates":[3,4]}}"#)
                == [InputPoint(latitude: 4, longitude: 3)])
        let collection =
            #"{"type":"GeometryCollection","geometries":[{"type":"Point","coordinates":[1,2]},{"type":"MultiPoint","coordinates":[[5,6]]}]}"#
        #expect(try Self.points(collection).map(\.longitude) == [1, 5])
    }

    @Test func newlineDelimitedFeaturesAndRecordSeparators() throws {
        let seq =
            "\u{1E}{\"type\":\"Feature\",\"properties\":{},\"geometry\":{\"type\":\"Point\",\"coordinates\":[1,2]}}\n"
            + "\u{1E}{\"type\":\"Feature\",\"properties\":{},\"geometry\":{\"type\":\"Point\",\"coordinates\":[3,4]}}\n"
        #expect(try Self.points(seq).map(\.latitude) == [2, 4])
        let lines = "{\"type\":\"Point\",\"coordinates\":[1,2]}\n{\"type\":\"Point\",\"coordinates\":[7,8]}\n"
        #expect(try Self.points(lines).map(\.latitude) == [2, 8])
    }

    @Test func formatIsFoundByContentWhateverTheName() throws {
        let folder = try ScratchFolder()
        let path = try folder.write("points.txt", "  \n{\"type\":\"Point\",\"coordinates\":[1,2]}")
        let reader = try PointReader(path: path, options: PointReaderOptions())
        #expect(reader.format == .geojson)
        #expect(try reader.next() == InputPoint(latitude: 2, longitude: 1))
    }

    @Test func stringsWithEscapesAreRead() throws {
        let text =
            #"{"type":"Feature","properties":{"n\u00e4me":"a\"b\\c\ud83d\ude00","w":2},"geometry":{"type":"Point","coordinates":[1,2]}}"#
        let p = try Self.points(text, options: PointReaderOptions(columns: PointColumns(weight: "w"), format: .geojson))
        #expect(p == [InputPoint(latitude: 2, longitude: 1, weight: 2)])
    }

    @Test func errorsNameLineAndColumn() throws {
        let polygon =
            "{\"type\":\"FeatureCollection\",\"features\":[\n"
            + "{\"type\":\"Feature\",\"properties\":{},\"geometry\":{\"type\":\"Point\",\"coordinates\":[1,2]}},\n"
            + "{\"type\":\"Feature\",\"properties\":{},\"geometry\":{\"type\":\"Polygon\",\"coordinates\":[]}}\n]}"
        #expect(try Self.error(polygon) == "3:46: expected a Point or MultiPoint geometry, found Polygon")
        #expect(
            try Self.error("{\"type\":\"FeatureCollection\",\"features\":[\n{\"type\":\"Feature\",")
                == "2:19: unexpected end of file in an object, expected a quoted key (truncated JSON?)")
        #expect(try Self.error(#"{"type":"Point","coordinates":[10,95]}"#) == "1:35: latitude 95 is outside [-90, 90]")
        #expect(try Self.error(#"{"type":"Point","coordinates":[NaN,5]}"#) == "1:32: longitude is NaN (\"NaN\")")
        #expect(
            try Self.error(#"{"type":"Point","coordinates":[-Infinity,5]}"#)
                == "1:32: longitude is not finite (\"-Infinity\")")
        #expect(try Self.error(#"{"type":"Point","coordinates":["1",5]}"#) == "1:32: longitude is not a number: \"1\"")
        #expect(
            try Self.error(#"{"type":"Point","coordinates":[1]}"#).hasPrefix(
                "1:31: a position must be an array [longitude, latitude]"))
        #expect(
            try Self.error("{\"type\":\"Point\" \"coordinates\":[1,2]}")
                == "1:17: invalid JSON: expected ',' or '}' in an object but found '\"'")
        #expect(
            try Self.error("{\"type\":\"FeatureCollection\"}") == "1:1: FeatureCollection without a 'features' array")
        #expect(try Self.error("\n\n  ").hasPrefix("1:1: empty file"))
        #expect(try Self.error("[1,2]").hasPrefix("1:2: expected a GeoJSON Feature object, found a number"))
        let weighted = PointReaderOptions(columns: PointColumns(weight: "mag"), format: .geojson)
        #expect(
            try Self.error(
                #"{"type":"Feature","properties":{"depth":3},"geometry":{"type":"Point","coordinates":[1,2]}}"#,
                options: weighted) == "1:32: feature has no property 'mag' for the weight")
        #expect(
            try Self.error(
                #"{"type":"Feature","properties":{"mag":-1},"geometry":{"type":"Point","coordinates":[1,2]}}"#,
                options: weighted) == "1:39: property 'mag': weight -1 is negative")
        let deep = String(repeating: "[", count: 10_000)
        #expect(try Self.error("{\"type\":\"Point\",\"coordinates\":" + deep).contains("nested deeper than"))
    }

    @Test func skipInvalidKeepsTheGoodPositionsOfAMultiPoint() throws {
        let text = #"{"type":"MultiPoint","coordinates":[[1,2],[3,95],[5,6],[null,1]]}"#
        let folder = try ScratchFolder()
        let path = try folder.write("t.json", text)
        let reader = try PointReader(path: path, options: PointReaderOptions(skipInvalid: true))
        var got: [InputPoint] = []
        while let p = try reader.next() { got.append(p) }
        #expect(got.map(\.longitude) == [1, 5])
        #expect(reader.rowsRead == 4)
        #expect(reader.rejections.byReason == ["latitude outside [-90, 90]": 1, "longitude is missing": 1])
    }

    @Test func contourPolygonsAreReadBack() throws {
        let text = """
            {"type":"FeatureCollection","bbox":[0,0,4,4],"features":[
            {"type":"Feature","properties":{"level":0,"threshold":0.5,"upper":1.5,"units":"per km²"},
             "geometry":{"type":"Polygon","coordinates":[[[0,0],[4,0],[4,4],[0,4],[0,0]],[[1,1],[1,3],[3,3],[3,1],[1,1]]]}},
            {"type":"Feature","properties":{"level":1,"threshold":1.5,"upper":null},
             "geometry":{"type":"MultiPolygon","coordinates":[[[[1,1],[3,1],[3,3],[1,3],[1,1]]]]}}]}
            """
        let folder = try ScratchFolder()
        let features = try GeoJSONContourReader.read(path: try folder.write("c.geojson", text))
        #expect(features.map(\.level) == [0, 1])
        #expect(features[0].threshold == 0.5 && features[0].upper == 1.5)
        #expect(features[1].upper == nil)
        #expect(features[0].polygons[0].exterior.count == 4)
        #expect(features[0].polygons[0].holes.count == 1)
        let lines =
            #"{"type":"Feature","properties":{"level":0},"geometry":{"type":"LineString","coordinates":[[0,0],[1,1]]}}"#
        #expect(throws: InputError.self) { try GeoJSONContourReader.read(path: try folder.write("l.geojson", lines)) }
    }
}
