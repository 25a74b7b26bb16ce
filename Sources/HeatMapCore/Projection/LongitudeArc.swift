import Foundation

/// The smallest arc of longitudes that holds a set of longitudes.
///
/// Data that straddles ±180° (Fiji, the Aleutians) gets an arc across the
/// antimeridian instead of one spanning the whole world, so its centre lies
/// inside the cluster.
package struct LongitudeArc: Sendable, Hashable {
    /// Western end, degrees in [-180, 180).
    package var west: Double
    /// Width in degrees, 0...360; `west + width` may exceed 180.
    package var width: Double

    /// The arc's middle, degrees in [-180, 180).
    package var centre: Double { LongitudeArc.normalized(west + width / 2) }

    /// Wraps any longitude into [-180, 180).
    package static func normalized(_ longitude: Double) -> Double {
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

    /// The smallest arc holding every finite longitude: the complement of
    /// the widest gap between neighbours on the circle (the wrap-round gap
    /// first, then the gaps in ascending order, replaced only by a strictly
    /// wider one), exact whenever that gap is at least 0.1°; longitudes all
    /// round the globe, with no gap that wide, give the whole circle from
    /// −180°. O(n) time, O(1) memory; nil for none.
    package static func smallest<S: Sequence>(containing longitudes: S) -> LongitudeArc? where S.Element == Double {
        var bins = LongitudeBins()
        for l in longitudes where l.isFinite { bins.add(l) }
        return bins.smallestArc()
    }
}
