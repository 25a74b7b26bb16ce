import Foundation
import HeatMapCore

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

extension WeightedQuantile {
    /// Bins of ``values(_:weights:at:)``'s histogram.
    static let histogramBins = 4096

    /// The weighted quantile of `values` at each of `qs`, counting the
    /// values of weight > 0: for each, what ``value(_:q:total:)`` finds
    /// over all of them, but without moving them all. One pass bins the
    /// weights into ``histogramBins`` equal bins between the smallest and
    /// largest value; the bin where the running weight reaches q × total
    /// is the only one whose values are then selected among. O(n + the
    /// values of the chosen bins), the passes in blocks on all cores (the
    /// blocks' sums added in block order: the same result on any cores);
    /// nil when no value has weight > 0.
    static func values(_ values: [Double], weights: [Double], at qs: [Double]) -> [Double]? {
        let blocks = Parallel.blocks(of: values.count)
        let ranges = Parallel.map(blocks.count) { b -> SIMD3<Double> in
            var lowest = Double.infinity, highest = -Double.infinity, total = 0.0
            for i in blocks[b] where weights[i] > 0 {
                lowest = min(lowest, values[i])
                highest = max(highest, values[i])
                total += weights[i]
            }
            return SIMD3(lowest, highest, total)
        }
        var lowest = Double.infinity, highest = -Double.infinity, total = 0.0
        for r in ranges {
            lowest = min(lowest, r.x)
            highest = max(highest, r.y)
            total += r.z
        }
        guard lowest <= highest else { return nil }
        let bins = histogramBins
        let scale = highest > lowest ? Double(bins) / (highest - lowest) : 0
        @inline(__always) func bin(_ v: Double) -> Int { min(Int((v - lowest) * scale), bins - 1) }
        let parts = Parallel.map(blocks.count) { b -> [Double] in
            var histogram = [Double](repeating: 0, count: bins)
            for i in blocks[b] where weights[i] > 0 {
                histogram[bin(values[i])] += weights[i]
            }
            return histogram
        }
        var histogram = [Double](repeating: 0, count: bins)
        for part in parts { for b in 0..<bins { histogram[b] += part[b] } }
        // For each quantile, the first bin whose running weight reaches the
        // target (the last non-empty one should rounding keep it short).
        let chosen = qs.map { q -> (bin: Int, below: Double, target: Double) in
            let target = q * total
            var below = 0.0, chosen = bins - 1
            for b in 0..<bins where histogram[b] > 0 {
                chosen = b
                if below + histogram[b] >= target { break }
                below += histogram[b]
            }
            return (chosen, below, target)
        }
        // The chosen bins' values, in one pass by blocks.
        var slot = [Int](repeating: -1, count: bins)
        var slots = 0
        for c in chosen where slot[c.bin] < 0 {
            slot[c.bin] = slots
            slots += 1
        }
        let found = Parallel.map(blocks.count) { b -> [[SIMD2<Double>]] in
            var members = [[SIMD2<Double>]](repeating: [], count: slots)
            for i in blocks[b] where weights[i] > 0 {
                let s = slot[bin(values[i])]
                if s >= 0 { members[s].append(SIMD2(values[i], weights[i])) }
            }
            return members
        }
        var members = [[SIMD2<Double>]](repeating: [], count: slots)
        for part in found { for s in 0..<slots { members[s] += part[s] } }
        return chosen.map { c in
            if c.below + histogram[c.bin] < c.target { return highest }
            var pairs = members[slot[c.bin]]
            return value(&pairs, q: 1, total: c.target - c.below) ?? highest
        }
    }
}
