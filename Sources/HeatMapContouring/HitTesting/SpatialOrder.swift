import Foundation
import HeatMapCore
import HeatMapDensity

/// An order of points in which neighbours follow each other: row by row
/// over a grid of about two points per cell laid on their box (a counting
/// sort, O(n)). Lookups in that order touch memory near the previous
/// ones, which random order would fetch from main memory each time.
struct SpatialOrder {
    /// Below this many points the lookups' memory fits in cache anyway.
    static let minimumCount = 8192

    /// The points' indices, in spatial order; non-finite points last.
    package let indices: [Int32]

    /// The order of `points`, or nil when there are too few to gain from
    /// one (or too many for 32-bit indices).
    package init?(_ points: [PlanePoint]) {
        let n = points.count
        guard n >= SpatialOrder.minimumCount, n < Int(Int32.max) else { return nil }
        var box = PlaneBox.empty
        for p in points where p.x.isFinite && p.y.isFinite { box.formUnion(p) }
        let side = max(1, Int((Double(n) / 2).squareRoot()))
        let columns = side, rows = side
        let perX = box.width > 0 ? Double(columns) / box.width : 0
        let perY = box.height > 0 ? Double(rows) / box.height : 0
        let cells = columns * rows
        // Bucket of each point: its cell, or `cells` for a non-finite one.
        var bucketOf = [Int32](repeating: Int32(cells), count: n)
        var start = [Int32](repeating: 0, count: cells + 2)
        for (i, p) in points.enumerated() {
            var k = cells
            if p.x.isFinite, p.y.isFinite {
                k =
                    SpatialOrder.cell((p.y - box.minY) * perY, rows) * columns
                    + SpatialOrder.cell((p.x - box.minX) * perX, columns)
                bucketOf[i] = Int32(k)
            }
            start[k + 1] += 1
        }
        for k in 0...cells { start[k + 1] += start[k] }
        var indices = [Int32](repeating: 0, count: n)
        for i in 0..<n {
            let k = Int(bucketOf[i])
            indices[Int(start[k])] = Int32(i)
            start[k] += 1
        }
        self.indices = indices
    }

    /// The cell of fractional position f among `count`, clamped; 0 for
    /// NaN (a box wider than the largest Double gives ∞ · 0).
    private static func cell(_ f: Double, _ count: Int) -> Int {
        f > 0 ? Int(min(f, Double(count - 1))) : 0
    }
}
