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
/// Cutting stops where it would only cut crumbs: beyond the first two
/// passes (the default, made on every piece as they always were), a pass
/// is made while the piece's longest edge is at least ``finestEdge`` of a
/// grid cell. Each pass at least halves the longest edge, so a traced
/// piece (edges up to √2 cells) gets at most 5 passes however many are
/// asked for, and more iterations than that change nothing.
enum Chaikin {
    /// The shortest longest-edge, in grid cells, a piece may have for one
    /// more pass: below it every cut is under 1/64 of a cell, far below
    /// what the grid resolves.
    static let finestEdge = 1.0 / 16

    /// Passes made whatever the edges: the default smoothing.
    static let alwaysMade = 2

    /// The passes (at most `limit`) worth making on each piece of `trace`:
    /// ``alwaysMade``, then one for each further halving of its longest edge
    /// (in cells of `geometry`) that is still at least ``finestEdge``.
    /// Removed pieces get 0. O(vertices).
    static func usefulPasses(
        _ trace: LevelTrace, upTo limit: Int, geometry: GridGeometry,
        control: ComputeControl
    ) throws -> [UInt8] {
        var out = [UInt8](repeating: 0, count: trace.pieceCount)
        let sx = 1 / geometry.dx, sy = 1 / geometry.dy
        var sinceCheck = 0
        for p in 0..<trace.pieceCount where !trace.isRemoved[p] {
            var longest = 0.0, first = PlanePoint(x: 0, y: 0), last = PlanePoint(x: 0, y: 0), n = 0
            trace.vertices.forEachPoint(trace.range(p)) { _, q in
                if n == 0 {
                    first = q
                } else {
                    let ex = (q.x - last.x) * sx, ey = (q.y - last.y) * sy
                    longest = max(longest, ex * ex + ey * ey)
                }
                last = q
                n += 1
            }
            if !trace.isChain[p], n > 1 {
                let ex = (first.x - last.x) * sx, ey = (first.y - last.y) * sy
                longest = max(longest, ex * ex + ey * ey)
            }
            let made = min(limit, alwaysMade)
            var edge = longest.squareRoot() / Double(1 << made), k = made
            while k < limit && edge >= finestEdge {
                k += 1
                edge /= 2
            }
            out[p] = UInt8(k)
            sinceCheck += n
            if sinceCheck > 1 << 16 {
                sinceCheck = 0
                try control.checkCancellation()
            }
        }
        return out
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

    /// Buffers for the passes before the last, kept from piece to piece.
    struct Scratch {
        package var a: [PlanePoint] = []
        package var b: [PlanePoint] = []
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
        let middle = iterations > 1 ? smoothedCount(n, closed: closed, iterations: iterations - 1) : 0
        if scratch.a.count < middle { scratch.a = Array(repeating: PlanePoint(x: 0, y: 0), count: middle) }
        if iterations > 2 && scratch.b.count < middle {
            scratch.b = Array(repeating: PlanePoint(x: 0, y: 0), count: middle)
        }
        return [PlanePoint](unsafeUninitializedCapacity: final) { out, count in
            scratch.a.withUnsafeMutableBufferPointer { a in
                scratch.b.withUnsafeMutableBufferPointer { b in
                    // Passes alternate between the scratch buffers so that the last lands in `out`.
                    var from = UnsafePointer(source.baseAddress!), m = n
                    for pass in 1...iterations {
                        let left = iterations - pass
                        let to = left == 0 ? out.baseAddress! : (left % 2 == 1 ? a.baseAddress! : b.baseAddress!)
                        m = cut(from, m, closed: closed, into: to)
                        from = UnsafePointer(to)
                    }
                    count = m
                }
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
