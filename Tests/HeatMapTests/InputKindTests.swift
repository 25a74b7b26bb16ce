import Testing

@testable import HeatMap
@testable import HeatMapDensity

/// The one rule that tells points, cells tables and rasters apart from
/// their first bytes (and a name where the bytes do not say).
@Suite struct InputKindTests {
    private func kind(_ text: String, _ name: String? = nil) -> InputKind {
        Array(text.utf8).withUnsafeBufferPointer { InputKind.sniff($0, name: name) }
    }

    @Test func bytesDecideBeforeNames() {
        #expect(
            [UInt8]([0x49, 0x49, 0x2A, 0]).withUnsafeBufferPointer { InputKind.sniff($0, name: "x.csv") } == .geotiff)
        #expect(kind("ncols 3\nnrows 2\n", "x.csv") == .asciiGrid)
        #expect(kind("  NROWS 2\nncols 3\n") == .asciiGrid)
        #expect(kind("{\"columns\":3,\"rows\":2,\"values\":[]}", "g.geojson") == .jsonGrid)
        #expect(kind("{\"type\":\"FeatureCollection\",\"features\":[]}", "p.csv") == .geojson)
        #expect(kind("[{\"type\":\"Feature\",\"properties\":{\"rows\":1,\"columns\":2}}]") == .geojson)
        #expect(kind("contours_cells,i,j\n1,2,3\n", "t.csv") == .cells)
        #expect(kind("lat,lon\n1,2\n", "p.tif") == .geotiff)
    }

    @Test func namesDecideWhenBytesDoNot() {
        #expect(kind("lat,lon\n1,2\n") == .csv)
        #expect(kind("lat,lon\n1,2\n", "p.csv") == .csv)
        #expect(kind("", "dem.asc") == .asciiGrid)
        #expect(kind("", "points.geojson") == .geojson)
        #expect(kind("", nil) == .csv)
    }

    /// A stream sniffed from its first line: a JSON object needs 4096 bytes
    /// (its keys come in any order), a CSV only the line.
    @Test func enoughToSniff() {
        func enough(_ text: String) -> Bool { Array(text.utf8).withUnsafeBufferPointer(InputKind.hasEnough) }
        #expect(!enough("lat,lo"))
        #expect(enough("lat,lon\n"))
        #expect(!enough("{\"columns\":3,\n"))
        #expect(enough("{\"a\":\"" + String(repeating: "x", count: 4100) + "\"}\n"))
    }
}
