import Foundation
import HeatMapCore

/// The exact splat for grids small enough to copy, without sorting the
/// points.
///
/// The points are cut into a fixed number of consecutive chunks; each is
/// splatted in input order into its own zeroed copy of the grid, on any
/// core, and the copies are added to the grid node by node in chunk order.
/// A copy stays in a core's cache, so the random order of the points costs
/// nothing, and sorting them by row (``RowBands``), which pays off for large
/// grids, would only cost time. The chunk count depends on the number of
/// points alone, so the sums are the same bit for bit on any number of
/// cores. O(n · footprint + chunks · cells).
enum PrivateGridSplat {
    /// The largest grid handled this way, in nodes × channels: a copy of at
    /// most 1 MB, within reach of a core's caches (measured: up to this
    /// size the unsorted splat beats sorting, copies and sums included).
    static let maximumNodes = 1 << 17

    /// Chunks for n points: up to 16, of at least 4096 points.
    package static func chunks(count n: Int) -> Int { max(1, min(16, n / 4096)) }

    /// Splats points 0..<n as `splat` would, each chunk into a copy of its
    /// grids, then adds the copies to the splat's own grids (its density,
    /// and its Σ v w K when `value` is given). `progress` gets each chunk's
    /// point count.
    package static func run(
        _ splat: DirectSplat, x: UnsafePointer<Double>, y: UnsafePointer<Double>,
        weight: UnsafePointer<Double>, value: UnsafePointer<Double>?, count n: Int, nodes: Int,
        control: ComputeControl, progress: (@Sendable (Int) -> Void)?
    ) throws {
        let chunks = chunks(count: n)
        let channels = value == nil ? 1 : 2
        // Copy c at c · channels · nodes: its density, then its Σ v w K.
        let copies = UnsafeMutablePointer<Double>.allocate(capacity: chunks * channels * nodes)
        defer { copies.deallocate() }
        try Parallel.forEach(chunks) { c in
            try control.checkCancellation()
            let own = copies + c * channels * nodes
            own.initialize(repeating: 0, count: channels * nodes)
            let splat = splat.writing(into: own, weightedValue: value == nil ? nil : own + nodes)
            let scratch = UnsafeMutablePointer<Double>.allocate(capacity: max(splat.scratchCount, 1))
            defer { scratch.deallocate() }
            let poll = max(splat.pollInterval, 1)
            let range = n * c / chunks..<n * (c + 1) / chunks
            // Runs of `poll` points between cancellation checks, as the
            // band loop of RowBands does: no division per point.
            var i = range.lowerBound
            while i < range.upperBound {
                let stop = min(range.upperBound, i + poll)
                while i < stop {
                    splat.deposit(x: x[i], y: y[i], weight: weight[i], value: value?[i] ?? 0, scratch: scratch)
                    i += 1
                }
                try control.checkCancellation()
            }
            progress?(range.count)
        }
        // Node by node, the copies in chunk order; blocks of nodes on all cores.
        let block = 4096
        try Parallel.forEach((nodes + block - 1) / block) { b in
            try control.checkCancellation()
            for (channel, target) in [splat.density, splat.weightedValue].prefix(channels).enumerated() {
                guard let target else { continue }
                for k in b * block..<min(nodes, (b + 1) * block) {
                    var sum = 0.0
                    for c in 0..<chunks { sum += copies[(c * channels + channel) * nodes + k] }
                    target[k] += sum
                }
            }
        }
    }
}
