import Foundation

/// Weighted quantiles by selection rather than a sort: expected O(n) per
/// quantile, where sorting a million (value, weight) pairs costs more than
/// the adaptive grid's own convolutions.
enum WeightedQuantile {
    /// The smallest value x of `pairs` (value, weight > 0) at which the
    /// weight of the values ≤ x reaches `q` × the total weight `total`:
    /// what walking the pairs sorted by value and adding weights finds.
    /// Reorders `pairs`; nil when there are none.
    static func value(_ pairs: inout [SIMD2<Double>], q: Double, total: Double) -> Double? {
        guard !pairs.isEmpty else { return nil }
        let target = q * total
        return pairs.withUnsafeMutableBufferPointer { p -> Double in
            var lo = 0, hi = p.count  // the range still unsorted
            var below = 0.0  // weight of the values before `lo`
            var largest = -Double.infinity
            for pair in p { largest = max(largest, pair.x) }
            while lo < hi {
                // Median of three as the pivot.
                let a = p[lo].x, b = p[(lo + hi) / 2].x, c = p[hi - 1].x
                let pivot = max(min(a, b), min(max(a, b), c))
                // Three-way partition: [lo, lt) < pivot, [lt, gt) == pivot, [gt, hi) > pivot.
                var lt = lo, i = lo, gt = hi
                var less = 0.0, equal = 0.0
                while i < gt {
                    let v = p[i].x
                    if v < pivot {
                        less += p[i].y
                        p.swapAt(i, lt)
                        lt += 1
                        i += 1
                    } else if v > pivot {
                        gt -= 1
                        p.swapAt(i, gt)
                    } else {
                        equal += p[i].y
                        i += 1
                    }
                }
                if below + less >= target, lt > lo {
                    hi = lt
                } else if below + less + equal >= target {
                    return pivot
                } else {
                    below += less + equal
                    lo = gt
                }
            }
            return largest
        }
    }
}
