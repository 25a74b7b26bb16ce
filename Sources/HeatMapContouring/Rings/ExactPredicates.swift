import Foundation
import HeatMapCore
import HeatMapDensity

/// Exact geometric predicates on integer positions (|coordinate| < 2^53,
/// products in Int128).
package enum ExactPredicates {
    /// Sign of the turn a → b → c: 1 left (counter-clockwise), −1 right, 0 collinear.
    @inline(__always) package static func orient(_ a: FixedPoint, _ b: FixedPoint, _ c: FixedPoint) -> Int {
        let v = cross(b.x &- a.x, b.y &- a.y, c.x &- a.x, c.y &- a.y)
        return v > 0 ? 1 : (v < 0 ? -1 : 0)
    }

    // Coordinates below 2^53 in magnitude make differences below 2^54,
    // exact in Int64 without a check; their products are below 2^108 and a
    // sum or difference of two below 2^109, exact in Int128 without one.
    // The 128-bit products cost a few instructions more than 64-bit ones,
    // fewer than deciding whether the 64-bit ones would do (for lon/lat on
    // the 10^13 grid they never do).
    @inline(__always) package static func cross(_ ux: Int64, _ uy: Int64, _ vx: Int64, _ vy: Int64) -> Int128 {
        (Int128(ux) &* Int128(vy)) &- (Int128(uy) &* Int128(vx))
    }

    @inline(__always) package static func dot(_ ux: Int64, _ uy: Int64, _ vx: Int64, _ vy: Int64) -> Int128 {
        (Int128(ux) &* Int128(vx)) &+ (Int128(uy) &* Int128(vy))
    }

    /// Whether the ring turns straight back at b (a → b → c retraces itself).
    @inline(__always) static func isSpike(_ a: FixedPoint, _ b: FixedPoint, _ c: FixedPoint) -> Bool {
        if a == c { return true }
        let ux = a.x &- b.x, uy = a.y &- b.y, vx = c.x &- b.x, vy = c.y &- b.y
        return cross(ux, uy, vx, vy) == 0 && dot(ux, uy, vx, vy) > 0
    }

    /// How two segments meet.
    enum Contact: Equatable {
        case none
        /// They share exactly this one point.
        case point(FixedPoint)
        /// They share a piece of positive length.
        case overlap
        /// They cross at a point inside both.
        case cross
    }

    @inline(__always) static func between(_ p: FixedPoint, _ a: FixedPoint, _ b: FixedPoint) -> Bool {
        p.x >= min(a.x, b.x) && p.x <= max(a.x, b.x) && p.y >= min(a.y, b.y) && p.y <= max(a.y, b.y)
    }

    /// The contact of segments p1p2 and p3p4 (each of positive length).
    static func contact(_ p1: FixedPoint, _ p2: FixedPoint, _ p3: FixedPoint, _ p4: FixedPoint) -> Contact {
        // Both ends of one segment strictly on one side of the other's
        // line: no contact (a point of a segment on that line would put
        // its ends on opposite sides, or one on it). Most pairs end here,
        // after two of the four turns.
        let d1 = orient(p3, p4, p1), d2 = orient(p3, p4, p2)
        if d1 * d2 > 0 { return .none }
        let d3 = orient(p1, p2, p3), d4 = orient(p1, p2, p4)
        if d3 * d4 > 0 { return .none }
        if d1 * d2 < 0 && d3 * d4 < 0 { return .cross }
        if d1 == 0 && d2 == 0 {
            // Collinear: compare along the longer axis.
            let useX = abs(p1.x - p2.x) >= abs(p1.y - p2.y)
            let a0 = useX ? min(p1.x, p2.x) : min(p1.y, p2.y), a1 = useX ? max(p1.x, p2.x) : max(p1.y, p2.y)
            let b0 = useX ? min(p3.x, p4.x) : min(p3.y, p4.y), b1 = useX ? max(p3.x, p4.x) : max(p3.y, p4.y)
            let lo = max(a0, b0), hi = min(a1, b1)
            if lo < hi { return .overlap }
            if lo > hi { return .none }
            for p in [p1, p2] where p == p3 || p == p4 { return .point(p) }
            return .none
        }
        if d1 == 0 && between(p1, p3, p4) { return .point(p1) }
        if d2 == 0 && between(p2, p3, p4) { return .point(p2) }
        if d3 == 0 && between(p3, p1, p2) { return .point(p3) }
        if d4 == 0 && between(p4, p1, p2) { return .point(p4) }
        return .none
    }

    /// Whether direction v lies strictly inside the angle swept
    /// counter-clockwise from a1 to a2 (all vectors from one point).
    static func strictlyInside(_ v: (Int64, Int64), from a1: (Int64, Int64), to a2: (Int64, Int64)) -> Bool {
        let c12 = cross(a1.0, a1.1, a2.0, a2.1)
        if c12 > 0 {
            return cross(a1.0, a1.1, v.0, v.1) > 0 && cross(v.0, v.1, a2.0, a2.1) > 0
        }
        if c12 < 0 {
            return !(cross(a2.0, a2.1, v.0, v.1) >= 0 && cross(v.0, v.1, a1.0, a1.1) >= 0)
        }
        if dot(a1.0, a1.1, a2.0, a2.1) > 0 { return false }
        return cross(a1.0, a1.1, v.0, v.1) > 0
    }

    /// Whether two rings that meet at one point cross there: ring A leaves
    /// the point along a1 and a2, ring B along b1 and b2, and B has a
    /// direction on each side of A.
    static func ringsCross(a1: (Int64, Int64), a2: (Int64, Int64), b1: (Int64, Int64), b2: (Int64, Int64)) -> Bool {
        strictlyInside(b1, from: a1, to: a2) != strictlyInside(b2, from: a1, to: a2)
    }
}
