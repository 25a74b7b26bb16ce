import Foundation
import Testing

@testable import HeatMapContouring
@testable import HeatMapCore
@testable import HeatMapDensity
@testable import HeatMapFormats

/// A bad point gets the same counting reason whichever way it comes in:
/// a CSV or GeoJSON file (the tool), points in memory (the density API),
/// the hexagon binner and the H3 binner. ``PointRule`` words them once.
@Suite struct PointRuleTests {
    /// One fault, a point showing it and the reason every path must give.
    struct Fault: Sendable, CustomTestStringConvertible {
        var latitude: Double, longitude: Double, weight: Double
        var reason: String
        var testDescription: String { reason }
    }

    static let faults = [
        Fault(latitude: 95, longitude: 10, weight: 1, reason: "latitude outside [-90, 90]"),
        Fault(latitude: -90.5, longitude: 10, weight: 1, reason: "latitude outside [-90, 90]"),
        Fault(latitude: 10, longitude: 360, weight: 1, reason: "longitude outside [-180, 360)"),
        Fault(latitude: 10, longitude: -180.25, weight: 1, reason: "longitude outside [-180, 360)"),
        Fault(latitude: 10, longitude: 10, weight: -2, reason: "weight is negative")
    ]

    /// Two good points and the bad one, in each form.
    static func points(_ f: Fault) -> [HeatMapPoint] {
        [
            HeatMapPoint(latitude: 1, longitude: 1),
            HeatMapPoint(latitude: f.latitude, longitude: f.longitude, weight: f.weight),
            HeatMapPoint(latitude: 2, longitude: 2)
        ]
    }

    @Test(arguments: faults)
    func everyPathCountsTheSameReason(_ f: Fault) throws {
        let folder = try ScratchFolder()
        let rows = Self.points(f).map { "\($0.coordinate.latitude),\($0.coordinate.longitude),\($0.weight)\n" }.joined()
        let csv = try folder.write("p.csv", "lat,lon,w\n" + rows)
        let features = Self.points(f).map { p in
            #"{"type":"Feature","properties":{"w":\#(p.weight)},"geometry":{"type":"Point","coordinates":[\#(p.coordinate.longitude),\#(p.coordinate.latitude)]}}"#
        }
        let geojson = try folder.write(
            "p.geojson", #"{"type":"FeatureCollection","features":["# + features.joined(separator: ",") + "]}")
        let options = PointReaderOptions(columns: PointColumns(weight: "w"), skipInvalid: true)
        for path in [csv, geojson] {
            let read = try StreamedPoints.read(path: path, options: options)
            #expect(read.rejections.byReason == [f.reason: 1], "\(path)")
        }
        let contours = HeatMapContours.compute(
            from: Self.points(f), configuration: HeatMapConfiguration(radius: 20_000))
        #expect(contours.summary.rejected == [f.reason: 1])
        do {
            _ = try HeatMapContours.compute(
                from: Self.points(f), configuration: HeatMapConfiguration(), control: .none,
                strict: true)
            Issue.record("a strict run took the bad point")
        } catch HeatMapError.invalidPoint(let index, let reason) {
            #expect(index == 1 && reason == f.reason)
        }
        // The binners check coordinates only (a weight is a value to them).
        guard f.weight >= 0 else { return }
        let hexagons = try HeatMapBinning.bin(Self.points(f), configuration: BinningConfiguration(size: 50))
        #expect(hexagons.summary.rejected == [f.reason: 1])
        var h3 = BinningConfiguration(shape: .h3, size: 50)
        h3.h3Resolution = 3
        let cells = try HeatMapBinning.binH3(Self.points(f), configuration: h3)
        #expect(cells.summary.rejected == [f.reason: 1])
    }

    /// Planar fields are x and y, and have no range.
    @Test func planarPointsNameXAndY() {
        #expect(
            PointRule.problem(latitude: .nan, longitude: 1, weight: 1, value: nil, geographic: false)
                == "y is not a finite number")
        #expect(
            PointRule.problem(latitude: 1, longitude: .infinity, weight: 1, value: nil, geographic: false)
                == "x is not a finite number")
        #expect(PointRule.problem(latitude: 500, longitude: 900, weight: 1, value: nil, geographic: false) == nil)
        #expect(
            PointRule.problem(latitude: 1, longitude: 1, weight: 1, value: .nan, geographic: true)
                == "value is not a finite number")
        #expect(BatchCheck.problem(.nan, .nan, 1, nil) == "x is not a finite number")
    }
}
