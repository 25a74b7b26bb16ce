import Foundation
import HeatMapFormats
import Testing

@testable import HeatMapCore
@testable import HeatMapDensity

/// A radius column (the tool's `--radius-column`): each row's radius must
/// be a finite number > 0, and a row that breaks that is bad input named
/// by file, line and column, as any other field.
@Suite struct RadiusColumnTests {
    static var options: PointReaderOptions {
        var columns = PointColumns()
        columns.radius = "r"
        return PointReaderOptions(columns: columns, geographic: false)
    }

    @Test func goodRadiiAreRead() throws {
        let points = try InputCSVTests.points("x,y,r\n1,2,0.5\n3,4,12\n", options: Self.options)
        #expect(points.map(\.radius) == [0.5, 12])
        #expect(points.allSatisfy { $0.value.isNaN })
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

    /// On the globe a radius is at most half its circumference (metres):
    /// a wider one (a radius in the wrong unit) is named where it is, by
    /// both readers; planar radii have no such bound.
    @Test func aRadiusWiderThanHalfTheGlobeIsNamed() throws {
        var columns = PointColumns()
        columns.radius = "r"
        let geographic = PointReaderOptions(columns: columns, geographic: true)
        let text = "lat,lon,r\n10,20,1000\n10.1,20.1,1e300\n"
        #expect(
            try InputCSVTests.error(text, options: geographic)
                == "3:r: radius 1e300 m is wider than half the globe's circumference (20015 km; radii are in metres)")
        #expect(try InputCSVTests.points("lat,lon,r\n10,20,20000000\n", options: geographic).count == 1)
        let planar = PointReaderOptions(columns: columns, geographic: false)
        #expect(try InputCSVTests.points(text, options: planar).map(\.radius) == [1000, 1e300])
        let feature = """
            {"type":"FeatureCollection","features":[
            {"type":"Feature","geometry":{"type":"Point","coordinates":[5,6]},"properties":{"r":3e7}}]}
            """
        let error = try InputGeoJSONTests.error(
            feature, options: PointReaderOptions(columns: columns, geographic: true, format: .geojson))
        #expect(error.contains("wider than half the globe's circumference"), "\(error)")
    }

    @Test func aMeasuredValueMayBeZeroOrNegative() throws {
        let points = try InputCSVTests.points(
            "x,y,v\n1,2,0\n3,4,-1\n", options: PointReaderOptions(columns: PointColumns(value: "v"), geographic: false))
        #expect(points.map(\.value) == [0, -1])
    }

    @Test func aRadiusAndAMeasuredValueAreReadSideBySide() throws {
        var columns = PointColumns(value: "v")
        columns.radius = "r"
        let options = PointReaderOptions(columns: columns, geographic: false)
        let points = try InputCSVTests.points("x,y,v,r\n1,2,-4,0.5\n3,4,7,12\n", options: options)
        #expect(points.map(\.value) == [-4, 7])
        #expect(points.map(\.radius) == [0.5, 12])
        columns.radius = "v"
        let error = try InputCSVTests.error(
            "x,y,v\n1,2,3\n", options: PointReaderOptions(columns: columns, geographic: false))
        #expect(
            error.hasSuffix("1:v: column 'v' is named both for the value (--value) and the radius (--radius-column)"))
    }

    @Test func aGeoJSONFeatureGivesItsRadiusAndValue() throws {
        var columns = PointColumns(value: "v")
        columns.radius = "r"
        let options = PointReaderOptions(columns: columns, geographic: true, format: .geojson)
        let text = """
            {"type":"FeatureCollection","features":[
            {"type":"Feature","geometry":{"type":"MultiPoint","coordinates":[[1,2],[3,4]]},"properties":{"v":5,"r":900}},
            {"type":"Feature","geometry":{"type":"Point","coordinates":[5,6]},"properties":{"v":-1,"r":20}}]}
            """
        let points = try InputGeoJSONTests.points(text, options: options)
        #expect(points.map(\.radius) == [900, 900, 20])
        #expect(points.map(\.value) == [5, 5, -1])
        let bad = text.replacingOccurrences(of: "\"r\":20", with: "\"r\":0")
        #expect(try InputGeoJSONTests.error(bad, options: options).contains("radius 0 is not > 0"))
    }
}

/// `--radius-column` beside `--value`: the kernel-weighted mean with each
/// point's own radius.
@Suite struct RadiusColumnCLITests {
    @Test func theMeanWithOwnRadiiIsTheRatioOfItsTwoSums() throws {
        var generator = SplitMix(seed: 12)
        let rows = (0..<60).map { _ in
            let x = Double.random(in: 0...40, using: &generator), y = Double.random(in: 0...30, using: &generator)
            let v = Double.random(in: 0...20, using: &generator), r = Double.random(in: 2...9, using: &generator)
            return "\(x),\(y),\(v),\(r)"
        }
        let folder = try ScratchFolder()
        try folder.write("p.csv", "x,y,v,r\n" + rows.joined(separator: "\n") + "\n")
        func grid(_ extra: [String]) throws -> [String: Any] {
            let run = try Tool.run(
                [
                    "grid", "p.csv", "--planar", "--kernel", "quartic", "--radius", "5", "--radius-column", "r",
                    "--resolution", "60", "--format", "json"
                ] + extra, directory: folder.path)
            #expect(run.status == 0, "\(run.stderr)")
            return try run.json()
        }
        // The mean's two sums: Σ v K_r (v as the weight) over Σ K_r.
        let mean = try grid(["--value", "v"]), sum = try grid([])
        let weighted = try grid(["--weight", "v"])
        #expect(mean["estimator"] as? String == "mean")
        for key in ["columns", "rows", "x0", "y0", "dx", "dy"] {
            #expect(mean[key] as? Double == sum[key] as? Double && sum[key] as? Double == weighted[key] as? Double)
        }
        let m = try #require(mean["values"] as? [Any]), s = try #require(sum["values"] as? [Any])
        let w = try #require(weighted["values"] as? [Any])
        var compared = 0
        for i in m.indices {
            guard let mi = m[i] as? Double, let si = s[i] as? Double, let wi = w[i] as? Double else { continue }
            // The two sums are the quartic's single-precision splat: each
            // within 1024 × 2⁻²⁴ of itself (docs/density-model.md), the mean in double.
            #expect(abs(mi - wi / si) <= 2e-4 * max(1, abs(mi)))
            compared += 1
        }
        #expect(compared > 100)
    }
}

/// Points with their own radii and values, handed out in batches (as a
/// file is read): gathered whole, the grid is the one of all the points
/// at once.
@Suite struct RadiusBatchTests {
    /// A source that hands out its points `size` at a time.
    struct Batched: PlanePointSource {
        let points: PlanePoints
        let size: Int
        var count: Int { points.count }
        var projection: PlaneProjection { PlaneProjection(kind: .planar) }
        var carriesRadius: Bool { true }
        func spread(control: ComputeControl) throws -> BandwidthEstimator {
            try MemoryPointSource(points: points, projection: projection).spread(control: control)
        }
        func box(spread: BandwidthEstimator?, control: ComputeControl) throws -> PlaneBox {
            try DensityGrid.bounds(of: points, control: control)
        }
        func forEachBatch(control: ComputeControl, _ body: (PlanePoints) throws -> Void) throws {
            for start in stride(from: 0, to: points.count, by: size) {
                let part = start..<min(start + size, points.count)
                var batch = PlanePoints(
                    x: Array(points.x[part]), y: Array(points.y[part]), weight: Array(points.weight[part]),
                    value: points.value.map { Array($0[part]) })
                batch.radius = points.radius.map { Array($0[part]) }
                try body(batch)
            }
        }
    }

    @Test func batchesOfValuesAndRadiiGiveTheGridOfAllThePoints() throws {
        var generator = SplitMix(seed: 29)
        var points = PlanePoints()
        var radii: [Double] = [], values: [Double] = []
        for _ in 0..<500 {
            points.x.append(Double.random(in: 0...50, using: &generator))
            points.y.append(Double.random(in: 0...40, using: &generator))
            points.weight.append(Double.random(in: 0.5...2, using: &generator))
            values.append(Double.random(in: -10...10, using: &generator))
            radii.append(Double.random(in: 2...8, using: &generator))
        }
        points.value = values
        points.radius = radii
        var configuration = HeatMapConfiguration(radius: 5, gridResolution: 80)
        configuration.kernel = .quartic
        configuration.estimator = .mean
        let whole = try DensityPlanner.compute(
            MemoryPointSource(points: points, projection: PlaneProjection(kind: .planar)),
            configuration: configuration, control: .none)
        let batched = try DensityPlanner.compute(
            Batched(points: points, size: 64), configuration: configuration, control: .none)
        #expect(batched.plan == whole.plan)
        #expect(batched.grid.values.count == whole.grid.values.count)
        #expect(zip(batched.grid.values, whole.grid.values).allSatisfy { $0.bitPattern == $1.bitPattern })
        #expect(batched.grid.values.contains { $0.isFinite && $0 < 0 })
    }
}

/// `PlanePoints`' arrays are public and can be set apart: the public
/// entries that take them refuse arrays of different lengths with one
/// message naming the array, rather than read past one.
@Suite struct PlanePointsLengthTests {
    static func mismatched() -> [(name: String, points: PlanePoints)] {
        let good = PlanePoints(x: [1, 2, 3], y: [1, 2, 3], weight: [1, 1, 1], value: [5, 6, 7])
        var shortY = good
        shortY.y = [1, 2]
        var longValue = good
        longValue.value = [5, 6, 7, 8]
        var shortRadius = good
        shortRadius.radius = [2]
        var shortWeight = good
        shortWeight.weight = []
        return [("y", shortY), ("value", longValue), ("radius", shortRadius), ("weight", shortWeight)]
    }

    @Test(arguments: mismatched())
    func theDensityAndTheBinsRefuseThem(name: String, points: PlanePoints) throws {
        let expected = "PlanePoints.\(name) has"
        var configuration = HeatMapConfiguration(radius: 2, gridResolution: 20)
        configuration.estimator = .mean
        #expect {
            _ = try DensityGrid.compute(
                points: points, projection: PlaneProjection(kind: .planar), configuration: configuration)
        } throws: { "\($0)".contains(expected) }
        #expect {
            _ = try HeatMapBinning.bin(points, configuration: BinningConfiguration(size: 1, projection: .planar))
        } throws: { "\($0)".contains(expected) }
    }
}
