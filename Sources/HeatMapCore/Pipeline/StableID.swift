import Foundation

/// Deterministic UUIDs for polygons, so that the same input gives the same
/// ids (and equal results) on every run.
package enum StableID {
    /// A version-8 style UUID from an FNV-1a hash of the level, the index
    /// within the level and the exterior's vertices.
    package static func make(level: Int, index: Int, polygon: PlanePolygon) -> UUID {
        var h1: UInt64 = 0xcbf2_9ce4_8422_2325
        var h2: UInt64 = 0x8422_2325_cbf2_9ce4
        func mix(_ v: UInt64) {
            h1 = (h1 ^ v) &* 0x0000_0100_0000_01b3
            h2 = (h2 ^ (v &* 0x9e37_79b9_7f4a_7c15)) &* 0x0000_0100_0000_01b3
        }
        mix(UInt64(bitPattern: Int64(level)))
        mix(UInt64(bitPattern: Int64(index)))
        mix(UInt64(polygon.exterior.count))
        for p in polygon.exterior.prefix(64) {
            mix(p.x.bitPattern)
            mix(p.y.bitPattern)
        }
        var bytes = [UInt8](repeating: 0, count: 16)
        for i in 0..<8 {
            bytes[i] = UInt8(truncatingIfNeeded: h1 >> (8 * UInt64(i)))
            bytes[8 + i] = UInt8(truncatingIfNeeded: h2 >> (8 * UInt64(i)))
        }
        bytes[6] = (bytes[6] & 0x0f) | 0x80
        bytes[8] = (bytes[8] & 0x3f) | 0x80
        return UUID(
            uuid: (
                bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
            ))
    }
}
