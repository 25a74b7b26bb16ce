import Foundation
import HeatMapCore
import HeatMapDensity

/// How far an item strays from one diagonal of its box: every position of
/// the item lies within `low ... high` (in position units) along the
/// normal of the diagonal, the direction turned a quarter
/// counter-clockwise. The diagonal runs along `(dx, dy)` from the box's
/// lower-left corner to its upper-right one when `dy ≥ 0`, from its
/// upper-left corner to its lower-right one otherwise. With the box, that
/// makes a rectangle turned along the diagonal around the item: for a
/// piece of contour that runs from one corner of its box to the other, a
/// thin one where the box is wide.
///
/// Two such rectangles that a line separates hold no two positions that
/// meet. The test tries the two diagonals' normals (of the four axes the
/// separating axis theorem names for two rectangles, the two along the
/// diagonals rarely separate boxes that overlap). Contour lines of
/// neighbouring levels run side by side, and their pieces' boxes overlap
/// wherever they run slantwise; their rectangles mostly do not: of the
/// pairs of pieces whose boxes overlap, about half in a smoothed export
/// and three in five in a noisy one are settled here (docs/performance.md).
///
/// The direction and sizes are floats, used as they are both to measure
/// the slab and to test it (so the rectangle holds the item whatever
/// their rounding); the test keeps a margin far above the doubles'
/// rounding of the offsets. 20 bytes.
struct DiagonalSlab {
    /// The diagonal's direction (`dx ≥ 0`), about a unit vector.
    var dx: Float, dy: Float
    /// The diagonal's length along `(dx, dy)`, rounded up.
    var length: Float
    var low: Float, high: Float

    /// No bound: never separates.
    static let unbounded = DiagonalSlab(dx: 1, dy: 0, length: 0, low: -.infinity, high: .infinity)

    /// The slab of the positions `first ... last` of `ring` (index
    /// `ring.count` standing for 0), all inside `box`, about the box's
    /// diagonal from its lower-left corner (`rising`) or from its
    /// upper-left one, rounded outward. O(positions).
    @inline(__always)
    init(_ ring: UnsafeBufferPointer<FixedPoint>, _ first: Int, _ last: Int, box: FixedBox, rising: Bool) {
        let w = Double(box.maxX - box.minX), h = Double(box.maxY - box.minY)
        let squared = w * w + h * h
        guard squared > 0 else {
            self = .unbounded
            return
        }
        let length = squared.squareRoot(), inverse = 1 / length
        let dx = Float(w * inverse), dy = Float((rising ? h : -h) * inverse)
        let (ox, oy) = Self.origin(box, rising: rising)
        let ux = Double(dx), uy = Double(dy)
        var low = 0.0, high = 0.0
        // The ends lie on the diagonal (offset 0, up to the direction's
        // rounding, which the slack covers): only the positions between.
        // (Below `last`, which is at most the ring's size, an index needs
        // no wrapping; differences of coordinates below 2^53 cannot
        // overflow.)
        var i = first &+ 1
        while i < last {
            let p = ring[i]
            let s = ux * Double(p.y &- oy) - uy * Double(p.x &- ox)
            // Plain comparisons, not min and max, which order NaNs too
            // (none arise: the offsets are finite).
            if s < low { low = s }
            if s > high { high = s }
            i &+= 1
        }
        // The offsets' rounding, the direction's (a float's step, times
        // the box's size) and the floats' step, outward; the length
        // covers the box's projection on a direction a float's rounding
        // away from the diagonal's.
        let slack = 1e-6 * (w + h) + 1e-6
        self.init(
            dx: dx, dy: dy, length: Float(length * (1 + 1e-6)).nextUp,
            low: Float(low - slack).nextDown, high: Float(high + slack).nextUp)
    }

    init(dx: Float, dy: Float, length: Float, low: Float, high: Float) {
        (self.dx, self.dy, self.length, self.low, self.high) = (dx, dy, length, low, high)
    }

    @inline(__always) private static func origin(_ box: FixedBox, rising: Bool) -> (Int64, Int64) {
        (box.minX, rising ? box.minY : box.maxY)
    }

    /// Whether the items of boxes `a` and `b` with slabs `sa` and `sb`
    /// surely hold no two positions that meet: one's rectangle lies wholly
    /// on one side of the other's slab, by a margin. O(1), a few dozen
    /// floating-point operations.
    @inline(__always) static func apart(_ a: FixedBox, _ sa: DiagonalSlab, _ b: FixedBox, _ sb: DiagonalSlab) -> Bool {
        guard sa.low.isFinite, sb.low.isFinite else { return false }
        let (ax, ay) = origin(a, rising: sa.dy >= 0), (bx, by) = origin(b, rising: sb.dy >= 0)
        let ox = Double(bx - ax), oy = Double(by - ay)
        let adx = Double(sa.dx), ady = Double(sa.dy), bdx = Double(sb.dx), bdy = Double(sb.dy)
        let la = Double(sa.length), lb = Double(sb.length)
        // b's direction across a's diagonal, and the normals' dot product.
        let turn = adx * bdy - ady * bdx, dot = adx * bdx + ady * bdy
        let margin =
            1e-6 * (abs(ox) + abs(oy) + la + lb + Double(sa.high - sa.low) + Double(sb.high - sb.low)) + 1e-3
        // b's rectangle across a's diagonal, then a's across b's (its
        // origin is −(ox, oy) from b's).
        return lies(sb, at: adx * oy - ady * ox, along: turn * lb, dot: dot, outside: sa, margin: margin)
            || lies(sa, at: bdy * ox - bdx * oy, along: -turn * la, dot: dot, outside: sb, margin: margin)
    }

    /// Whether a rectangle lies wholly outside the slab `other` by more than
    /// `margin`: the rectangle's origin at offset `base` across the other's
    /// diagonal, its diagonal (t in 0...length) adding `along` at its end,
    /// its slab (s in low...high) adding s × `dot`, the normals' dot product.
    @inline(__always) private static func lies(
        _ slab: DiagonalSlab, at base: Double, along: Double, dot: Double, outside other: DiagonalSlab,
        margin: Double
    ) -> Bool {
        let l = Double(slab.low) * dot, h = Double(slab.high) * dot
        let lowest = base + min(0, along) + min(l, h), highest = base + max(0, along) + max(l, h)
        return highest < Double(other.low) - margin || lowest > Double(other.high) + margin
    }
}
