import Foundation
import HeatMapCore
import HeatMapDensity

/// One ring with its edges bucketed into horizontal slabs, so locating a
/// point scans only the edges whose y-range meets the point's slab:
/// O(edges in one slab) ≈ O(√n) instead of O(n).
struct RingLocator: Sendable {
    private let xs: [Double]
    private let ys: [Double]
    private let minY: Double
    private let slabHeight: Double
    /// Edge start indices of each slab, CSR style: slabEdges[slabStart[s]..<slabStart[s+1]].
    private let slabStart: [Int32]
    private let slabEdges: [Int32]

    package init(_ ring: [PlanePoint]) {
        let ys = ring.map(\.y)
        let n = ring.count
        let lo = ys.min() ?? 0, hi = ys.max() ?? 0
        let slabs = max(1, min(Int(Double(n).squareRoot()), 4096))
        let height = hi > lo ? (hi - lo) / Double(slabs) : 1
        // Count pass, then fill pass.
        var counts = [Int32](repeating: 0, count: slabs + 1)
        let span = { (i: Int) -> (Int, Int) in
            let a = ys[i], b = ys[(i + 1) % n]
            let s0 = Int((min(a, b) - lo) / height), s1 = Int((max(a, b) - lo) / height)
            return (min(max(s0, 0), slabs - 1), min(max(s1, 0), slabs - 1))
        }
        for i in 0..<n {
            let (s0, s1) = span(i)
            for s in s0...s1 { counts[s + 1] += 1 }
        }
        for s in 0..<slabs { counts[s + 1] += counts[s] }
        var fill = counts
        var edges = [Int32](repeating: 0, count: Int(counts[slabs]))
        for i in 0..<n {
            let (s0, s1) = span(i)
            for s in s0...s1 {
                edges[Int(fill[s])] = Int32(i)
                fill[s] += 1
            }
        }
        self.xs = ring.map(\.x)
        self.ys = ys
        minY = lo
        slabHeight = height
        slabStart = counts
        slabEdges = edges
    }

    /// 1 inside, 0 on the boundary, −1 outside.
    package func locate(_ p: PlanePoint) -> Int {
        let n = xs.count
        guard n >= 3 else { return -1 }
        let slabs = slabStart.count - 1
        let s = Int((p.y - minY) / slabHeight)
        guard s >= 0, s <= slabs else { return -1 }
        let slab = min(s, slabs - 1)
        var inside = false
        for k in Int(slabStart[slab])..<Int(slabStart[slab + 1]) {
            let i = Int(slabEdges[k]), j = (i + 1) % n
            let ax = xs[i], ay = ys[i], bx = xs[j], by = ys[j]
            let cross = (bx - ax) * (p.y - ay) - (by - ay) * (p.x - ax)
            if cross == 0, p.x >= min(ax, bx), p.x <= max(ax, bx), p.y >= min(ay, by), p.y <= max(ay, by) {
                return 0
            }
            if (by > p.y) != (ay > p.y) {
                let x = ax + (p.y - ay) * (bx - ax) / (by - ay)
                if p.x < x { inside.toggle() }
            }
        }
        return inside ? 1 : -1
    }
}
