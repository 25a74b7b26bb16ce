import Foundation

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
    static func chunks(count n: Int) -> Int { max(1, min(16, n / 4096)) }

    /// Splats points 0..<n with the splat `make(density, weightedValue)`
    /// gives for a copy, then adds the copies to `density` (and
    /// `weightedValue` when `value` is given). `progress` gets each
    /// chunk's point count.
    static func run(x: UnsafePointer<Double>, y: UnsafePointer<Double>, weight: UnsafePointer<Double>,
                    value: UnsafePointer<Double>?, count n: Int, nodes: Int,
                    density: UnsafeMutablePointer<Double>, weightedValue: UnsafeMutablePointer<Double>?,
                    control: ComputeControl, progress: (@Sendable (Int) -> Void)?,
                    make: (UnsafeMutablePointer<Double>, UnsafeMutablePointer<Double>?) -> DirectSplat) throws {
        let chunks = chunks(count: n)
        let channels = value == nil ? 1 : 2
        // Copy c at c · channels · nodes: its density, then its Σ v w K.
        let copies = UnsafeMutablePointer<Double>.allocate(capacity: chunks * channels * nodes)
        defer { copies.deallocate() }
        try Parallel.forEach(chunks) { c in
            try control.checkCancellation()
            let own = copies + c * channels * nodes
            own.initialize(repeating: 0, count: channels * nodes)
            let splat = make(own, value == nil ? nil : own + nodes)
            let scratch = UnsafeMutablePointer<Double>.allocate(capacity: max(splat.scratchCount, 1))
            defer { scratch.deallocate() }
            let poll = max(splat.pollInterval, 1)
            let range = n * c / chunks ..< n * (c + 1) / chunks
            for i in range {
                if (i - range.lowerBound) % poll == poll - 1 { try control.checkCancellation() }
                splat.deposit(x: x[i], y: y[i], weight: weight[i], value: value?[i] ?? 0, scratch: scratch)
            }
            progress?(range.count)
        }
        // Node by node, the copies in chunk order; blocks of nodes on all cores.
        let block = 4096
        try Parallel.forEach((nodes + block - 1) / block) { b in
            try control.checkCancellation()
            for (channel, target) in [density, weightedValue].prefix(channels).enumerated() {
                guard let target else { continue }
                for k in b * block ..< min(nodes, (b + 1) * block) {
                    var sum = 0.0
                    for c in 0..<chunks { sum += copies[(c * channels + channel) * nodes + k] }
                    target[k] += sum
                }
            }
        }
    }
}
