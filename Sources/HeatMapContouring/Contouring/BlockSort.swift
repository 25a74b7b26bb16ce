import HeatMapCore
import HeatMapDensity

/// Sorts 64-bit keys whose top bits name a grid row: a counting pass
/// distributes them into blocks of rows, then each block is sorted on its
/// own, polling cancellation every few thousand keys. O(n + blocks) plus
/// the small sorts, and never a long uninterruptible sort on a huge grid.
enum BlockSort {
    /// Sorts `keys` ascending. `block(key)` must be monotone in the key and
    /// lie in 0 ..< `blocks`.
    package static func sort(
        _ keys: inout [UInt64], blocks: Int, control: ComputeControl,
        block: (UInt64) -> Int
    ) throws {
        guard keys.count > 1 else { return }
        guard blocks > 1 else {
            keys.sort()
            return
        }
        // Polled by keys handled: a block of many rows may hold many keys.
        var poll = PollCounter(control, every: 1 << 16)
        var starts = [Int](repeating: 0, count: blocks + 1)
        for k in keys {
            try poll.advance()
            starts[block(k) + 1] += 1
        }
        for b in 0..<blocks { starts[b + 1] += starts[b] }
        var fill = starts
        var out = [UInt64](repeating: 0, count: keys.count)
        for k in keys {
            try poll.advance()
            let b = block(k)
            out[fill[b]] = k
            fill[b] += 1
        }
        for b in 0..<blocks {
            let n = starts[b + 1] - starts[b]
            if n > 1 { out[starts[b]..<starts[b + 1]].sort() }
            // A sort of n keys costs about n log n.
            try poll.advance(by: 1 + n * max(1, Int.bitWidth - n.leadingZeroBitCount) / 4)
        }
        keys = out
    }
}
