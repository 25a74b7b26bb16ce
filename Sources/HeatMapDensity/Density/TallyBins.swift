/// The bins of a histogram one block of a pass adds into: fixed in number,
/// zero at first, written through a pointer that never moves. An array
/// held in a tally that a loop mutates is checked for uniqueness and its
/// storage reloaded at every add; this is not.
///
/// A block's tally owns its bins alone while its pass runs, and they are
/// read only after the pass has joined.
final class TallyBins<Bin>: @unchecked Sendable {
    let base: UnsafeMutablePointer<Bin>
    let count: Int

    /// `count` bins (at least one), each `zero`.
    init(count: Int, zero: Bin) {
        self.count = max(count, 1)
        base = .allocate(capacity: self.count)
        base.initialize(repeating: zero, count: self.count)
    }

    deinit {
        base.deinitialize(count: count)
        base.deallocate()
    }

    subscript(k: Int) -> Bin { base[k] }
}

extension TallyBins where Bin == Double {
    /// Adds `value` to bin `k` (0 ≤ k < count).
    @inline(__always) func add(_ value: Double, at k: Int) { base[k] += value }
}

extension TallyBins where Bin == SIMD2<Double> {
    /// Adds `value` to bin `k` (0 ≤ k < count).
    @inline(__always) func add(_ value: SIMD2<Double>, at k: Int) { base[k] += value }
}
