import HeatMapCore
import HeatMapDensity

/// A piece after at most ``Chaikin/alwaysMade`` uniform passes, a stretch
/// at a time: what the guard reads near a hot cell, without smoothing the
/// whole piece. Each vertex comes from the traced positions through the
/// very operations of ``Chaikin``'s passes, so it is the Double the
/// smoothed piece holds.
///
/// A pass makes vertex t of its output from edge ⌊t / 2⌋ of its input, at
/// ¼ for even t and ¾ for odd t; an open path keeps its two ends instead.
struct UniformCut {
    /// The traced positions of the piece.
    let points: UnsafeBufferPointer<PlanePoint>
    let closed: Bool
    /// Passes made: 0 ... ``Chaikin/alwaysMade`` (0 below three vertices).
    let passes: Int
    /// Vertices after the passes.
    let count: Int

    init(points: UnsafeBufferPointer<PlanePoint>, closed: Bool, passes: Int) {
        self.points = points
        self.closed = closed
        self.passes = points.count >= 3 ? min(passes, Chaikin.alwaysMade) : 0
        count = Chaikin.smoothedCount(points.count, closed: closed, iterations: self.passes)
    }

    /// Vertex t of one pass over a polygon of `m` vertices given by `input`.
    @inline(__always) private func cut(_ t: Int, of m: Int, _ input: (Int) -> PlanePoint) -> PlanePoint {
        if !closed {
            if t == 0 { return input(0) }
            if t == 2 * m - 3 { return input(m - 1) }
        }
        let e = t >> 1
        let p = input(e), q = input(e + 1 == m ? 0 : e + 1)
        let ex = q.x - p.x, ey = q.y - p.y
        if t & 1 == 0 { return PlanePoint(x: p.x + 0.25 * ex, y: p.y + 0.25 * ey) }
        return PlanePoint(x: p.x + 0.75 * ex, y: p.y + 0.75 * ey)
    }

    /// Calls `body(t, a, b)` for each edge t of `first ..< last` of the cut
    /// piece, a and b its ends, in order: for a closed piece the indices
    /// may run a turn below 0 or above the end, and wrap. The vertices of
    /// the pass between are carried from edge to edge, each worked out
    /// once. O(last − first).
    @inline(__always) func forEachEdge(_ first: Int, _ last: Int, _ body: (Int, PlanePoint, PlanePoint) -> Void) {
        guard first < last else { return }
        let m = points.count
        // Input vertex i of the first pass, a turn wrapped.
        @inline(__always) func input(_ i: Int) -> PlanePoint { points[i < 0 ? i + m : (i >= m ? i - m : i)] }
        switch passes {
        case 0:
            var a = input(first)
            for t in first..<last {
                let b = input(t + 1)
                body(t, a, b)
                a = b
            }
        case 1:
            walk(first, last, of: m, input, body)
        default:
            let count1 = Chaikin.smoothedCount(m, closed: closed, iterations: 1)
            // Vertex u of the first pass, u within a turn of 0 ..< count1.
            @inline(__always) func once(_ u: Int) -> PlanePoint {
                cut(closed ? (u < 0 ? u + count1 : (u >= count1 ? u - count1 : u)) : u, of: m, input)
            }
            walk(first, last, of: count1, once, body)
        }
    }

    /// The edges `first ..< last` of one pass over a polygon of `m`
    /// vertices, `input(i)` (i raw), carrying the two input vertices of the
    /// edge at hand.
    @inline(__always) private func walk(
        _ first: Int, _ last: Int, of m: Int, _ input: (Int) -> PlanePoint,
        _ body: (Int, PlanePoint, PlanePoint) -> Void
    ) {
        var e = first >> 1
        var p = input(e), q = input(e + 1)
        @inline(__always) func vertex(_ t: Int) -> PlanePoint {
            if !closed {
                if t == 0 { return p }
                if t == 2 * m - 3 { return q }
            }
            let ex = q.x - p.x, ey = q.y - p.y
            if t & 1 == 0 { return PlanePoint(x: p.x + 0.25 * ex, y: p.y + 0.25 * ey) }
            return PlanePoint(x: p.x + 0.75 * ex, y: p.y + 0.75 * ey)
        }
        var a = vertex(first)
        for t in (first + 1)...last {
            if t >> 1 != e {
                e += 1
                (p, q) = (q, input(e + 1))
            }
            let b = vertex(t)
            body(t - 1, a, b)
            a = b
        }
    }

    /// Whether one or two uniform passes over the closed ring `points`
    /// certainly give no two equal consecutive vertices, where every
    /// coordinate is at most `magnitude` in size.
    ///
    /// The edges of the cut ring are, exactly, ¼ eᵢ, ⅛ (eᵢ + eᵢ₊₁),
    /// (3 eᵢ + eᵢ₊₁) / 16 and (eᵢ + 3 eᵢ₊₁) / 16 of the ring's edges eᵢ
    /// (after one pass, ½ eᵢ and ¼ (eᵢ + eᵢ₊₁)); each computed vertex is
    /// within some ten units in the last place of `magnitude` of its exact
    /// place. So where every such sum is 2⁻³⁶ `magnitude` long or more in x
    /// or in y, far beyond those errors, no two consecutive vertices can
    /// round to one point. False means: smooth it and look. O(n).
    static func certainlyDistinct(_ points: UnsafeBufferPointer<PlanePoint>, magnitude: Double) -> Bool {
        let m = points.count
        guard m >= 3 else { return false }
        let least = magnitude * 0x1p-36
        @inline(__always) func long(_ x: Double, _ y: Double) -> Bool { abs(x) > least || abs(y) > least }
        var a = points[0], b = points[1]
        for i in 0..<m {
            let c = points[i + 2 < m ? i + 2 : i + 2 - m]
            let ex = b.x - a.x, ey = b.y - a.y, fx = c.x - b.x, fy = c.y - b.y
            guard long(ex, ey), long(ex + fx, ey + fy), long(3 * ex + fx, 3 * ey + fy), long(ex + 3 * fx, ey + 3 * fy)
            else { return false }
            (a, b) = (b, c)
        }
        return true
    }
}
