import Foundation
import Testing

@testable import HeatMapContouring
@testable import HeatMapCore
@testable import HeatMapDensity
@testable import HeatMapFormats

@Suite struct GeoJSONTests {
    let planar = PlaneProjection(kind: .planar)

    @Test func bandsAreOneFeaturePerLevelWithTheirProperties() throws {
        let set = Shapes.bands(scale: 1)
        let text = try GeoJSONExport.contours(
            set, projection: planar, units: "per square unit", mode: .bands,
            gradient: .thermal, fillOpacity: 0.8)
        let collection = try GeoJSONRead.collection(text)
        #expect(collection["type"] as? String == "FeatureCollection")
        let bbox = try #require(collection["bbox"] as? [Double])
        #expect(bbox == [-300, -300, 300, 300])
        let features = try GeoJSONRead.features(text)
        #expect(features.count == 3)
        for (level, feature) in features.enumerated() {
            #expect(feature["type"] as? String == "Feature")
            let p = try #require(feature["properties"] as? [String: Any])
            #expect(p["level"] as? Int == level)
            #expect(p["threshold"] as? Double == [0.5, 1, 2][level])
            if level < 2 { #expect(p["upper"] as? Double == [1, 2][level]) } else { #expect(p["upper"] is NSNull) }
            #expect(p["units"] as? String == "per square unit")
            let color = HeatMapGradient.thermal.color(forLevel: level, of: 3)
            #expect(p["fill"] as? String == color.hex)
            #expect(p["stroke"] as? String == color.hex)
            #expect(abs((p["fill-opacity"] as? Double ?? -1) - 0.8 * color.alpha) < 1e-4)
        }
        // Band 0: one polygon with two holes; band 2: two polygons.
        #expect(try GeoJSONRead.polygons(features[0]).map(\.count) == [3])
        #expect(try GeoJSONRead.polygons(features[2]).count == 2)
        #expect(try GeoJSONRead.allProblems(text, geographic: false).isEmpty)
        // Levels: nested, no upper bound.
        let levels = try GeoJSONRead.features(
            GeoJSONExport.contours(set, projection: planar, units: "u", mode: .levels))
        #expect(levels.count == 3)
        for f in levels { #expect((f["properties"] as? [String: Any])?["upper"] is NSNull) }
        #expect(try GeoJSONRead.polygons(levels[0]).map(\.count) == [1])
    }

    @Test func featurePerPolygonGivesOneFeatureForEachPolygon() throws {
        let text = try GeoJSONExport.contours(
            Shapes.bands(), projection: Shapes.fiji, units: "per km²",
            options: GeoJSONOptions(grouping: .polygon))
        let features = try GeoJSONRead.features(text)
        #expect(features.count == 4)
        let levels = features.map { ($0["properties"] as? [String: Any])?["level"] as? Int }
        #expect(levels == [0, 1, 2, 2])
        let indices = features.map { ($0["properties"] as? [String: Any])?["index"] as? Int }
        #expect(indices == [0, 0, 0, 1])
        #expect(try GeoJSONRead.allProblems(text).isEmpty)
    }

    @Test func isolinesAreClosedLineStrings() throws {
        let text = try GeoJSONExport.contours(Shapes.bands(scale: 1), projection: planar, units: "u", mode: .isolines)
        let features = try GeoJSONRead.features(text)
        #expect(features.count == 3)
        for (level, f) in features.enumerated() {
            let p = try #require(f["properties"] as? [String: Any])
            #expect(p["level"] as? Int == level && p["threshold"] as? Double == [0.5, 1, 2][level])
            #expect(p["upper"] == nil && p["fill"] == nil)
            let lines = try GeoJSONRead.lines(f)
            #expect(lines.count == [1, 2, 2][level])
            for line in lines { #expect(line.first! == line.last! && line.count >= 4) }
        }
        let geometry = try #require(features[0]["geometry"] as? [String: Any])
        #expect(geometry["type"] as? String == "LineString")
    }

    @Test func isolinesAreCutAtTheAntimeridian() throws {
        let text = try GeoJSONExport.contours(
            Shapes.bands(), projection: Shapes.fiji, units: "per km²", mode: .isolines)
        let outer = try GeoJSONRead.lines(try GeoJSONRead.features(text)[0])
        #expect(outer.count == 2)
        for line in outer {
            #expect(line.allSatisfy { abs($0[0]) <= 180 })
            let xs = line.map { $0[0] }
            #expect(xs.max()! - xs.min()! < 180)
            // Each piece ends on ±180°.
            #expect(abs(abs(line.first![0]) - 180) < 1e-12 && abs(abs(line.last![0]) - 180) < 1e-12)
        }
    }

    @Test func numbersAreShortestDecimalsWithoutExponents() {
        var rng = SplitMix(seed: 1)
        var values: [Double] = [
            1e-5, 1.5e20, .leastNonzeroMagnitude, 0.1 + 0.2, 123456789012345680, 1e15, 1e16, -2.5e-7,
            .ulpOfOne, .greatestFiniteMagnitude, -0.0, 0, 42, 1.0 / 3
        ]
        for _ in 0..<2000 { values.append(Double(bitPattern: rng.next())) }
        for v in values where v.isFinite {
            let text = JSONText.number(v)
            #expect(!text.contains("e") && !text.contains("E"), "\(v) → \(text)")
            #expect(Double(text) == v, "\(v) → \(text)")
            #expect(text != "-0")
        }
        #expect(JSONText.number(1e-5) == "0.00001")
        #expect(JSONText.number(1.5e20) == "150000000000000000000")
        #expect(JSONText.number(0.1 + 0.2) == "0.30000000000000004")
        #expect(JSONText.number(.nan) == "null" && JSONText.number(-.infinity) == "null")
        var json = JSONText()
        json.append(number: nil)
        #expect(json.string == "null")
    }

    @Test func fixedDecimalsAreWrittenExactly() {
        let cases: [(Int64, Int, String)] = [
            (123456, 3, "123.456"), (-5, 6, "-0.000005"), (1_000_000, 6, "1"),
            (120, 2, "1.2"), (0, 6, "0"), (-1_234_500, 4, "-123.45"),
            (180_000_000, 6, "180"), (-179_999_999, 6, "-179.999999"), (7, 0, "7")
        ]
        for (n, d, expected) in cases {
            var json = JSONText()
            json.append(fixed: n, decimals: d)
            #expect(json.string == expected)
        }
    }

    /// The writer against plain decimal arithmetic on Strings, over random
    /// numbers of every size and decimals 0–18, one by one and as positions.
    @Test func fixedDecimalsMatchAReference() {
        func reference(_ n: Int64, _ d: Int) -> String {
            var digits = String(n.magnitude)
            if d > 0 {
                if digits.count <= d { digits = String(repeating: "0", count: d - digits.count + 1) + digits }
                digits.insert(".", at: digits.index(digits.endIndex, offsetBy: -d))
                while digits.hasSuffix("0") { digits.removeLast() }
                if digits.hasSuffix(".") { digits.removeLast() }
            }
            return (n < 0 ? "-" : "") + digits
        }
        var generator = SplitMix(seed: 11)
        var points: [FixedPoint] = []
        var expected = "["
        for k in 0..<5000 {
            let bits = Int64.random(in: 0...62, using: &generator)
            let magnitude = Int64.random(in: 0...(Int64(1) << bits), using: &generator)
            let n = k % 3 == 0 ? -magnitude : magnitude
            let d = k % 19
            var json = JSONText()
            json.append(fixed: n, decimals: d)
            #expect(json.string == reference(n, d), "\(n) at \(d) decimals")
            let p = FixedPoint(x: n, y: (magnitude >> 30) * 10_000_000)
            points.append(p)
            expected += (k > 0 ? "," : "") + "[\(reference(p.x, 13)),\(reference(p.y, 13))]"
        }
        for extreme in [Int64.min, Int64.max, Int64.min + 1] {
            var json = JSONText()
            json.append(fixed: extreme, decimals: 18)
            #expect(json.string == reference(extreme, 18))
        }
        // Blocks of positions, closed and open, past the scratch buffer's size.
        var ring = JSONText()
        ring.append(positions: points, closing: true, decimals: 13)
        #expect(ring.string == expected + ",[\(reference(points[0].x, 13)),\(reference(points[0].y, 13))]]")
        var line = JSONText()
        line.append(positions: points, closing: false, decimals: 13)
        #expect(line.string == expected + "]")
        var empty = JSONText()
        empty.append(positions: [], closing: true, decimals: 6)
        #expect(empty.string == "[]")
    }

    @Test func stringsAreEscaped() throws {
        let text = try GeoJSONExport.contours(
            Shapes.bands(scale: 1), projection: planar,
            units: "per \"km\"²\\\n<x>\u{1}", mode: .bands)
        let p = try #require(try GeoJSONRead.features(text)[0]["properties"] as? [String: Any])
        #expect(p["units"] as? String == "per \"km\"²\\\n<x>\u{1}")
    }

    @Test func orientationIsFixedInOutputCoordinates() throws {
        // Exterior given clockwise and the hole counter-clockwise: both wrong.
        let polygon = PlanePolygon(
            exterior: Shapes.rectangle(-50_000, -40_000, 50_000, 40_000, clockwise: true),
            holes: [Shapes.rectangle(-10_000, -10_000, 10_000, 10_000)])
        let set = ContourSet(thresholds: [1], levels: [[polygon]], bands: [[polygon]], isolines: [[]])
        for projection in [
            PlaneProjection(kind: .equalArea, centreLatitude: -60, centreLongitude: 30),
            PlaneProjection(kind: .webMercator, centreLatitude: 0, centreLongitude: 0), planar
        ] {
            let text = try GeoJSONExport.contours(set, projection: projection, units: "u")
            let rings = try GeoJSONRead.polygons(try GeoJSONRead.features(text)[0])[0]
            #expect(rings.count == 2)
            #expect(GeoJSONRead.signedArea(rings[0]) > 0)
            #expect(GeoJSONRead.signedArea(rings[1]) < 0)
            #expect(try GeoJSONRead.allProblems(text, geographic: projection.isGeographic).isEmpty)
        }
    }

    @Test func planarCoordinatesAreWrittenAsTheyAre() throws {
        let polygon = PlanePolygon(exterior: Shapes.rectangle(5000.25, -7000.5, 9000.125, 300))
        let set = ContourSet(thresholds: [3], levels: [[polygon]], bands: [[polygon]], isolines: [[]])
        let text = try GeoJSONExport.contours(set, projection: planar, units: "per square unit")
        #expect(
            text.contains("[[[5000.25,-7000.5],[9000.125,-7000.5],[9000.125,300],[5000.25,300],[5000.25,-7000.5]]]"))
        #expect(text.contains("\"bbox\":[5000.25,-7000.5,9000.125,300]"))
    }

    @Test func hugePlanarCoordinatesAreRoundedCoarselyNotDropped() throws {
        let polygon = PlanePolygon(exterior: Shapes.rectangle(1e18, -3e18, 7e18, 2.5e18))
        let broken = PlanePolygon(exterior: [
            PlanePoint(x: .nan, y: 0), PlanePoint(x: 1, y: .infinity), PlanePoint(x: 2, y: 2)
        ])
        let set = ContourSet(
            thresholds: [3, 4], levels: [[polygon], [broken]], bands: [[polygon], [broken]], isolines: [[], []])
        let text = try GeoJSONExport.contours(set, projection: planar, units: "u")
        #expect(
            text.contains("[[[1000000000000000000,-3000000000000000000],[7000000000000000000,-3000000000000000000]"))
        #expect(!text.contains("nan") && !text.contains("inf"))
        #expect(try GeoJSONRead.features(text).count == 1)
    }

    @Test func nonFiniteGeometryNeverTraps() throws {
        let bad = [
            PlanePoint(x: .nan, y: 0), PlanePoint(x: 1e7, y: .infinity), PlanePoint(x: -.infinity, y: 2),
            PlanePoint(x: 5, y: 5)
        ]
        let set = ContourSet(
            thresholds: [.nan, 2], levels: [[PlanePolygon(exterior: bad)], []],
            bands: [[PlanePolygon(exterior: bad, holes: [bad])], []], isolines: [[bad], [bad]])
        for projection in [
            Shapes.fiji, planar, PlaneProjection(kind: .webMercator), PlaneProjection(kind: .equirectangular)
        ] {
            for mode in ContourMode.allCases {
                let text = try GeoJSONExport.contours(set, projection: projection, units: "u", mode: mode)
                #expect(!text.contains("nan") && !text.contains("inf"))
                _ = try GeoJSONRead.collection(text)
            }
        }
    }

    @Test func sameInputGivesTheSameBytes() throws {
        let a = try GeoJSONExport.contours(Shapes.bands(), projection: Shapes.fiji, units: "per km²")
        let b = try GeoJSONExport.contours(Shapes.bands(), projection: Shapes.fiji, units: "per km²")
        #expect(a == b)
    }

    @Test func cancellationStopsTheExport() {
        let flag = CancellationFlag()
        flag.cancel()
        #expect(throws: CancellationError.self) {
            try GeoJSONExport.contours(
                Shapes.bands(), projection: Shapes.fiji, units: "u",
                control: ComputeControl(cancellation: flag))
        }
    }

    @Test func emptyContoursGiveAnEmptyCollection() throws {
        let set = ContourSet(thresholds: [1, 2], levels: [[], []], bands: [[], []], isolines: [[], []])
        let text = try GeoJSONExport.contours(set, projection: Shapes.fiji, units: "u")
        #expect(text == "{\"type\":\"FeatureCollection\",\"features\":[\n]}\n")
    }

    @Test func binsAreFeaturesWithIdsAggregatesAndColours() throws {
        var points: [HeatMapPoint] = []
        var rng = SplitMix(seed: 2)
        for k in 0..<600 {
            // Across ±180° near Fiji.
            points.append(
                HeatMapPoint(
                    id: k, latitude: -20 + rng.unit() * 6,
                    longitude: LongitudeArc.normalized(176 + rng.unit() * 8), value: rng.unit() * 5))
        }
        let result = try HeatMapBinning.bin(points, configuration: BinningConfiguration(size: 40, includeEmpty: true))
        let text = try GeoJSONExport.bins(result, aggregate: .mean)
        let features = try GeoJSONRead.features(text)
        #expect(features.count == result.bins.count)
        #expect(try GeoJSONRead.allProblems(text).isEmpty)
        var split = 0
        var total = 0
        for (bin, feature) in zip(result.bins, features) {
            let p = try #require(feature["properties"] as? [String: Any])
            #expect(p["q"] as? Int == bin.id.first && p["r"] as? Int == bin.id.second)
            #expect(p["count"] as? Int == bin.statistics.count)
            total += bin.statistics.count
            if bin.statistics.count == 0 {
                #expect(p["value"] is NSNull && p["mean"] is NSNull && p["min"] is NSNull)
                #expect(p["fill-opacity"] as? Double == 0)
            } else {
                #expect(abs((p["value"] as? Double ?? .nan) - bin.statistics.mean!) < 1e-12)
                #expect((p["fill-opacity"] as? Double ?? 0) > 0)
            }
            let polygons = try GeoJSONRead.polygons(feature)
            if polygons.count > 1 { split += 1 }
            for polygon in polygons {
                #expect(polygon.count == 1)
                let xs = polygon[0].map { $0[0] }
                #expect(xs.max()! - xs.min()! < 180)
            }
        }
        #expect(total == 600)
        #expect(split > 0)
        // Bbox across ±180°: west > east.
        let bbox = try #require(try GeoJSONRead.collection(text)["bbox"] as? [Double])
        #expect(bbox[0] > 170 && bbox[2] < -170)
    }

    @Test func planarBinsUseTheirIdNames() throws {
        let result = try HeatMapBinning.bin(
            PlanePoints(x: [1, 2, 50], y: [1, 2, 50], weight: [1, 1, 1]),
            configuration: BinningConfiguration(shape: .square, size: 10, projection: .planar))
        let features = try GeoJSONRead.features(try GeoJSONExport.bins(result))
        let p = try #require(features.first?["properties"] as? [String: Any])
        #expect(p["i"] as? Int == 0 && p["j"] as? Int == 0 && p["count"] as? Int == 2 && p["value"] as? Double == 2)
        #expect(try GeoJSONRead.polygons(features[0])[0][0] == [[0, 0], [10, 0], [10, 10], [0, 10], [0, 0]])
    }
}
