import Foundation

/// The smallest arc of longitudes that holds a set of longitudes.
///
/// Data that straddles ±180° (Fiji, the Aleutians) gets an arc across the
/// antimeridian instead of one spanning the whole world, so its centre lies
/// inside the cluster.
public struct LongitudeArc: Sendable, Hashable {
    /// Western end, degrees in [-180, 180).
    public var west: Double
    /// Width in degrees, 0...360; `west + width` may exceed 180.
    public var width: Double

    /// The arc's middle, degrees in [-180, 180).
    public var centre: Double { LongitudeArc.normalized(west + width / 2) }

    /// Wraps any longitude into [-180, 180).
    public static func normalized(_ longitude: Double) -> Double {
        // fmod's exact result, without fmod (it costs more than the rest of
        // a point when reading millions) for |x| < 3600: each step
        // subtracts 360 exactly (a multiple of the ulp of any |x| < 2^55),
        // so the steps end where fmod does.
        var l = longitude
        if abs(l) < 3600 {
            while l >= 360 { l -= 360 }
            while l <= -360 { l += 360 }
            // fmod keeps the sign of a zero: −720 gives −0.
            if l == 0 && longitude < 0 { l = -0.0 }
        } else {
            l = l.truncatingRemainder(dividingBy: 360)
        }
        if l < -180 { l += 360 }
        if l >= 180 { l -= 360 }
        return l
    }

    /// The smallest arc holding every longitude: the complement of the
    /// widest gap between neighbours on the circle. O(n log n); nil for none.
    public static func smallest<S: Sequence>(containing longitudes: S) -> LongitudeArc? where S.Element == Double {
        let sorted = longitudes.filter(\.isFinite).map(normalized).sorted()
        guard let first = sorted.first, let last = sorted.last else { return nil }
        // The gap that wraps from the last longitude round to the first.
        var widestGap = first + 360 - last
        var west = first
        for i in 1..<max(sorted.count, 1) where sorted.count > 1 {
            let gap = sorted[i] - sorted[i - 1]
            if gap > widestGap {
                widestGap = gap
                west = sorted[i]
            }
        }
        return LongitudeArc(west: west, width: 360 - widestGap)
    }
}
