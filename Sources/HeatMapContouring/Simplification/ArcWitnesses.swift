import Foundation
import HeatMapCore
import HeatMapDensity

/// One position of every ring that simplification always keeps, for
/// catching a simplified arc that jumps over a whole ring: a ring that does
/// not cross the arc's new chord lies wholly on one side of it, so it was
/// jumped exactly when its witness lies between the arc's old run and the
/// chord that replaces it.
struct ArcWitnesses {
    private var xs: [Double] = []
    private var points: [PlanePoint] = []
    private var rings: [Int32] = []

    /// `witness[k]` is ring k's kept position.
    package init(_ witness: [PlanePoint?]) {
        var all: [(PlanePoint, Int32)] = []
        for (k, w) in witness.enumerated() { if let w { all.append((w, Int32(k))) } }
        all.sort { $0.0.x != $1.0.x ? $0.0.x < $1.0.x : $0.1 < $1.1 }
        xs = all.map(\.0.x)
        points = all.map(\.0)
        rings = all.map(\.1)
    }

    /// Whether keeping only `kept` of `arc` moves it over the witness of a
    /// ring other than `users`. O(candidates in each run's box × run).
    func jumped(_ arc: [PlanePoint], kept: [Bool], users: [Int32]) -> Bool {
        var a = 0
        for b in 1..<arc.count where kept[b] {
            if b - a > 1, jumped(arc, from: a, to: b, users: users) { return true }
            a = b
        }
        return false
    }

    private func jumped(_ arc: [PlanePoint], from a: Int, to b: Int, users: [Int32]) -> Bool {
        var box = PlaneBox.empty
        for i in a...b { box.formUnion(arc[i]) }
        var i = lowerBound(box.minX)
        while i < xs.count, xs[i] <= box.maxX {
            let p = points[i]
            if p.y >= box.minY, p.y <= box.maxY, !users.contains(rings[i]), inside(p, arc, a, b) { return true }
            i += 1
        }
        return false
    }

    /// Whether p is inside (or on) the polygon of the run a...b closed by its chord.
    private func inside(_ p: PlanePoint, _ arc: [PlanePoint], _ a: Int, _ b: Int) -> Bool {
        var odd = false
        var j = b
        for i in a...b {
            let u = arc[j], v = arc[i]
            j = i
            let cross = (v.x - u.x) * (p.y - u.y) - (v.y - u.y) * (p.x - u.x)
            if cross == 0, min(u.x, v.x) <= p.x, p.x <= max(u.x, v.x), min(u.y, v.y) <= p.y, p.y <= max(u.y, v.y) {
                return true
            }
            if (u.y > p.y) != (v.y > p.y), (cross > 0) == (v.y > u.y) { odd.toggle() }
        }
        return odd
    }

    private func lowerBound(_ x: Double) -> Int {
        var lo = 0, hi = xs.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if xs[mid] < x { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }
}
