import Foundation
import HeatMapCore
import HeatMapDensity

/// Douglas–Peucker line simplification: keeps the vertices that lie farther
/// than the tolerance from the chord of the run they split, recursively
/// (with an explicit stack, so long arcs cannot overflow it). O(n log n)
/// typical, O(n²) worst case.
enum DouglasPeucker {
    /// Which vertices of `points` to keep for `tolerance`: always the first
    /// and the last, and at least `minimum` in all when there are that many
    /// (a run's farthest vertex is kept while fewer are), and no run whose
    /// chord is longer than `maximumLength` is cut short (its middle vertex
    /// is kept).
    package static func keep(
        _ points: UnsafeBufferPointer<PlanePoint>, tolerance: Double, minimum: Int = 2,
        maximumLength: Double = .infinity
    ) -> [Bool] {
        let n = points.count
        var kept = [Bool](repeating: false, count: n)
        guard n > 0 else { return kept }
        kept[0] = true
        kept[n - 1] = true
        guard n > 2 else { return kept }
        var keptCount = 2
        let squared = tolerance * tolerance
        let longest = maximumLength * maximumLength
        var stack: [(Int, Int)] = [(0, n - 1)]
        while let (a, b) = stack.popLast() {
            guard b - a > 1 else { continue }
            var (far, distance) = farthest(points, a, b)
            let dx = points[b].x - points[a].x, dy = points[b].y - points[a].y
            if distance <= squared, keptCount >= minimum, dx * dx + dy * dy > longest { far = (a + b) / 2 }
            if distance > squared || keptCount < minimum || dx * dx + dy * dy > longest {
                kept[far] = true
                keptCount += 1
                stack.append((a, far))
                stack.append((far, b))
            }
        }
        return kept
    }

    /// The vertex strictly between a and b farthest from the chord a–b (from
    /// a itself when a and b coincide), and its squared distance.
    @inline(__always)
    private static func farthest(_ p: UnsafeBufferPointer<PlanePoint>, _ a: Int, _ b: Int) -> (Int, Double) {
        let ax = p[a].x, ay = p[a].y
        let dx = p[b].x - ax, dy = p[b].y - ay
        let length = dx * dx + dy * dy
        var best = a + 1, bestDistance = -1.0
        for i in (a + 1)..<b {
            let ex = p[i].x - ax, ey = p[i].y - ay
            let d: Double
            if length == 0 {
                d = ex * ex + ey * ey
            } else {
                let cross = ex * dy - ey * dx
                d = cross * cross / length
            }
            if d > bestDistance { bestDistance = d; best = i }
        }
        return (best, bestDistance)
    }
}
