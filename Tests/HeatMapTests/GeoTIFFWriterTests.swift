import Foundation
import Testing

@testable import HeatMapContouring
@testable import HeatMapCore
@testable import HeatMapDensity
@testable import HeatMapFormats

/// The GeoTIFF writer against the package's own reader, and its layout
/// against what Cloud-Optimized GeoTIFF readers expect.
@Suite struct GeoTIFFWriterTests {
    static func grid(
        columns: Int, rows: Int, projection: PlaneProjection, seed: UInt64, holes: Bool = false,
        noise: Double = 1e-3
    ) -> DensityGrid {
        var g = SplitMix(seed: seed)
        let geometry = GridGeometry(columns: columns, rows: rows, x0: -12_345.5, y0: 67_890.25, dx: 250, dy: 300)
        var values = (0..<geometry.count).map { k -> Double in
            let x = Double(k % columns) / Double(columns), y = Double(k / columns) / Double(rows)
            return exp(-((x - 0.4) * (x - 0.4) + (y - 0.6) * (y - 0.6)) * 20) * 0.37 + g.unit() * noise
        }
        if holes { for k in stride(from: 7, to: values.count, by: 13) { values[k] = .nan } }
        return DensityGrid(
            geometry: geometry, values: values, projection: projection, radius: 900,
            estimator: holes ? .mean : .density, units: "per km²")
    }

    @Test(arguments: [GeoTIFFWriter.SampleType.float32, .float64])
    func roundTripsThroughTheReader(sample: GeoTIFFWriter.SampleType) throws {
        let projection = PlaneProjection(kind: .equalArea, centreLatitude: 38.85, centreLongitude: -61.7)
        let grid = Self.grid(columns: 300, rows: 199, projection: projection, seed: 1, holes: true)
        let bytes = try GeoTIFFWriter.encode(grid, options: .init(sampleType: sample))
        let back = try RasterReader.read(bytes, name: "t.tif")
        #expect(back.reference == .known(.lambertAzimuthalEqualArea(centreLatitude: 38.85, centreLongitude: -61.7)))
        #expect(back.grid.projection == projection)
        #expect(back.grid.geometry == grid.geometry)
        #expect(back.units == "per km²")
        for (k, v) in grid.values.enumerated() {
            let w = back.grid.values[k]
            if v.isNaN { #expect(w.isNaN); continue }
            #expect(sample == .float64 ? w == v : w == Double(Float(v)), "node \(k)")
        }
    }

    /// A field like a density grid's: smooth bumps, exact zeros where no kernel reaches
    /// (random low bits would not compress, and density grids have none).
    @Test func compressesAtLeastTwofold() throws {
        var grid = Self.grid(columns: 300, rows: 199, projection: PlaneProjection(kind: .planar), seed: 2, noise: 0)
        grid.values = grid.values.map { v in
            let bump = pow(v / 0.37, 4) * 0.37
            return bump < 1e-6 ? 0 : bump
        }
        let bytes = try GeoTIFFWriter.encode(grid)
        #expect(bytes.count * 2 <= 300 * 199 * 4)
    }

    /// Classic little-endian TIFF: every directory's offset and its tile offsets, in file order.
    static func layout(_ b: [UInt8]) -> [(ifd: Int, width: Int, tiles: [Int])] {
        func u16(_ o: Int) -> Int { Int(b[o]) | Int(b[o + 1]) << 8 }
        func u32(_ o: Int) -> Int { u16(o) | u16(o + 2) << 16 }
        var out: [(Int, Int, [Int])] = []
        var at = u32(4)
        while at != 0 {
            let n = u16(at)
            var width = 0, tiles: [Int] = []
            for e in 0..<n {
                let p = at + 2 + 12 * e
                let tag = u16(p), count = u32(p + 4), value = u32(p + 8)
                if tag == 256 { width = value }
                if tag == 324 { tiles = count == 1 ? [value] : (0..<count).map { u32(value + 4 * $0) } }
            }
            out.append((at, width, tiles))
            at = u32(at + 2 + 12 * n)
        }
        return out
    }

    @Test func layoutIsCloudOptimized() throws {
        let grid = Self.grid(columns: 1030, rows: 40, projection: PlaneProjection(kind: .webMercator), seed: 3)
        let bytes = try GeoTIFFWriter.encode(grid)
        let levels = Self.layout(bytes)
        // Full resolution, then halvings until a 512 tile holds the level.
        #expect(levels.map(\.width) == [1030, 515, 258])
        #expect(levels[0].ifd < 300)
        let lastIFD = levels.map(\.ifd).max()!
        for level in levels { #expect(level.tiles.allSatisfy { $0 > lastIFD }) }
        // The smallest overview's data first, the full image's last.
        #expect(levels[2].tiles.max()! < levels[1].tiles.min()!)
        #expect(levels[1].tiles.max()! < levels[0].tiles.min()!)
        #expect(String(decoding: bytes[8..<38], as: UTF8.self).hasPrefix("GDAL_STRUCTURAL_METADATA_SIZE="))
        // Web mercator centred on 0 is EPSG:3857 itself.
        #expect(try RasterReader.read(bytes, name: "m.tif").reference == .known(.epsg(3857)))
    }

    @Test func webMercatorCentredElsewhereIsShiftedEPSG3857() throws {
        let projection = PlaneProjection(kind: .webMercator, centreLongitude: 20)
        let grid = Self.grid(columns: 40, rows: 30, projection: projection, seed: 4)
        let back = try RasterReader.read(try GeoTIFFWriter.encode(grid), name: "m.tif")
        #expect(back.reference == .known(.epsg(3857)))
        // The same places: a node unprojects to the same coordinate through either plane.
        let mine = projection.unproject(grid.geometry.node(column: 5, row: 7))
        let theirs = back.grid.projection.unproject(back.grid.geometry.node(column: 5, row: 7))
        #expect(abs(mine.latitude - theirs.latitude) < 1e-9 && abs(mine.longitude - theirs.longitude) < 1e-9)
    }

    @Test func crsTextRoundTrips() throws {
        let all: [RasterCRS] = [
            .lambertAzimuthalEqualArea(centreLatitude: -12.5, centreLongitude: 170.25),
            .equirectangular(centreLatitude: 40, centreLongitude: -3),
            .webMercator(centreLongitude: 12), .epsg(3857), .epsg(4326)
        ]
        for crs in all {
            #expect(ProjectionText.reference(crs.wkt!) == .known(crs), "\(crs) WKT")
            if case .epsg = crs { continue }
            #expect(
                ProjectionText.proj(crs.proj) == .known(crs == .webMercator(centreLongitude: 0) ? .epsg(3857) : crs),
                "\(crs) PROJ")
        }
        // GeoKeys written and read back.
        for crs in all {
            let (directory, doubles, ascii) = GeoKeys(crs: crs).encoded()
            let keys = try GeoKeys(directory: directory.map(Int.init), doubles: doubles, ascii: ascii)
            #expect(try GeoTIFFReader.reference(keys, name: "k") == .known(crs.withEPSGCode.crs))
        }
    }

    @Test func asciiGridRoundTripsWithItsPrj() throws {
        let projection = PlaneProjection(kind: .equirectangular, centreLatitude: 51, centreLongitude: 0.1)
        let grid = Self.grid(columns: 20, rows: 9, projection: projection, seed: 5, holes: true)
        let text = GridEncoding.asc(grid)
        let back = try RasterReader.read(Array(text.utf8), name: "g.asc", prj: RasterCRS.of(projection)!.wkt)
        #expect(back.grid.projection == projection)
        #expect(
            abs(back.grid.geometry.x0 - grid.geometry.x0) < 1e-9 && abs(back.grid.geometry.y0 - grid.geometry.y0) < 1e-9
        )
        for (k, v) in grid.values.enumerated() {
            #expect(v.isNaN ? back.grid.values[k].isNaN : back.grid.values[k] == v)
        }
    }
}
