import Foundation
import HeatMapContouring
import HeatMapCore
import HeatMapDensity

extension H3Cell {
    /// The cell of every point at one resolution, on all cores: `out[i]` is
    /// the index of (latitudes[i], longitudes[i]) in degrees, or 0 where a
    /// coordinate is not finite. O(n · resolution); the result does not
    /// depend on the thread count.
    /// - Precondition: the two arrays have the same length; resolution in 0...15.
    public static func indexes(latitudes: [Double], longitudes: [Double], resolution: Int) -> [UInt64] {
        precondition(latitudes.count == longitudes.count, "latitudes and longitudes differ in length")
        precondition((0...maximumResolution).contains(resolution), "H3 resolution must be 0...15")
        let n = latitudes.count
        var out = [UInt64](repeating: 0, count: n)
        let chunk = 16_384
        let chunks = (n + chunk - 1) / chunk
        latitudes.withUnsafeBufferPointer { lat in
            longitudes.withUnsafeBufferPointer { lon in
                out.withUnsafeMutableBufferPointer { dst in
                    let target = UncheckedSendable((lat, lon, dst))
                    Parallel.forEach(chunks) { c in
                        let (lat, lon, dst) = target.value
                        for i in (c * chunk)..<min(n, (c + 1) * chunk) {
                            let a = lat[i], b = lon[i]
                            guard a.isFinite, b.isFinite else { continue }
                            dst[i] =
                                H3Encoding.index(
                                    lat: H3Constants.radians(a), lon: H3Constants.radians(b),
                                    resolution: resolution) ?? 0
                        }
                    }
                }
            }
        }
        return out
    }
}
