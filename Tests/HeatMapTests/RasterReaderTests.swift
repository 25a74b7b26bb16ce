import Foundation
import Testing

@testable import HeatMapContouring
@testable import HeatMapCore
@testable import HeatMapDensity
@testable import HeatMapFormats

/// Reading the GDAL-made fixtures of Tests/Fixtures/Rasters (make.sh there
/// says how each was made): every kind gives the source grid's values at
/// the right places with the right CRS; every refused kind one clear line.
@Suite struct RasterReaderTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/Rasters")

    static func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    /// The source grid (ESRI ASCII, read by the package's own reader).
    static let source: RasterGrid = try! RasterReader.read(path: path("source.asc"))

    @Test func theSourceGridIsReadAsWritten() throws {
        let s = Self.source.grid
        #expect(s.geometry.columns == 40 && s.geometry.rows == 30)
        #expect(s.geometry.x0 == 0.5 && s.geometry.y0 == 0.5 && s.geometry.dx == 1 && s.geometry.dy == 1)
        // NoData at the top-left cell (grid row 29, column 0) and at row 15 from the top, column 39.
        #expect(s.values[29 * 40].isNaN && s.values[14 * 40 + 39].isNaN)
        #expect(s.values.filter(\.isNaN).count == 2)
        #expect(s.maximum > 900 && s.minimum >= -20)
        #expect(Self.source.reference == .none)
    }

    @Test(arguments: [
        "int16_deflate_4326.tif", "int16_lzw_bigendian_4326.tif", "float32_lzw_3857_tiled.tif",
        "float32_none_utm33.tif", "int32_deflate_utm33s_bigtiff.tif", "float64_lzw_4326.tif"
    ])
    func exactKindsGiveTheSourceValues(name: String) throws {
        let raster = try RasterReader.read(path: Self.path(name))
        let g = raster.grid
        #expect(g.geometry.columns == 40 && g.geometry.rows == 30)
        for (k, expected) in Self.source.grid.values.enumerated() {
            let v = g.values[k]
            // GDAL keeps -9999 as the NoData value of these types.
            #expect(v == expected || (v.isNaN && expected.isNaN), "\(name) node \(k)")
            if !(v == expected || (v.isNaN && expected.isNaN)) { break }
        }
    }

    @Test(arguments: [
        ("uint16_packbits_nocrs.tif", -9999.0, 1000.0, 0.0, 11019.0),
        ("byte_deflate_4326_tiled.tif", -20.0, 1000.0, 1.0, 255.0)
    ])
    func scaledKindsGiveTheScaledValues(name: String, a: Double, b: Double, c: Double, d: Double) throws {
        let g = try RasterReader.read(path: Self.path(name)).grid
        for (k, source) in Self.source.grid.values.enumerated() where !source.isNaN {
            let expected = min(max((source - a) * (d - c) / (b - a) + c, c), d)
            #expect(abs(g.values[k] - expected) <= 1, "\(name) node \(k): \(g.values[k]) vs \(expected)")
        }
    }

    @Test func geographicRastersBecomeALinearPlane() throws {
        let raster = try RasterReader.read(path: Self.path("int16_deflate_4326.tif"))
        #expect(raster.reference == .known(.epsg(4326)))
        let g = raster.grid
        #expect(g.projection.kind == .equirectangular && g.projection.centreLatitude == 0)
        // Node (0, 0) is the centre of the lower-left pixel: 10.05 E, 47.05 N.
        let c = g.projection.unproject(g.geometry.node(column: 0, row: 0))
        #expect(abs(c.longitude - 10.05) < 1e-9 && abs(c.latitude - 47.05) < 1e-9)
        let top = g.projection.unproject(g.geometry.node(column: 39, row: 29))
        #expect(abs(top.longitude - 13.95) < 1e-9 && abs(top.latitude - 49.95) < 1e-9)
    }

    @Test func projectedRastersKeepTheirPlane() throws {
        let utm = try RasterReader.read(path: Self.path("float32_none_utm33.tif"))
        #expect(utm.reference == .known(.epsg(32633)) && utm.utm == UTMProjection(epsg: 32633))
        #expect(utm.grid.geometry.x0 == 400_500 && utm.grid.geometry.y0 == 5_570_500 && utm.grid.geometry.dx == 1000)
        let south = try RasterReader.read(path: Self.path("int32_deflate_utm33s_bigtiff.tif"))
        #expect(south.utm?.south == true)
        let mercator = try RasterReader.read(path: Self.path("float32_lzw_3857_tiled.tif"))
        #expect(mercator.reference == .known(.epsg(3857)) && mercator.grid.projection.kind == .webMercator)
        #expect(mercator.grid.geometry.x0 == 1_005_000)
        let plain = try RasterReader.read(path: Self.path("uint16_packbits_nocrs.tif"))
        #expect(plain.reference == .none && plain.grid.projection.kind == .planar)
        let asc = try RasterReader.read(path: Self.path("utm33.asc"))
        #expect(asc.reference == .known(.epsg(32633)))
        #expect(asc.grid.geometry.x0 == 400_500 && asc.grid.geometry.y0 == 5_570_500)
    }

    @Test(arguments: [
        ("bad.tif", "not a TIFF file"), ("truncated.tif", "past the end of the file"),
        ("zstd.tif", "compression 50000 (ZSTD) is not supported"),
        ("rotated.tif", "rotated or sheared")
    ])
    func refusedFilesSayWhyInOneLine(name: String, phrase: String) throws {
        do {
            _ = try RasterReader.read(path: Self.path(name))
            Issue.record("\(name) was read")
        } catch let e as RasterCodecError {
            #expect(e.description.hasPrefix(name + ":"))
            #expect(e.description.contains(phrase), "\(e.description)")
            #expect(!e.description.contains("\n"))
        }
    }

    @Test func anUnknownCRSIsNamed() throws {
        let raster = try RasterReader.read(path: Self.path("bng_27700.tif"))
        guard case .unsupported(let what) = raster.reference else {
            Issue.record("EPSG:27700 was taken as \(raster.reference)")
            return
        }
        #expect(what.hasPrefix("EPSG:27700"))
    }

    @Test func everyTruncationOfAGoodFileFailsCleanly() throws {
        let data = Array(try Data(contentsOf: Self.folder.appendingPathComponent("int16_deflate_4326.tif")))
        var failures = 0
        for cut in stride(from: 0, to: data.count, by: 37) {
            do { _ = try RasterReader.read(Array(data.prefix(cut)), name: "cut.tif") } catch is RasterCodecError {
                failures += 1
            }
        }
        #expect(failures > 0)
    }
}
