import Foundation
import HeatMapContouring
import HeatMapCore
import HeatMapDensity

/// The Adler-32 checksum of zlib streams (RFC 1950; docs/formats.md).
enum Adler32 {
    static func checksum(_ data: UnsafeBufferPointer<UInt8>) -> UInt32 {
        var a: UInt32 = 1, b: UInt32 = 0
        var i = 0
        let n = data.count
        while i < n {
            // 5552 bytes is the most that cannot overflow 32 bits before the modulo.
            let end = min(i + 5552, n)
            while i < end { a &+= UInt32(data[i]); b &+= a; i += 1 }
            a %= 65521; b %= 65521
        }
        return (b << 16) | a
    }
}
