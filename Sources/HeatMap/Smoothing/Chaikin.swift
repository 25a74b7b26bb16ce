/// Chaikin corner cutting (§5.6): every edge is replaced by its points at
/// ¼ and ¾, `iterations` times; each pass doubles the vertex count and the
/// curve tends to the quadratic B-spline of the original vertices.
///
/// Closed rings are cut all round. Open paths (chains that meet the frame)
/// keep their two end points, so they still join the frame where they did.
/// Every new point is a convex combination of two neighbouring vertices, so
/// a smoothed path stays inside the cells its original crosses.
public enum Chaikin {
    /// The ring or path `points` smoothed `iterations` times.
    ///
    /// - Parameters:
    ///   - points: vertices; a closed ring is open-ended (last joins first).
    ///   - closed: whether the last vertex joins the first.
    /// - Complexity: O(n · 2^iterations).
    public static func smooth(_ points: [PlanePoint], iterations: Int, closed: Bool = true) -> [PlanePoint] {
        var xs: [Double] = [], ys: [Double] = []
        smooth(xs: points.map(\.x), ys: points.map(\.y), range: 0..<points.count, closed: closed,
               iterations: iterations, intoX: &xs, intoY: &ys)
        return zip(xs, ys).map { PlanePoint(x: $0, y: $1) }
    }

    /// The number of vertices `n` vertices become after `iterations` passes.
    static func smoothedCount(_ n: Int, closed: Bool, iterations: Int) -> Int {
        var m = n
        for _ in 0..<iterations {
            if closed { if m >= 3 { m *= 2 } } else if m >= 3 { m = 2 * m - 2 }
        }
        return m
    }

    /// Smooths `xs[range]`, `ys[range]` and appends the result to `intoX`, `intoY`.
    static func smooth(xs: [Double], ys: [Double], range: Range<Int>, closed: Bool, iterations: Int,
                       intoX: inout [Double], intoY: inout [Double]) {
        let n = range.count
        // Nothing to cut: fewer than three vertices, or no passes.
        guard iterations > 0, n >= 3 else {
            intoX.append(contentsOf: xs[range])
            intoY.append(contentsOf: ys[range])
            return
        }
        var ax = Array(xs[range]), ay = Array(ys[range])
        var bx: [Double] = [], by: [Double] = []
        let final = smoothedCount(n, closed: closed, iterations: iterations)
        ax.reserveCapacity(final); ay.reserveCapacity(final)
        bx.reserveCapacity(final); by.reserveCapacity(final)
        for _ in 0..<iterations {
            bx.removeAll(keepingCapacity: true)
            by.removeAll(keepingCapacity: true)
            let m = ax.count
            if closed {
                for i in 0..<m {
                    let j = i + 1 == m ? 0 : i + 1
                    let ex = ax[j] - ax[i], ey = ay[j] - ay[i]
                    bx.append(ax[i] + 0.25 * ex); by.append(ay[i] + 0.25 * ey)
                    bx.append(ax[i] + 0.75 * ex); by.append(ay[i] + 0.75 * ey)
                }
            } else {
                bx.append(ax[0]); by.append(ay[0])
                for i in 0..<(m - 1) {
                    let ex = ax[i + 1] - ax[i], ey = ay[i + 1] - ay[i]
                    if i > 0 { bx.append(ax[i] + 0.25 * ex); by.append(ay[i] + 0.25 * ey) }
                    if i < m - 2 { bx.append(ax[i] + 0.75 * ex); by.append(ay[i] + 0.75 * ey) }
                }
                bx.append(ax[m - 1]); by.append(ay[m - 1])
            }
            swap(&ax, &bx)
            swap(&ay, &by)
        }
        intoX.append(contentsOf: ax)
        intoY.append(contentsOf: ay)
    }
}
