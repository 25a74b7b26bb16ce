import Foundation
import Testing

@testable import HeatMapContouring
@testable import HeatMapCore
@testable import HeatMapDensity
@testable import HeatMapFormats

/// A Point's or MultiPoint's positions are handed out in batches as they
/// are parsed: whatever the batch size, the same points, counts and error
/// positions as a feature read whole.
@Suite struct GeoJSONStreamedPositionsTests {
    static func read(_ text: String, batch: Int, options: PointReaderOptions = PointReaderOptions(format: .geojson))
        throws -> (points: [InputPoint], reader: GeoJSONPointReader)
    {
        let folder = try ScratchFolder()
        let path = try folder.write("t.geojson", text)
        let reader = GeoJSONPointReader(source: try ByteSource(path: path), options: options, batchSize: batch)
        var out: [InputPoint] = []
        while let p = try reader.next() { out.append(p) }
        return (out, reader)
    }

    static func error(_ text: String, batch: Int, options: PointReaderOptions = PointReaderOptions(format: .geojson))
        -> String
    {
        do {
            _ = try read(text, batch: batch, options: options)
        } catch let e as InputError {
            return "\(e.line):\(e.column): \(e.message)"
        } catch {
            return "\(error)"
        }
        return "no error"
    }

    /// `n` positions on a grid of quarter degrees, 7 to a line.
    static func positions(_ n: Int, from k: Int = 0) -> (text: String, lonLat: [(Double, Double)]) {
        var text = "", lonLat: [(Double, Double)] = []
        for i in k..<(k + n) {
            let lon = Double(i % 1000) / 4 - 120, lat = Double(i / 1000 % 300) / 4 - 40
            lonLat.append((lon, lat))
            text += (i > k ? "," : "") + "[\(lon),\(lat)]" + (i % 7 == 6 ? "\n" : "")
        }
        return (text, lonLat)
    }

    /// The layouts a MultiPoint comes in: streamed ones (type first, the
    /// properties before the geometry) and ones read whole.
    static func layouts(_ coordinates: String) -> [String] {
        let props = #""properties": {"w": 2.5}"#
        return [
            #"{"type": "MultiPoint", "coordinates": [\#(coordinates)]}"#,
            #"{"type": "Feature", \#(props), "geometry": {"type": "MultiPoint", "coordinates": [\#(coordinates)]}}"#,
            #"{"type": "FeatureCollection", "features": [{"type": "Feature", \#(props), "geometry": {"type": "MultiPoint", "coordinates": [\#(coordinates)]}}, {"type": "Feature", \#(props), "geometry": {"type": "Point", "coordinates": [1, 2]}}]}"#,
            #"[{"type": "Feature", \#(props), "geometry": {"coordinates": [\#(coordinates)], "type": "MultiPoint"}}]"#,
            #"{"type": "Feature", "geometry": {"type": "MultiPoint", "coordinates": [\#(coordinates)]}, \#(props)}"#,
            #"{"geometry": {"type": "MultiPoint", "coordinates": [\#(coordinates)]}, "type": "Feature", \#(props)}"#
        ]
    }

    @Test(arguments: [1, 3, 1000, GeoJSONPointReader.defaultBatchSize])
    func batchesGiveTheSamePointsAsAWholeFeature(batch: Int) throws {
        let (coordinates, lonLat) = Self.positions(5_000)
        for (k, text) in Self.layouts(coordinates).enumerated() {
            for weighted in [false, true] where !(weighted && k == 0) {
                let options = PointReaderOptions(columns: PointColumns(weight: weighted ? "w" : nil), format: .geojson)
                let (points, reader) = try Self.read(text, batch: batch, options: options)
                var expected = lonLat.map { InputPoint(latitude: $0.1, longitude: $0.0, weight: weighted ? 2.5 : 1) }
                if k == 2 { expected.append(InputPoint(latitude: 2, longitude: 1, weight: weighted ? 2.5 : 1)) }
                #expect(points == expected, "layout \(k), weighted \(weighted), batch \(batch)")
                #expect(reader.rowsRead == expected.count, "layout \(k)")
            }
        }
        let empty = try Self.read(
            #"{"type":"Feature","properties":{},"geometry":{"type":"MultiPoint","coordinates":[ ]}}"#, batch: batch)
        #expect(empty.points.isEmpty && empty.reader.rowsRead == 0)
    }

    @Test func positionsAreHandedOutBeforeTheMultiPointEnds() throws {
        // A MultiPoint cut off after 10,000 positions: the first batches
        // arrive before the cut is found.
        let (coordinates, _) = Self.positions(10_000)
        let folder = try ScratchFolder()
        let path = try folder.write("cut.geojson", #"{"type":"MultiPoint","coordinates":["# + coordinates + ",")
        let reader = GeoJSONPointReader(
            source: try ByteSource(path: path), options: PointReaderOptions(format: .geojson),
            batchSize: 100)
        var got = 0
        do {
            while try reader.next() != nil { got += 1 }
            Issue.record("no error for a cut-off MultiPoint")
        } catch let e as InputError {
            #expect(e.message.contains("truncated JSON"))
        }
        #expect(got >= 9_900)
    }

    @Test(arguments: [1, 7, GeoJSONPointReader.defaultBatchSize])
    func badPositionsInABigMultiPointKeepTheirLineAndColumn(batch: Int) throws {
        // 100,000 positions, 7 a line; position 70,000 (line 10,001 of the
        // coordinates) is made bad in several ways.
        let (before, _) = Self.positions(70_000)
        let (after, _) = Self.positions(29_999, from: 70_001)
        let head = #"{"type": "Feature", "properties": {}, "geometry": {"type": "MultiPoint", "coordinates": ["#
        // Line of the bad position and its column: `before` ends with a
        // newline after every 7th position, 70,000 = 7 × 10,000.
        let line = 1 + 10_000
        for (bad, column, message) in [
            ("[1,95]", 5, "latitude 95 is outside [-90, 90]"),
            (#"[1,"a"]"#, 5, #"latitude is not a number: "a""#),
            ("[1]", 2, "a position must be an array [longitude, latitude], found an array of 1"),
            ("7", 2, "a position must be an array [longitude, latitude], found a number")
        ] {
            let text = head + before + "," + bad + "," + after + "]}}\n"
            let got = Self.error(text, batch: batch)
            #expect(got == "\(line):\(column): \(message)", "\(bad)")
            let skipping = try Self.read(
                text, batch: batch, options: PointReaderOptions(format: .geojson, skipInvalid: true))
            #expect(skipping.points.count == 99_999 && skipping.reader.rowsRead == 100_000)
            #expect(skipping.reader.rejections.count == 1)
            #expect(
                skipping.reader.rejections.tallies.first?.first.location.hasSuffix("t.geojson:\(line):\(column)")
                    == true,
                "\(String(describing: skipping.reader.rejections.tallies.first?.first.location))")
        }
        // Bad JSON later in the same feature is reported first, as when the
        // feature was read whole.
        let cut = head + before + ",[1,95]," + after
        #expect(Self.error(cut, batch: batch).contains("truncated JSON"))
        let broken = head + before + ",[1,95]," + after + "]} x}"
        #expect(
            Self.error(broken, batch: batch).contains("invalid JSON: expected ',' or '}' in an object but found 'x'"))
    }
}
