import HeatMapContouring
import HeatMapCore
import HeatMapDensity

/// PMTiles tile ids: tiles of all lower zooms counted first
/// ((4^z − 1) / 3 of them), then the tile's position on the Hilbert curve
/// that fills its zoom's 2^z × 2^z square.
///
/// An aligned square of 2^k × 2^k tiles is one stretch of the curve, which
/// is why a writer that goes block by block can still write in id order.
enum HilbertTileID {
    /// The id of tile z/x/y (x, y in 0..<2^z, z ≤ 26). O(z).
    static func id(z: Int, x: Int, y: Int) -> UInt64 {
        var base: UInt64 = 0
        for k in 0..<z { base += UInt64(1) << (2 * k) }
        var x = UInt64(x), y = UInt64(y)
        let n = UInt64(1) << UInt64(z)
        var d: UInt64 = 0
        var s = n >> 1
        while s > 0 {
            let rx: UInt64 = x & s > 0 ? 1 : 0
            let ry: UInt64 = y & s > 0 ? 1 : 0
            d += s * s * ((3 * rx) ^ ry)
            // Rotate the quadrant so the curve inside it runs the right way.
            if ry == 0 {
                if rx == 1 {
                    x = n - 1 - x
                    y = n - 1 - y
                }
                swap(&x, &y)
            }
            s >>= 1
        }
        return base + d
    }

    /// The tile of an id: the inverse of ``id(z:x:y:)``. O(z).
    static func tile(_ id: UInt64) -> (z: Int, x: Int, y: Int) {
        var z = 0, base: UInt64 = 0
        while id >= base + (UInt64(1) << (2 * UInt64(z))) {
            base += UInt64(1) << (2 * UInt64(z))
            z += 1
        }
        var t = id - base
        var x: UInt64 = 0, y: UInt64 = 0
        var s: UInt64 = 1
        let n = UInt64(1) << UInt64(z)
        while s < n {
            let rx = 1 & (t / 2)
            let ry = 1 & (t ^ rx)
            if ry == 0 {
                if rx == 1 {
                    x = s - 1 - x
                    y = s - 1 - y
                }
                swap(&x, &y)
            }
            x += s * rx
            y += s * ry
            t /= 4
            s *= 2
        }
        return (z, Int(x), Int(y))
    }
}
