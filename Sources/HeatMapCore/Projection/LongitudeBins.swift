import Foundation

/// The rule for the smallest longitude arc holding a set of longitudes,
/// fed one longitude at a time in O(1) memory: per 0.1° of longitude, the
/// smallest and largest longitude seen.
///
/// The arc is the complement of the widest gap between neighbouring
/// longitudes round the circle (the wrap-round gap first, then the gaps in
/// ascending order, replaced only by a strictly wider one). A gap inside
/// a bin is narrower than 0.1°, so whenever the widest gap is at least
/// 0.1° it lies between bins and the arc is exact. When every gap is
/// narrower, the longitudes go all round the globe and the arc is the
/// whole circle from −180°. Every arc in the package (``LongitudeArc``,
/// ``InputStatistics``, ``ProjectionFitter``, ``PlaneProjection/fitted(_:to:)``,
/// the point preparation of ``HeatMapContours``) comes from here, and the
/// database engines' statements restate it.
package struct LongitudeBins: Sendable, Hashable {
    package static let count = 3600
    private var low: [Double] = []
    private var high: [Double] = []

    /// Takes one finite longitude (any value; wrapped to [-180, 180)). O(1).
    @inline(__always)
    package mutating func add(_ longitude: Double) {
        if low.isEmpty {
            low = Array(repeating: .infinity, count: LongitudeBins.count)
            high = Array(repeating: -.infinity, count: LongitudeBins.count)
        }
        let l = LongitudeArc.normalized(longitude)
        let k = LongitudeBins.bin(of: l)
        if l < low[k] { low[k] = l }
        if l > high[k] { high[k] = l }
    }

    /// The bin of a longitude in [-180, 180).
    @inline(__always)
    private static func bin(of l: Double) -> Int { min(max(Int((l + 180) * 10), 0), count - 1) }

    /// Takes many finite longitudes at once: ``add(_:)`` for each, in one
    /// loop over the two tables. O(n).
    package mutating func add(contentsOf longitudes: UnsafeBufferPointer<Double>) {
        guard let first = longitudes.first else { return }
        add(first)
        low.withUnsafeMutableBufferPointer { low in
            high.withUnsafeMutableBufferPointer { high in
                for l in longitudes.dropFirst() {
                    let l = LongitudeArc.normalized(l)
                    let k = LongitudeBins.bin(of: l)
                    if l < low[k] { low[k] = l }
                    if l > high[k] { high[k] = l }
                }
            }
        }
    }

    /// Takes in the longitudes another set of bins took: each bin's
    /// extremes, so bins filled in parts and merged are the bins of the
    /// whole, in any order. O(bins).
    package mutating func merge(_ other: LongitudeBins) {
        guard !other.low.isEmpty else { return }
        guard !low.isEmpty else {
            self = other
            return
        }
        for k in 0..<LongitudeBins.count {
            low[k] = min(low[k], other.low[k])
            high[k] = max(high[k], other.high[k])
        }
    }

    /// The smallest arc holding every longitude added (see the type's
    /// notes); nil when none was. O(bins).
    package func smallestArc() -> LongitudeArc? {
        guard let firstBin = low.firstIndex(where: { $0.isFinite }),
            let lastBin = high.lastIndex(where: { $0.isFinite })
        else { return nil }
        let first = low[firstBin], last = high[lastBin]
        var widestGap = first + 360 - last
        var west = first
        var previous = high[firstBin]
        for k in (firstBin + 1)..<max(lastBin + 1, firstBin + 1) where low[k].isFinite {
            let gap = low[k] - previous
            if gap > widestGap {
                widestGap = gap
                west = low[k]
            }
            previous = high[k]
        }
        if widestGap < 0.1 {
            // Longitudes all round the globe: gaps inside bins are unknown,
            // and the arc is (within 0.1°) the whole circle.
            return LongitudeArc(west: -180, width: 360)
        }
        return LongitudeArc(west: west, width: 360 - widestGap)
    }

    package init() {}
}
