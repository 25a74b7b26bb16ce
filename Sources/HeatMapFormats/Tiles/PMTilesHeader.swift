import HeatMapContouring
import HeatMapCore
import HeatMapDensity

/// The 127-byte PMTiles v3 header: section offsets and lengths, counts,
/// compression and tile type, zooms, bounds and centre (degrees × 10⁷),
/// little-endian.
struct PMTilesHeader {
    static let size = 127

    var rootOffset: UInt64 = 0, rootLength: UInt64 = 0
    var metadataOffset: UInt64 = 0, metadataLength: UInt64 = 0
    var leavesOffset: UInt64 = 0, leavesLength: UInt64 = 0
    var dataOffset: UInt64 = 0, dataLength: UInt64 = 0
    var addressedTiles: UInt64 = 0, tileEntries: UInt64 = 0, tileContents: UInt64 = 0
    var clustered = false
    var minZoom = 0, maxZoom = 0
    /// West, south, east, north in degrees.
    var bounds: (Double, Double, Double, Double) = PMTilesHeader.world
    /// The web map's whole square: ±180°, and the latitudes of its top and
    /// bottom edges.
    static let world = (-180.0, -WebMercator.latitude(v: 0), 180.0, WebMercator.latitude(v: 0))
    var centreZoom = 0
    var centre: (longitude: Double, latitude: Double) = (0, 0)

    var bytes: [UInt8] {
        var out: [UInt8] = Array("PMTiles".utf8) + [3]
        func u64(_ v: UInt64) { for k in 0..<8 { out.append(UInt8(truncatingIfNeeded: v >> (8 * UInt64(k)))) } }
        func e7(_ degrees: Double) {
            let v = UInt32(bitPattern: Int32(clamping: Int64((degrees * 1e7).rounded())))
            for k in 0..<4 { out.append(UInt8(truncatingIfNeeded: v >> (8 * UInt32(k)))) }
        }
        for v in [
            rootOffset, rootLength, metadataOffset, metadataLength, leavesOffset, leavesLength,
            dataOffset, dataLength, addressedTiles, tileEntries, tileContents
        ] { u64(v) }
        // Clustered; gzip directories and metadata; gzip tiles; MVT.
        out += [clustered ? 1 : 0, 2, 2, 1, UInt8(minZoom), UInt8(maxZoom)]
        e7(bounds.0); e7(bounds.1); e7(bounds.2); e7(bounds.3)
        out.append(UInt8(centreZoom))
        e7(centre.longitude); e7(centre.latitude)
        return out
    }
}
