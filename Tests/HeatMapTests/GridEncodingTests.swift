import Foundation
import Testing

@testable import HeatMapContouring
@testable import HeatMapCore
@testable import HeatMapDensity
@testable import HeatMapFormats

/// The grid JSON of docs/formats.md and the ESRI ASCII grid, both ways.
@Suite struct GridEncodingTests {
    static func grid() -> DensityGrid {
        let g = GridGeometry(columns: 3, rows: 2, x0: 10, y0: 20, dx: 0.5, dy: 0.25)
        return DensityGrid(
            geometry: g, values: [0, 1.5, 2, .nan, 4, 5e-7],
            projection: PlaneProjection(kind: .equalArea, centreLatitude: -41, centreLongitude: 174),
            radius: 1500, estimator: .mean, units: "USD")
    }

    @Test func jsonFollowsSection9AndRoundTrips() throws {
        let text = GridEncoding.json(Self.grid())
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(object["columns"] as? Int == 3 && object["rows"] as? Int == 2)
        #expect(object["x0"] as? Double == 10 && object["dy"] as? Double == 0.25)
        #expect(object["units"] as? String == "USD")
        let values = try #require(object["values"] as? [Any])
        #expect(values.count == 6 && values[3] is NSNull)
        let back = try GridEncoding.decodeJSON(Data(text.utf8))
        #expect(back.geometry == Self.grid().geometry)
        #expect(back.values[3].isNaN)
        #expect(back.values.enumerated().allSatisfy { $0.offset == 3 || $0.element == Self.grid().values[$0.offset] })
        #expect(back.projection == Self.grid().projection)
        #expect(back.estimator == .mean && back.radius == 1500)
    }

    @Test func unitsFromUserColumnsAreEscaped() throws {
        var grid = Self.grid()
        grid.units = "price \"USD\"\n<net>"
        let text = GridEncoding.json(grid)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(object["units"] as? String == "price \"USD\"\n<net>")
    }

    @Test func ascWritesRowsFromTheTop() {
        let lines = GridEncoding.asc(Self.grid()).split(separator: "\n").map(String.init)
        #expect(lines[0] == "ncols 3" && lines[1] == "nrows 2")
        #expect(lines[2] == "xllcenter 10" && lines[3] == "yllcenter 20")
        #expect(lines[4] == "dx 0.5" && lines[5] == "dy 0.25")
        #expect(lines[6] == "NODATA_value -9999")
        #expect(lines[7] == "-9999 4 5e-07")  // row 1 (the top) first
        #expect(lines[8] == "0 1.5 2")
    }

    @Test(arguments: [
        ("{}", "'columns'"),
        ("[1]", "not an object"),
        ("{\"columns\":2,\"rows\":2,\"x0\":0,\"y0\":0,\"dx\":1,\"dy\":1,\"values\":[1,2,3]}", "3 numbers for 2 × 2"),
        ("{\"columns\":2,\"rows\":2,\"x0\":0,\"y0\":0,\"dx\":-1,\"dy\":1,\"values\":[1,2,3,4]}", "'dx'"),
        ("{\"columns\":2,\"rows\":2,\"x0\":0,\"y0\":0,\"dx\":1,\"dy\":1,\"values\":[1,\"a\",3,4]}", "value 1"),
        ("{\"columns\":2,\"rows\"", "does not parse"),
        ("{\"columns\":2,\n \"rows\": 2,\n \"values\": [1, x]}", "line 3, column 16")
    ])
    func badGridFilesSayWhatIsWrong(text: String, expected: String) {
        do {
            _ = try GridEncoding.decodeJSON(Data(text.utf8))
            Issue.record("accepted \(text)")
        } catch {
            #expect("\(error)".contains(expected), "\(error)")
        }
    }
}
