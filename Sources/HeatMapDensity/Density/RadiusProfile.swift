import Foundation
import HeatMapCore

/// How the radii of points with a radius each are spread: a histogram in
/// ln r, bins 1/64 of an e-fold wide (about 1.6 %), with each bin's share
/// of the points and of Σ r². The planner weighs the exact splat of a range
/// of radii against their radius classes with it
/// (``RadiusClasses/plan(method:kernel:maximumRadius:xAxis:yAxis:channels:pointCount:profile:)``).
///
/// Shares, not counts, so one profile of all points plans a subset too (a
/// time frame). O(n) to make, on all cores; O(bins) to read; at most
/// ``binLimit`` bins.
package struct RadiusProfile: Sendable, Hashable {
    /// ln of the lower edge of bin 0.
    let lowestLog: Double
    /// Bins per e-fold.
    static let binsPerLog = 64.0
    /// The most bins (radii 1 : e¹⁶ apart); wider spreads share the last one.
    static let binLimit = 1024
    /// Each bin's share of the points.
    let shares: [Double]
    /// Each bin's Σ r² over the number of points.
    let squares: [Double]
    /// The largest radius, and the share of the points that have exactly
    /// that one: an adaptive bandwidth trims every point of a sparse
    /// enough pilot to one radius (a fifth of a million clustered points),
    /// which one radius class takes whole.
    let largest: Double
    let shareAtLargest: Double

    /// At most the smallest radius, and within one bin of it: the lower
    /// edge of the first bin that holds a point (0 for no points).
    var smallest: Double {
        guard let first = shares.firstIndex(where: { $0 > 0 }) else { return 0 }
        return exp(lowestLog + Double(first) / Self.binsPerLog)
    }

    /// The profile of `radii` (finite and > 0), skipping the points whose
    /// `weights` are 0 where given (they add nothing to a grid).
    package init(radii: [Double], weights: [Double]? = nil) {
        // In blocks on all cores, added in block order.
        let blocks = Parallel.blocks(of: radii.count)
        @inline(__always) func counts(_ i: Int) -> Bool { weights.map { $0[i] != 0 } ?? true }
        let ranges = Parallel.map(blocks.count) { b -> SIMD2<Double> in
            var lowest = Double.infinity, highest = 0.0
            for i in blocks[b] where counts(i) {
                lowest = min(lowest, radii[i])
                highest = max(highest, radii[i])
            }
            return SIMD2(lowest, highest)
        }
        let lowest = ranges.reduce(Double.infinity) { min($0, $1.x) }
        let highest = ranges.reduce(0) { max($0, $1.y) }
        guard lowest <= highest else {
            self.init(tallies: [])
            return
        }
        let tallies = Parallel.map(blocks.count) { b -> Tally in
            var tally = Tally(lowestLog: log(lowest), highestLog: log(highest))
            for i in blocks[b] where counts(i) { tally.add(radii[i], log: log(radii[i])) }
            return tally
        }
        self.init(tallies: tallies)
    }

    /// One block's part of a profile, bins counted from a lowest ln r known
    /// beforehand: what a pass that already has each point's ln r adds
    /// with no logarithm of its own.
    struct Tally {
        let lowestLog: Double
        /// Per bin: points and Σ r².
        let bins: TallyBins<SIMD2<Double>>
        var counted = 0.0
        /// The largest radius so far and the points that have it.
        var largest = WeightAtExtreme(largest: true)

        /// Bins for radii of ln r from `lowestLog` up to `highestLog`
        /// (the last bin takes any beyond, the first any below).
        init(lowestLog: Double, highestLog: Double) {
            self.lowestLog = lowestLog
            // A span that is not a number (radii past the largest double)
            // takes one bin rather than trapping.
            let span = max(highestLog - lowestLog, 0) * RadiusProfile.binsPerLog
            let bounded = span.isNaN ? 0 : min(span, Double(RadiusProfile.binLimit - 1))
            bins = TallyBins(count: Int(bounded) + 1, zero: .zero)
        }

        /// Counts a point of radius `r`, whose ln is `logR`.
        @inline(__always) mutating func add(_ r: Double, log logR: Double) {
            let t = (logR - lowestLog) * RadiusProfile.binsPerLog
            bins.add(SIMD2(1, r * r), at: min(Int(max(t, 0)), bins.count - 1))
            counted += 1
            largest.add(r, weight: 1)
        }
    }

    /// The profile the blocks' `tallies` make, added in order (all made
    /// with the same bins).
    init(tallies: [Tally]) {
        let counted = tallies.reduce(0) { $0 + $1.counted }
        guard let first = tallies.first, counted > 0 else {
            (lowestLog, shares, squares, largest, shareAtLargest) = (0, [], [], 0, 0)
            return
        }
        var sums = [SIMD2<Double>](repeating: .zero, count: first.bins.count)
        var largest = WeightAtExtreme(largest: true)
        for tally in tallies {
            for b in sums.indices { sums[b] += tally.bins[b] }
            largest.add(tally.largest.value, weight: tally.largest.weight)
        }
        // Bins past the last radius's are dropped: the profile ends where they do.
        while sums.count > 1, sums.last! == .zero { sums.removeLast() }
        lowestLog = first.lowestLog
        shares = sums.map { $0.x / counted }
        squares = sums.map { $0.y / counted }
        self.largest = largest.value
        shareAtLargest = largest.weight / counted
    }

    /// The bins of radii in [`from`, `below`): those whose lower edge is.
    private func bins(from: Double, below: Double) -> Range<Int> {
        func index(_ r: Double) -> Int {
            guard r > 0 else { return 0 }
            let t = ((log(r) - lowestLog) * RadiusProfile.binsPerLog).rounded(.up)
            return Int(min(max(t, 0), Double(shares.count)))
        }
        let lo = index(from), hi = below == .infinity ? shares.count : index(below)
        return lo..<max(lo, hi)
    }

    /// The share of the points of radius in [`from`, `below`), to a bin.
    func share(from: Double, below: Double = .infinity) -> Double {
        bins(from: from, below: below).reduce(0) { $0 + shares[$1] }
    }

    /// Σ r² over the points of radius in [`from`, `below`), divided by the
    /// number of points, to a bin.
    func meanSquare(from: Double, below: Double = .infinity) -> Double {
        bins(from: from, below: below).reduce(0) { $0 + squares[$1] }
    }
}
