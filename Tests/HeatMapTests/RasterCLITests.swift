import Foundation
import Testing

@testable import HeatMapContouring
@testable import HeatMapCore
@testable import HeatMapDensity
@testable import HeatMapFormats

/// `contours grid --format tiff` and `contours export RASTER`, end to end.
@Suite struct RasterCLITests {
    static let samples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Samples/data")
    static func fixture(_ name: String) -> String { RasterReaderTests.path(name) }

    static func features(_ text: String) throws -> [[String: Any]] {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        return try #require(object["features"] as? [[String: Any]])
    }

    @Test func theGeoTIFFOfPointsContoursLikeThePoints() throws {
        let folder = try ScratchFolder()
        let quakes = Self.samples.appendingPathComponent("quakes_fiji.csv").path
        let tif = folder.file("q.tif")
        let grid = try Tool.run(["grid", quakes, "--format", "tiff", "-o", tif])
        #expect(grid.status == 0, "\(grid.stderr)")
        let raster = try RasterReader.read(path: tif)
        guard case .known(.lambertAzimuthalEqualArea) = raster.reference else {
            Issue.record("CRS \(raster.reference)")
            return
        }
        let fromPoints = try Tool.run(["export", quakes, "--smooth", "none", "--spacing", "linear"])
        let thresholds = try Self.features(fromPoints.stdout).map { $0["properties"] as! [String: Any] }
            .map { $0["threshold"] as! Double }
        let custom = "custom:" + thresholds.map { "\($0)" }.joined(separator: ",")
        let fromRaster = try Tool.run(["export", tif, "--smooth", "none", "--spacing", custom])
        #expect(fromRaster.status == 0, "\(fromRaster.stderr)")
        let a = try Self.features(fromPoints.stdout), b = try Self.features(fromRaster.stdout)
        #expect(a.count == b.count)
        // The same bands, in longitude/latitude: the same bounding boxes to Float32's precision.
        let boxA = try JSONSerialization.jsonObject(with: Data(fromPoints.stdout.utf8)) as! [String: Any]
        let boxB = try JSONSerialization.jsonObject(with: Data(fromRaster.stdout.utf8)) as! [String: Any]
        let ba = boxA["bbox"] as! [Double], bb = boxB["bbox"] as! [Double]
        for k in 0..<4 { #expect(abs(ba[k] - bb[k]) < 1e-4) }
    }

    @Test func ascGridsGetAPrjAndJSONGridsACRS() throws {
        let folder = try ScratchFolder()
        let storms = Self.samples.appendingPathComponent("storms.csv").path
        let run = try Tool.run(["grid", storms, "--weight", "wind", "--format", "asc", "-o", folder.file("s.asc")])
        #expect(run.status == 0, "\(run.stderr)")
        let prj = try #require(folder.read("s.prj"))
        #expect(prj.contains("Lambert_Azimuthal_Equal_Area") && prj.contains("6371007.181"))
        let json = try Tool.run(["grid", storms, "--weight", "wind"]).json()
        #expect((json["crs"] as? String)?.hasPrefix("+proj=laea +lat_0=") == true)
        let planar = Self.samples.appendingPathComponent("snow_deaths.csv").path
        let withCRS = try Tool.run(["grid", planar, "--planar", "--crs", "EPSG:27700"]).json()
        #expect(withCRS["crs"] as? String == "EPSG:27700")
        let none = try Tool.run(["grid", planar, "--planar"]).json()
        #expect(none["crs"] == nil)
        let wrong = try Tool.run(["grid", storms, "--crs", "EPSG:27700"])
        #expect(wrong.status == 2)
    }

    @Test func gdalLevelsAndAttributes() throws {
        let run = try Tool.run([
            "export", Self.fixture("int16_deflate_4326.tif"), "--interval", "200", "--offset", "100",
            "--smooth", "none", "--attributes", "gdal"
        ])
        #expect(run.status == 0, "\(run.stderr)")
        let props = try Self.features(run.stdout).map { $0["properties"] as! [String: Any] }
        #expect(props.map { $0["threshold"] as! Double } == [100, 300, 500, 700, 900])
        #expect(props.map { $0["amin"] as! Double } == [100, 300, 500, 700, 900])
        #expect(props.last!["amax"] as? Double == RasterReaderTests.source.grid.maximum)
        // The raster reaches -20, so gdal_contour's level 0 lies inside its range.
        let exp = try Tool.run([
            "export", Self.fixture("float32_none_utm33.tif"), "--exp-base", "10", "--smooth", "none"
        ])
        #expect(
            try Self.features(exp.stdout).map { ($0["properties"] as! [String: Any])["threshold"] as! Double } == [
                0, 1, 10, 100
            ])
    }

    @Test func utmRastersComeOutInLongitudeLatitude() throws {
        let run = try Tool.run(["export", Self.fixture("float32_none_utm33.tif"), "--levels", "3", "--smooth", "none"])
        #expect(run.status == 0, "\(run.stderr)")
        let object = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as! [String: Any]
        let box = object["bbox"] as! [Double]
        // 400-440 km east, 5570-5600 km north in zone 33N: about 13.6-14.2 E, 50.3-50.6 N.
        #expect(box[0] > 13.5 && box[2] < 14.2 && box[1] > 50.2 && box[3] < 50.6, "\(box)")
    }

    @Test(arguments: [
        ("bad.tif", "not a TIFF file"), ("truncated.tif", "truncated"), ("zstd.tif", "ZSTD"),
        ("rotated.tif", "rotated"), ("bng_27700.tif", "EPSG:27700")
    ])
    func refusedRastersGiveOneLine(name: String, phrase: String) throws {
        let run = try Tool.run(["export", Self.fixture(name)])
        #expect(run.status == 1)
        #expect(run.stderrLines.count == 1 && run.stderr.contains(phrase), "\(run.stderr)")
        #expect(run.stdout.isEmpty)
    }

    @Test func keepCRSStatesTheCRS() throws {
        let run = try Tool.run([
            "export", Self.fixture("bng_27700.tif"), "--keep-crs", "--levels", "2", "--smooth", "none"
        ])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(
            run.stdout.hasPrefix(
                "{\"type\":\"FeatureCollection\",\"crs\":{\"type\":\"name\",\"properties\":{\"name\":\"urn:ogc:def:crs:EPSG::27700\"}}"
            ))
        let box = (try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as! [String: Any])["bbox"] as! [Double]
        #expect(box[0] >= 400_000 && box[2] <= 440_000)
    }

    /// Elevations or anomalies below zero are data, not a density's rounding
    /// noise: their levels are contoured, as gdal_contour does.
    @Test(arguments: [
        (["--interval", "2"], [-2.0, 0, 2]),
        (["--spacing", "custom:-3,-1,1"], [-3.0, -1, 1]),
        (["--spacing", "nice", "--levels", "4"], [-2.0, 0, 2])
    ])
    func negativeRasterValuesGetTheirLevels(options: [String], thresholds: [Double]) throws {
        let folder = try ScratchFolder()
        try folder.write(
            "mix.asc", "ncols 3\nnrows 3\nxllcorner 10\nyllcorner 40\ncellsize 0.5\n-4 -3 -2\n-1 0 1\n2 3 4\n")
        let run = try Tool.run(["export", folder.file("mix.asc"), "--smooth", "none"] + options)
        #expect(run.status == 0, "\(run.stderr)")
        let found = try Self.features(run.stdout).map { ($0["properties"] as! [String: Any])["threshold"] as! Double }
        #expect(found == thresholds)
        try folder.write(
            "deep.asc", "ncols 3\nnrows 3\nxllcorner 10\nyllcorner 40\ncellsize 0.5\n-9 -8 -7\n-6 -5 -4\n-3 -2 -1\n")
        let deep = try Tool.run(["export", folder.file("deep.asc"), "--smooth", "none"] + options)
        #expect(deep.status == 0, "\(deep.stderr)")
        #expect(try Self.features(deep.stdout).isEmpty == false)
    }

    /// A longitude/latitude grid whose columns pass a whole turn puts two
    /// nodes on one meridian; its bands would overlap themselves, so it is
    /// refused. A turn exactly (-180 … 180, both ends) is contoured.
    @Test func longitudeLatitudeRastersWiderThanTheGlobeAreRefused() throws {
        let folder = try ScratchFolder()
        func grid(columns: Int, x0: Double, dx: Double, crs: String = "EPSG:4326") throws -> String {
            let values = (0..<(2 * columns)).map { "\($0 % columns == 1 ? 5 : 1)" }.joined(separator: ",")
            return try folder.write(
                "g\(columns)\(crs.suffix(4)).json",
                "{\"columns\":\(columns),\"rows\":2,\"x0\":\(x0),\"y0\":10,\"dx\":\(dx),\"dy\":\(dx / 100),"
                    + "\"crs\":\"\(crs)\",\"values\":[\(values)]}")
        }
        let turnOfMetres = 2 * Double.pi * PlaneProjection.mercatorRadius
        for wideGrid in [
            try grid(columns: 4, x0: -180.5, dx: 120.5),
            try grid(columns: 4, x0: -turnOfMetres * 0.51, dx: turnOfMetres * 0.34, crs: "EPSG:3857")
        ] {
            let wide = try Tool.run(["export", wideGrid, "--levels", "1"])
            #expect(wide.status == 1)
            #expect(wide.stderrLines.count == 1 && wide.stderr.contains("more than 360°"), "\(wide.stderr)")
            #expect(wide.stdout.isEmpty)
        }
        for turnGrid in [
            try grid(columns: 5, x0: -180, dx: 90),
            try grid(columns: 5, x0: -turnOfMetres / 2, dx: turnOfMetres / 4, crs: "EPSG:3857")
        ] {
            let turn = try Tool.run(["export", turnGrid, "--levels", "1"])
            #expect(turn.status == 0, "\(turn.stderr)")
        }
    }

    /// A raster of nodata only has no range to report: the note says so
    /// instead of a range of 0 … 0 that no pixel holds.
    @Test func aRasterOfNodataOnlySaysSo() throws {
        let folder = try ScratchFolder()
        try folder.write(
            "none.asc",
            "ncols 2\nnrows 2\nxllcorner 10\nyllcorner 40\ncellsize 0.5\nNODATA_value -9999\n-9999 -9999\n-9999 -9999\n"
        )
        let run = try Tool.run(["export", folder.file("none.asc")])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(
            run.stderrLines == [
                "contours: none.asc: no levels in a raster whose every pixel is nodata; the result is empty"
            ])
    }
}
