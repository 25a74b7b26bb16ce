import HeatMapCore
import HeatMapDensity

/// Disjoint sets over 0 ..< count with path halving and union by size.
/// Near-constant time per operation.
struct UnionFind {
    private var parent: [Int32]
    private var size: [Int32]

    package init(count: Int) {
        parent = (0..<count).map { Int32($0) }
        size = [Int32](repeating: 1, count: count)
    }

    /// The representative of `x`'s set.
    package mutating func find(_ x: Int) -> Int {
        var x = x
        while Int(parent[x]) != x {
            parent[x] = parent[Int(parent[x])]
            x = Int(parent[x])
        }
        return x
    }

    /// Joins the sets of `a` and `b`.
    mutating func union(_ a: Int, _ b: Int) {
        var ra = find(a), rb = find(b)
        guard ra != rb else { return }
        if size[ra] < size[rb] { swap(&ra, &rb) }
        parent[rb] = Int32(ra)
        size[ra] += size[rb]
    }
}
