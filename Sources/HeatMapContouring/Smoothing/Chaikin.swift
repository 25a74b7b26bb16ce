import HeatMapCore
import HeatMapDensity

/// Chaikin corner cutting (docs/contour-rules.md): every edge is replaced by its points at
/// ¼ and ¾, `iterations` times; each pass doubles the vertex count and the
/// curve tends to the quadratic B-spline of the original vertices.
///
/// Closed rings are cut all round. Open paths (chains that meet the frame)
/// keep their two end points, so they still join the frame where they did.
/// Every new point is a convex combination of two neighbouring vertices, so
/// a smoothed path stays inside the cells its original crosses.
///
/// The first two passes (the default) are made on every piece. Passes
/// beyond them refine vertex by vertex, and only where it shows: a vertex
/// b of the twice-cut polygon, between a and c, is the middle control point
/// of the quadratic Bézier span (mid(a, b), b, mid(b, c)) that endless
/// passes converge to, and lies |a − 2b + c| / 8 from it. A pass replaces b
/// by the two middle points of the span's halves, each a quarter as far
/// from its half; so b is split only while it is at least ``finestCut`` of
/// a grid cell from the curve, and is otherwise left where it is, already
/// that close to the limit. Every vertex then lies within ``finestCut`` of
/// a cell of the limit curve (or is split the `iterations` − 2 times
/// asked), straight stretches keep their vertices, and the output grows
/// only at tight bends, never 2ⁿ-fold. With every vertex split, the result
/// is the uniform pass's.
enum Chaikin {
    /// Distance from the limit curve, in grid cells, below which a vertex
    /// is not split further: far below what the grid resolves or a picture
    /// shows.
    static let finestCut = 1.0 / 64

    /// Passes made whatever the edges: the default smoothing.
    static let alwaysMade = 2

    /// The passes (at most `limit`) worth making on each piece of `trace`:
    /// ``alwaysMade``, then as many as its farthest vertex needs (see
    /// ``refinementDepth(_:_:_:cellsPerX:cellsPerY:upTo:)``). Removed
    /// pieces get 0. O(vertices).
    static func usefulPasses(
        _ trace: LevelTrace, upTo limit: Int, geometry: GridGeometry,
        control: ComputeControl
    ) throws -> [UInt8] {
        let made = min(limit, alwaysMade)
        var out = [UInt8](repeating: 0, count: trace.pieceCount)
        let sx = 1 / geometry.dx, sy = 1 / geometry.dy
        var source: [PlanePoint] = [], scratch = Scratch()
        var sinceCheck = 0
        for p in 0..<trace.pieceCount where !trace.isRemoved[p] {
            let range = trace.range(p)
            out[p] = UInt8(made)
            guard limit > made, range.count >= 3 else { continue }
            source.removeAll(keepingCapacity: true)
            trace.vertices.forEachPoint(range) { _, point in source.append(point) }
            let cut = source.withUnsafeBufferPointer {
                smoothed($0, closed: !trace.isChain[p], iterations: made, scratch: &scratch)
            }
            let depth = cut.withUnsafeBufferPointer {
                deepest($0, closed: !trace.isChain[p], cellsPerX: sx, cellsPerY: sy, upTo: limit - made)
            }
            out[p] = UInt8(made + depth)
            sinceCheck += cut.count
            if sinceCheck > 1 << 16 {
                sinceCheck = 0
                try control.checkCancellation()
            }
        }
        return out
    }

    /// How many times vertex `b`, between `a` and `c`, is split (at most
    /// `limit`): while it lies at least ``finestCut`` of a cell from its
    /// span's limit curve, a distance each split quarters. `cellsPerX` and
    /// `cellsPerY` turn plane units into cells.
    @inline(__always)
    static func refinementDepth(
        _ a: PlanePoint, _ b: PlanePoint, _ c: PlanePoint, cellsPerX: Double, cellsPerY: Double,
        upTo limit: Int
    ) -> Int {
        let ex = (a.x - 2 * b.x + c.x) * cellsPerX, ey = (a.y - 2 * b.y + c.y) * cellsPerY
        var gap = (ex * ex + ey * ey).squareRoot() / 8
        var depth = 0
        while depth < limit && gap >= finestCut {
            depth += 1
            gap /= 4
        }
        return depth
    }

    /// The largest ``refinementDepth(_:_:_:cellsPerX:cellsPerY:upTo:)`` of
    /// the vertices of `polygon` (an open path's ends are never split).
    static func deepest(
        _ polygon: UnsafeBufferPointer<PlanePoint>, closed: Bool, cellsPerX: Double, cellsPerY: Double,
        upTo limit: Int
    ) -> Int {
        let m = polygon.count
        guard m >= 3, limit > 0 else { return 0 }
        var most = 0
        for v in (closed ? 0 : 1)..<(closed ? m : m - 1) {
            let a = polygon[v == 0 ? m - 1 : v - 1], c = polygon[v + 1 == m ? 0 : v + 1]
            most = max(
                most, refinementDepth(a, polygon[v], c, cellsPerX: cellsPerX, cellsPerY: cellsPerY, upTo: limit))
            if most == limit { break }
        }
        return most
    }

    /// `polygon` (a piece after ``alwaysMade`` passes) with each vertex
    /// split its ``refinementDepth(_:_:_:cellsPerX:cellsPerY:upTo:)``
    /// times: vertex b, between a and c, becomes the 2^d middle control
    /// points of its span (mid(a, b), b, mid(b, c)) cut at i / 2^d, which are
    /// the vertices d uniform passes would put there. Also returns where
    /// each vertex's points start (`starts[v]`, with the total last); nil
    /// when no vertex is split. O(output).
    static func refined(
        _ polygon: UnsafeBufferPointer<PlanePoint>, closed: Bool, cellsPerX: Double, cellsPerY: Double,
        upTo limit: Int
    ) -> (points: [PlanePoint], starts: [Int32])? {
        let m = polygon.count
        guard m >= 3, limit > 0 else { return nil }
        @inline(__always) func neighbours(_ v: Int) -> (PlanePoint, PlanePoint) {
            (polygon[v == 0 ? m - 1 : v - 1], polygon[v + 1 == m ? 0 : v + 1])
        }
        var starts = [Int32](repeating: 0, count: m + 1)
        var total = 0
        for v in 0..<m {
            starts[v] = Int32(truncatingIfNeeded: total)
            var depth = 0
            if closed || (v > 0 && v < m - 1) {
                let (a, c) = neighbours(v)
                depth = refinementDepth(a, polygon[v], c, cellsPerX: cellsPerX, cellsPerY: cellsPerY, upTo: limit)
            }
            total += 1 << depth
        }
        starts[m] = Int32(truncatingIfNeeded: total)
        guard total > m else { return nil }
        let points = [PlanePoint](unsafeUninitializedCapacity: total) { out, count in
            var k = 0
            for v in 0..<m {
                let b = polygon[v]
                let n = Int(starts[v + 1] - starts[v])
                guard n > 1 else {
                    (out.baseAddress! + k).initialize(to: b)
                    k += 1
                    continue
                }
                // b + (1 − u)(1 − w)(a' − b) + u·w (c' − b) with a' = mid(a, b),
                // c' = mid(b, c): the span's blossom at (u, w), the middle
                // control point of its part from u to w.
                let (a, c) = neighbours(v)
                let ax = (a.x - b.x) / 2, ay = (a.y - b.y) / 2
                let cx = (c.x - b.x) / 2, cy = (c.y - b.y) / 2
                let step = 1 / Double(n)
                for i in 0..<n {
                    let u = Double(i) * step, w = Double(i + 1) * step
                    let s = (1 - u) * (1 - w), t = u * w
                    (out.baseAddress! + k).initialize(
                        to: PlanePoint(x: b.x + s * ax + t * cx, y: b.y + s * ay + t * cy))
                    k += 1
                }
            }
            count = k
        }
        return (points, starts)
    }

    /// The ring or path `points` smoothed `iterations` times.
    ///
    /// - Parameters:
    ///   - points: vertices; a closed ring is open-ended (last joins first).
    ///   - closed: whether the last vertex joins the first.
    /// - Complexity: O(n · 2^iterations).
    package static func smooth(_ points: [PlanePoint], iterations: Int, closed: Bool = true) -> [PlanePoint] {
        var scratch = Scratch()
        return points.withUnsafeBufferPointer {
            smoothed($0, closed: closed, iterations: iterations, scratch: &scratch)
        }
    }

    /// The number of vertices `n` vertices become after `iterations` passes.
    static func smoothedCount(_ n: Int, closed: Bool, iterations: Int) -> Int {
        guard n >= 3 else { return n }
        var m = n
        for _ in 0..<iterations { m = closed ? 2 * m : 2 * m - 2 }
        return m
    }

    /// Buffers for the passes before the last, kept from piece to piece,
    /// and (``withSmoothed(_:closed:iterations:scratch:_:)``) for the last.
    struct Scratch {
        package var a: [PlanePoint] = []
        package var b: [PlanePoint] = []
        package var last: [PlanePoint] = []
    }

    /// `source` smoothed `iterations` times, handed to `body` from the
    /// scratch's own buffer rather than made into an array of its own: for
    /// a caller that makes its own array of the positions anyway (the
    /// unprojection), one array a piece instead of two.
    package static func withSmoothed<R>(
        _ source: UnsafeBufferPointer<PlanePoint>, closed: Bool, iterations: Int, scratch: inout Scratch,
        _ body: (UnsafeBufferPointer<PlanePoint>) -> R
    ) -> R {
        let n = source.count
        guard iterations > 0, n >= 3 else { return body(source) }
        let final = smoothedCount(n, closed: closed, iterations: iterations)
        if scratch.last.count < final {
            scratch.last = Array(repeating: PlanePoint(x: 0, y: 0), count: final)
        }
        var last = scratch.last
        scratch.last = []
        defer { scratch.last = last }
        return last.withUnsafeMutableBufferPointer { out in
            let m = passes(source, closed: closed, iterations: iterations, scratch: &scratch, into: out.baseAddress!)
            return body(UnsafeBufferPointer(start: out.baseAddress, count: m))
        }
    }

    /// `source` smoothed `iterations` times, in an array of exactly its
    /// final size (the passes before the last go through `scratch`).
    package static func smoothed(
        _ source: UnsafeBufferPointer<PlanePoint>, closed: Bool, iterations: Int,
        scratch: inout Scratch
    ) -> [PlanePoint] {
        let n = source.count
        // Nothing to cut: fewer than three vertices, or no passes.
        guard iterations > 0, n >= 3 else { return Array(source) }
        let final = smoothedCount(n, closed: closed, iterations: iterations)
        return [PlanePoint](unsafeUninitializedCapacity: final) { out, count in
            count = passes(source, closed: closed, iterations: iterations, scratch: &scratch, into: out.baseAddress!)
        }
    }

    /// The passes of ``smoothed(_:closed:iterations:scratch:)`` (at least
    /// one, on at least three vertices), the last into `out`, which has
    /// room for the final count; returns that count.
    private static func passes(
        _ source: UnsafeBufferPointer<PlanePoint>, closed: Bool, iterations: Int, scratch: inout Scratch,
        into out: UnsafeMutablePointer<PlanePoint>
    ) -> Int {
        let n = source.count
        let middle = iterations > 1 ? smoothedCount(n, closed: closed, iterations: iterations - 1) : 0
        if scratch.a.count < middle { scratch.a = Array(repeating: PlanePoint(x: 0, y: 0), count: middle) }
        if iterations > 2 && scratch.b.count < middle {
            scratch.b = Array(repeating: PlanePoint(x: 0, y: 0), count: middle)
        }
        return scratch.a.withUnsafeMutableBufferPointer { a in
            scratch.b.withUnsafeMutableBufferPointer { b in
                // Passes alternate between the scratch buffers so that the last lands in `out`.
                var from = UnsafePointer(source.baseAddress!), m = n
                for pass in 1...iterations {
                    let left = iterations - pass
                    let to = left == 0 ? out : (left % 2 == 1 ? a.baseAddress! : b.baseAddress!)
                    m = cut(from, m, closed: closed, into: to)
                    from = UnsafePointer(to)
                }
                return m
            }
        }
    }

    /// One pass: the points at ¼ and ¾ of every edge of `from[0 ..< m]`
    /// (an open path keeps its ends). Returns the number written.
    @inline(__always)
    private static func cut(
        _ from: UnsafePointer<PlanePoint>, _ m: Int, closed: Bool,
        into to: UnsafeMutablePointer<PlanePoint>
    ) -> Int {
        var k = 0
        @inline(__always) func put(_ x: Double, _ y: Double) {
            (to + k).initialize(to: PlanePoint(x: x, y: y))
            k += 1
        }
        if closed {
            for i in 0..<m {
                let p = from[i], q = from[i + 1 == m ? 0 : i + 1]
                let ex = q.x - p.x, ey = q.y - p.y
                put(p.x + 0.25 * ex, p.y + 0.25 * ey)
                put(p.x + 0.75 * ex, p.y + 0.75 * ey)
            }
        } else {
            put(from[0].x, from[0].y)
            for i in 0..<(m - 1) {
                let p = from[i], q = from[i + 1]
                let ex = q.x - p.x, ey = q.y - p.y
                if i > 0 { put(p.x + 0.25 * ex, p.y + 0.25 * ey) }
                if i < m - 2 { put(p.x + 0.75 * ex, p.y + 0.75 * ey) }
            }
            put(from[m - 1].x, from[m - 1].y)
        }
        return k
    }
}
