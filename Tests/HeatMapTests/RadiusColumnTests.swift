import Foundation
import Testing

@testable import HeatMapCore
@testable import HeatMapDensity

/// A radius column (the tool's `--radius-column`): each row's radius must
/// be a finite number > 0, and a row that breaks that is bad input named
/// by file, line and column, as any other field.
@Suite struct RadiusColumnTests {
    static var options: PointReaderOptions {
        var columns = PointColumns(value: "r")
        columns.valueIsRadius = true
        return PointReaderOptions(columns: columns, geographic: false)
    }

    @Test func goodRadiiAreRead() throws {
        let points = try InputCSVTests.points("x,y,r\n1,2,0.5\n3,4,12\n", options: Self.options)
        #expect(points.map(\.value) == [0.5, 12])
    }

    @Test(arguments: [
        ("0", "3:r: radius 0 is not > 0 (a kernel radius must be positive)"),
        ("-2.5", "3:r: radius -2.5 is not > 0 (a kernel radius must be positive)"),
        ("", "3:r: radius is empty"),
        ("nan", "3:r: radius is NaN (\"nan\")"),
        ("inf", "3:r: radius is not finite (\"inf\")"),
        ("wide", "3:r: radius is not a number: \"wide\"")
    ])
    func aBadRadiusIsNamedByLineAndColumn(text: String, message: String) throws {
        let error = try InputCSVTests.error("x,y,r\n1,2,0.5\n3,4,\(text)\n", options: Self.options)
        #expect(error == message)
    }

    @Test func aMeasuredValueMayBeZeroOrNegative() throws {
        let points = try InputCSVTests.points(
            "x,y,v\n1,2,0\n3,4,-1\n", options: PointReaderOptions(columns: PointColumns(value: "v"), geographic: false))
        #expect(points.map(\.value) == [0, -1])
    }
}
