import HeatMapCore
import HeatMapDensity

/// A conservative test of whether two segments share any point.
///
/// Orientation signs come from the 2×2 determinant with a forward error
/// bound (Shewchuk's first filter): a sign inside the bound is treated as
/// zero, i.e. as "maybe touching". So the test may report a meeting that
/// exact arithmetic would deny, never the reverse — safe for deciding
/// whether smoothing broke validity.
enum SegmentIntersection {
    /// −1, 0 or +1: the side of c relative to the directed line a→b, 0 when
    /// the sign is not certain.
    @inline(__always) package static func orientation(
        _ ax: Double, _ ay: Double, _ bx: Double, _ by: Double,
        _ cx: Double, _ cy: Double
    ) -> Int {
        let l = (ax - cx) * (by - cy)
        let r = (ay - cy) * (bx - cx)
        let det = l - r
        let bound = 3.3306690738754716e-16 * (abs(l) + abs(r))
        if det > bound { return 1 }
        if det < -bound { return -1 }
        return 0
    }

    /// Whether segments p1p2 and p3p4 may intersect or touch.
    @inline(__always) static func mayMeet(
        _ p1x: Double, _ p1y: Double, _ p2x: Double, _ p2y: Double,
        _ p3x: Double, _ p3y: Double, _ p4x: Double, _ p4y: Double
    ) -> Bool {
        // Disjoint boxes cannot meet.
        if max(p1x, p2x) < min(p3x, p4x) || max(p3x, p4x) < min(p1x, p2x) { return false }
        if max(p1y, p2y) < min(p3y, p4y) || max(p3y, p4y) < min(p1y, p2y) { return false }
        let d1 = orientation(p3x, p3y, p4x, p4y, p1x, p1y)
        let d2 = orientation(p3x, p3y, p4x, p4y, p2x, p2y)
        if d1 != 0 && d1 == d2 { return false }
        let d3 = orientation(p1x, p1y, p2x, p2y, p3x, p3y)
        let d4 = orientation(p1x, p1y, p2x, p2y, p4x, p4y)
        if d3 != 0 && d3 == d4 { return false }
        // Proper crossing, touching, collinear overlap or uncertain: with
        // overlapping boxes all of these count as meeting.
        return true
    }
}
