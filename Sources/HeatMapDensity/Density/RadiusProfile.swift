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

    /// The profile of `radii` (finite and > 0), skipping the points whose
    /// `weights` are 0 where given (they add nothing to a grid).
    package init(radii: [Double], weights: [Double]? = nil) {
        // In blocks on all cores, added in block order.
        let blocks = Parallel.blocks(of: radii.count)
        @inline(__always) func counts(_ i: Int) -> Bool { weights.map { $0[i] != 0 } ?? true }
        let ranges = Parallel.map(blocks.count) { b -> SIMD3<Double> in
            var lowest = Double.infinity, highest = 0.0, counted = 0.0
            for i in blocks[b] where counts(i) {
                lowest = min(lowest, radii[i])
                highest = max(highest, radii[i])
                counted += 1
            }
            return SIMD3(lowest, highest, counted)
        }
        var lowest = Double.infinity, highest = 0.0, counted = 0.0
        for r in ranges {
            lowest = min(lowest, r.x)
            highest = max(highest, r.y)
            counted += r.z
        }
        guard counted > 0 else {
            (lowestLog, shares, squares, largest, shareAtLargest) = (0, [], [], 0, 0)
            return
        }
        let lowestLog = log(lowest)
        let bins = min(Int((log(highest) - lowestLog) * RadiusProfile.binsPerLog) + 1, RadiusProfile.binLimit)
        // Each block's bins, then how many of its points have the largest radius.
        let parts = Parallel.map(blocks.count) { b -> [SIMD2<Double>] in
            var part = [SIMD2<Double>](repeating: .zero, count: bins + 1)
            for i in blocks[b] where counts(i) {
                let r = radii[i]
                part[min(Int((log(r) - lowestLog) * RadiusProfile.binsPerLog), bins - 1)] += SIMD2(1, r * r)
                if r == highest { part[bins].x += 1 }
            }
            return part
        }
        var sums = [SIMD2<Double>](repeating: .zero, count: bins + 1)
        for part in parts { for b in 0...bins { sums[b] += part[b] } }
        self.lowestLog = lowestLog
        shares = sums.dropLast().map { $0.x / counted }
        squares = sums.dropLast().map { $0.y / counted }
        largest = highest
        shareAtLargest = sums[bins].x / counted
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
