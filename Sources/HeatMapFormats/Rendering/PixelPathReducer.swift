import Foundation
import HeatMapContouring
import HeatMapCore
import HeatMapDensity

/// Reduces a polyline or ring to what a picture can show: every point is
/// snapped to a grid of `step` pixels, then repeated points and points in
/// the middle of a straight run are dropped.
///
/// Each decision depends only on the snapped points themselves, and a
/// straight run collapses to its two ends whichever way it is walked, so
/// two bands that share a boundary still share it exactly after
/// reduction: no slivers open between neighbours. O(points).
struct PixelPathReducer {
    /// The snapping grid in pixels (a fraction of a pixel).
    package let step: Double

    /// Snapped grid indices of the points, reduced.
    package func reduce(_ points: [(x: Double, y: Double)], closed: Bool) -> [(x: Double, y: Double)] {
        var keys: [(Int64, Int64)] = []
        keys.reserveCapacity(points.count)
        let inverse = 1 / step
        for p in points {
            guard p.x.isFinite, p.y.isFinite else { continue }
            let k = (
                Int64((min(max(p.x, -1e9), 1e9) * inverse).rounded()),
                Int64((min(max(p.y, -1e9), 1e9) * inverse).rounded())
            )
            if let last = keys.last, last == k { continue }
            keys.append(k)
        }
        if closed, keys.count > 1, keys[0] == keys[keys.count - 1] { keys.removeLast() }
        var kept: [(Int64, Int64)] = []
        kept.reserveCapacity(keys.count)
        for k in keys {
            while kept.count >= 2, Self.isBetween(kept[kept.count - 2], kept[kept.count - 1], k) { kept.removeLast() }
            kept.append(k)
        }
        if closed {
            // The seam of a ring: its first and last points are neighbours too.
            while kept.count >= 3, Self.isBetween(kept[kept.count - 2], kept[kept.count - 1], kept[0]) {
                kept.removeLast()
            }
            while kept.count >= 3, Self.isBetween(kept[kept.count - 1], kept[0], kept[1]) { kept.removeFirst() }
        }
        return kept.map { (Double($0.0) * step, Double($0.1) * step) }
    }

    /// Whether b lies on the segment a–c, strictly inside it.
    static func isBetween(_ a: (Int64, Int64), _ b: (Int64, Int64), _ c: (Int64, Int64)) -> Bool {
        let abx = b.0 - a.0, aby = b.1 - a.1, bcx = c.0 - b.0, bcy = c.1 - b.1
        return abx * bcy - aby * bcx == 0 && abx * bcx + aby * bcy > 0
    }
}
