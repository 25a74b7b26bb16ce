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

    /// The smallest arc holding every longitude: the complement of the
    /// widest gap between neighbours on the circle (the wrap-round gap
    /// first, then the gaps in ascending order, replaced only by a strictly
    /// wider one). O(n); nil for none.
    package static func smallest<S: Sequence>(containing longitudes: S) -> LongitudeArc? where S.Element == Double {
        let finite = longitudes.filter(\.isFinite)
        return finite.withUnsafeBufferPointer { smallest(finite: $0) }
    }

    /// The smallest arc holding `longitudes`, every one finite. O(n), in
    /// buckets that keep their extremes rather than by sorting: a gap inside
    /// a bucket is narrower than the bucket, so once the widest gap between
    /// buckets is wider than two buckets, it is the widest gap of all. 4096
    /// buckets settle it unless the data circles the globe; then 1.25 n
    /// buckets do, as some gap is at least (hi − lo) / (n − 1).
    static func smallest(finite longitudes: UnsafeBufferPointer<Double>) -> LongitudeArc? {
        guard !longitudes.isEmpty else { return nil }
        var lo = Double.infinity, hi = -Double.infinity
        for l in longitudes {
            let v = normalized(l)
            if v < lo { lo = v }
            if v > hi { hi = v }
        }
        guard hi > lo else { return LongitudeArc(west: lo, width: 0) }
        let fine = longitudes.count + longitudes.count / 4 + 1
        if fine > 4096, let arc = widestGap(longitudes, lo: lo, hi: hi, buckets: 4096, settled: false) { return arc }
        return widestGap(longitudes, lo: lo, hi: hi, buckets: max(fine, 2), settled: true)
    }

    /// The arc left by the widest gap between `buckets` buckets over
    /// [lo, hi], or nil when a gap inside a bucket might be wider (unless
    /// `settled`).
    private static func widestGap(_ longitudes: UnsafeBufferPointer<Double>, lo: Double, hi: Double, buckets: Int,
                                  settled: Bool) -> LongitudeArc? {
        var low = [Double](repeating: .infinity, count: buckets)
        var high = [Double](repeating: -.infinity, count: buckets)
        let scale = Double(buckets) / (hi - lo)
        for l in longitudes {
            let v = normalized(l)
            let k = min(Int((v - lo) * scale), buckets - 1)
            if v < low[k] { low[k] = v }
            if v > high[k] { high[k] = v }
        }
        var widest = lo + 360 - hi
        var west = lo
        var previous = high[0]
        for k in 1..<buckets where low[k] <= high[k] {
            let gap = low[k] - previous
            if gap > widest {
                widest = gap
                west = low[k]
            }
            previous = high[k]
        }
        guard settled || widest > 2 * (hi - lo) / Double(buckets) else { return nil }
        return LongitudeArc(west: west, width: 360 - widest)
    }
}
