import HeatMapContouring
import HeatMapCore
import HeatMapDensity

/// A gzip member (RFC 1952) around our own DEFLATE stream, as PMTiles
/// stores tiles and directories and as browsers and readers inflate them.
enum Gzip {
    /// `data` compressed: the 10-byte header (no name, no time), the
    /// DEFLATE stream, CRC-32 and length. O(n).
    static func compress(_ data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]
        data.withUnsafeBufferPointer { out.append(contentsOf: DeflateEncoder.deflate($0)) }
        let crc = CRC32.checksum(data)
        let size = UInt32(truncatingIfNeeded: data.count)
        for v in [crc, size] {
            for k in 0..<4 { out.append(UInt8(truncatingIfNeeded: v >> (8 * UInt32(k)))) }
        }
        return out
    }
}

/// CRC-32 (the IEEE polynomial, reflected), as gzip ends each member with.
enum CRC32 {
    private static let table: [UInt32] = (0..<256).map { n in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }

    /// The CRC-32 of `data`. O(n).
    static func checksum(_ data: [UInt8]) -> UInt32 {
        var c: UInt32 = 0xFFFF_FFFF
        table.withUnsafeBufferPointer { t in
            for b in data { c = t[Int((c ^ UInt32(b)) & 0xff)] ^ (c >> 8) }
        }
        return c ^ 0xFFFF_FFFF
    }
}
