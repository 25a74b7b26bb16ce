import Foundation

/// What one pass over the points learns, in O(1) memory (plus a fixed
/// 3600-bin longitude table): enough to fit the projection and the
/// `auto` radius before a second pass projects and accumulates.
package struct InputStatistics: Sendable {
    /// Points counted.
    package private(set) var count = 0
    /// Smallest and largest latitude (planar y).
    package private(set) var minLatitude = Double.infinity, maxLatitude = -Double.infinity
    /// Smallest and largest longitude as given (planar x).
    package private(set) var minLongitude = Double.infinity, maxLongitude = -Double.infinity
    /// Σ weight.
    package private(set) var totalWeight = 0.0
    /// Points with a weight above zero.
    package private(set) var weightedCount = 0
    /// Smallest and largest value (mean estimator); ±infinity when none.
    package private(set) var minValue = Double.infinity, maxValue = -Double.infinity
    private var firstLatitude = Double.nan, firstLongitude = Double.nan
    /// Whether every point has the same coordinate (true for 0 or 1 points).
    package private(set) var allIdentical = true
    private var bins = LongitudeBins()

    /// Empty statistics.
    package init() {}

    /// Counts one point.
    @inline(__always)
    package mutating func add(_ p: InputPoint) {
        count += 1
        minLatitude = min(minLatitude, p.latitude); maxLatitude = max(maxLatitude, p.latitude)
        minLongitude = min(minLongitude, p.longitude); maxLongitude = max(maxLongitude, p.longitude)
        totalWeight += p.weight
        if p.weight > 0 { weightedCount += 1 }
        if !p.value.isNaN {
            minValue = min(minValue, p.value); maxValue = max(maxValue, p.value)
        }
        if count == 1 {
            firstLatitude = p.latitude
            firstLongitude = p.longitude
        } else if allIdentical && (firstLatitude != p.latitude || firstLongitude != p.longitude) {
            allIdentical = false
        }
        bins.add(p.longitude)
    }

    /// The smallest longitude arc holding every point (the same arc as
    /// ``LongitudeArc/smallest(containing:)`` whenever the widest gap
    /// between neighbouring longitudes is at least 0.1°, which is all
    /// data not spread round the whole globe); nil when empty.
    package var longitudeArc: LongitudeArc? { bins.smallestArc() }

    /// The projection of `kind` centred as ``PlaneProjection/fitted(_:to:)``
    /// centres it: the middle of the latitudes and of the smallest arc.
    package func projection(_ kind: MapProjection) -> PlaneProjection {
        guard kind != .planar else { return PlaneProjection(kind: .planar) }
        guard count > 0, let arc = longitudeArc else { return PlaneProjection(kind: kind) }
        return PlaneProjection(kind: kind, centreLatitude: (minLatitude + maxLatitude) / 2,
                               centreLongitude: arc.centre)
    }
}

/// Per 0.1° of longitude, the smallest and largest longitude seen, so the
/// widest empty gap round the circle can be found without keeping the points.
struct LongitudeBins: Sendable, Hashable {
    static let count = 3600
    private var low: [Double] = []
    private var high: [Double] = []

    @inline(__always)
    mutating func add(_ longitude: Double) {
        if low.isEmpty {
            low = Array(repeating: .infinity, count: LongitudeBins.count)
            high = Array(repeating: -.infinity, count: LongitudeBins.count)
        }
        let l = LongitudeArc.normalized(longitude)
        let k = min(max(Int((l + 180) * 10), 0), LongitudeBins.count - 1)
        if l < low[k] { low[k] = l }
        if l > high[k] { high[k] = l }
    }

    /// The complement of the widest gap between neighbouring longitudes,
    /// with the tie-breaking of ``LongitudeArc/smallest(containing:)``
    /// (the wrap-round gap first, then gaps in ascending order).
    func smallestArc() -> LongitudeArc? {
        guard let firstBin = low.firstIndex(where: { $0.isFinite }),
              let lastBin = high.lastIndex(where: { $0.isFinite }) else { return nil }
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
}
