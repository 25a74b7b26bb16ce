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
    /// largest value (``Tally``); the bin where the running weight reaches
    /// q × total is the only one whose values are then selected among.
    /// O(n + the values of the chosen bins), the passes in blocks on all
    /// cores (the blocks' sums added in block order: the same result on
    /// any cores); nil when no value has weight > 0.
    static func values(_ values: [Double], weights: [Double], at qs: [Double]) -> [Double]? {
        let blocks = Parallel.blocks(of: values.count)
        let ranges = Parallel.map(blocks.count) { b -> SIMD2<Double> in
            var lowest = Double.infinity, highest = -Double.infinity
            for i in blocks[b] where weights[i] > 0 {
                lowest = min(lowest, values[i])
                highest = max(highest, values[i])
            }
            return SIMD2(lowest, highest)
        }
        let lowest = ranges.reduce(Double.infinity) { min($0, $1.x) }
        let highest = ranges.reduce(-Double.infinity) { max($0, $1.y) }
        guard lowest <= highest else { return nil }
        let tallies = Parallel.map(blocks.count) { b -> Tally in
            var tally = Tally(from: lowest, to: highest)
            for i in blocks[b] where weights[i] > 0 { tally.add(values[i], weight: weights[i]) }
            return tally
        }
        return self.values(values, weights: weights, at: qs, tallies: tallies)
    }

    /// One block's weights binned into ``histogramBins`` equal bins over a
    /// range known beforehand (values outside it go to the end bins), with
    /// the weight at exactly its smallest and largest value: so a pass that
    /// makes the values can bin them too, and a quantile that falls among
    /// many values clipped to one end (an adaptive bandwidth's trimmed
    /// radii) is that end, with nothing selected.
    struct Tally {
        let lowest: Double
        let scale: Double
        let bins: TallyBins<Double>
        var total = 0.0
        var smallest = WeightAtExtreme(largest: false)
        var largest = WeightAtExtreme(largest: true)

        init(from lowest: Double, to highest: Double) {
            self.lowest = lowest
            scale = highest > lowest ? Double(WeightedQuantile.histogramBins) / (highest - lowest) : 0
            bins = TallyBins(count: WeightedQuantile.histogramBins, zero: 0)
        }

        @inline(__always) func bin(_ v: Double) -> Int {
            min(Int(max((v - lowest) * scale, 0)), WeightedQuantile.histogramBins - 1)
        }

        /// Counts `v` of weight `w` > 0.
        @inline(__always) mutating func add(_ v: Double, weight w: Double) {
            bins.add(w, at: bin(v))
            total += w
            smallest.add(v, weight: w)
            largest.add(v, weight: w)
        }
    }

    /// The weighted quantiles of `values` at `qs` from their blocks'
    /// `tallies` (all over the same range, of every value of weight > 0):
    /// a pass over the values of the chosen bins, if a quantile falls
    /// inside one. Nil when no value has weight > 0.
    static func values(_ values: [Double], weights: [Double], at qs: [Double], tallies: [Tally]) -> [Double]? {
        guard let first = tallies.first else { return nil }
        let bins = histogramBins
        var histogram = [Double](repeating: 0, count: bins)
        var total = 0.0
        var smallest = WeightAtExtreme(largest: false), largest = WeightAtExtreme(largest: true)
        for tally in tallies {
            for b in 0..<bins { histogram[b] += tally.bins[b] }
            total += tally.total
            smallest.add(tally.smallest.value, weight: tally.smallest.weight)
            largest.add(tally.largest.value, weight: tally.largest.weight)
        }
        let (lowest, atLowest, highest, atHighest) = (smallest.value, smallest.weight, largest.value, largest.weight)
        guard lowest <= highest else { return nil }
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
        let firstBin = first.bin(lowest), lastBin = first.bin(highest)
        // The quantiles at either end: no bin to search.
        func end(_ c: (bin: Int, below: Double, target: Double)) -> Double? {
            if c.below + histogram[c.bin] < c.target { return highest }
            if c.bin == firstBin, atLowest >= c.target { return lowest }
            if c.bin == lastBin, c.below + histogram[c.bin] - atHighest < c.target { return highest }
            return nil
        }
        // The other chosen bins' values, in one pass by blocks.
        var slot = [Int](repeating: -1, count: bins)
        var slots = 0
        for c in chosen where end(c) == nil && slot[c.bin] < 0 {
            slot[c.bin] = slots
            slots += 1
        }
        guard slots > 0 else { return chosen.map { end($0)! } }
        let blocks = Parallel.blocks(of: values.count)
        let found = Parallel.map(blocks.count) { b -> [[SIMD2<Double>]] in
            var members = [[SIMD2<Double>]](repeating: [], count: slots)
            for i in blocks[b] where weights[i] > 0 {
                let s = slot[first.bin(values[i])]
                if s >= 0 { members[s].append(SIMD2(values[i], weights[i])) }
            }
            return members
        }
        var members = [[SIMD2<Double>]](repeating: [], count: slots)
        for part in found { for s in 0..<slots { members[s] += part[s] } }
        return chosen.map { c in
            if let value = end(c) { return value }
            var pairs = members[slot[c.bin]]
            return value(&pairs, q: 1, total: c.target - c.below) ?? highest
        }
    }
}
