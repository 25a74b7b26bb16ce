import Foundation
import HeatMapCore

/// Zero-filled doubles for accumulating a grid (or several planes of one).
///
/// Backed by `calloc`, so a large buffer costs nothing until its pages are
/// written: the allocation itself never blocks cancellation, and untouched
/// pages of sparse data stay unmapped. Reference semantics; owners copy on
/// write (see ``copy()``).
final class GridBuffer: @unchecked Sendable {
    /// The first element.
    package let base: UnsafeMutablePointer<Double>
    /// The number of elements.
    package let count: Int

    /// Allocates `count` zeros; nil when the memory is not available.
    package init?(count: Int) {
        guard count >= 0, count <= Int.max / MemoryLayout<Double>.stride else { return nil }
        guard let raw = calloc(max(count, 1), MemoryLayout<Double>.stride) else { return nil }
        self.base = raw.bindMemory(to: Double.self, capacity: max(count, 1))
        self.count = count
    }

    /// Allocates `count` doubles of which only the range `zeroed` is set
    /// to zero, for an owner that clears the rest in pieces
    /// just before it first uses them (in cache, rather than all up front
    /// through memory). Nil when the memory is not available.
    package init?(count: Int, zeroing zeroed: Range<Int>) {
        guard count >= 0, count <= Int.max / MemoryLayout<Double>.stride,
            zeroed.lowerBound >= 0, zeroed.upperBound <= count
        else { return nil }
        guard let raw = malloc(max(count, 1) * MemoryLayout<Double>.stride) else { return nil }
        self.base = raw.bindMemory(to: Double.self, capacity: max(count, 1))
        self.count = count
        #if DEBUG
            // Debug builds (the tests) poison the rest: a read before the
            // owner clears it shows up as NaN in the results.
            base.initialize(repeating: .nan, count: count)
        #endif
        (base + zeroed.lowerBound).initialize(repeating: 0, count: zeroed.count)
    }

    /// Allocates `count` zeros written on all cores (``Parallel/clear(_:count:)``),
    /// for a buffer its owner writes whole anyway: `calloc` clears memory
    /// it reuses on the caller's core alone. Nil when the memory is not
    /// available.
    package convenience init?(zeroedOnAllCores count: Int) {
        self.init(count: count, zeroing: 0..<0)
        Parallel.clear(base, count: count)
    }

    deinit { free(base) }

    /// Writes a zero into every page, on all cores, polling cancellation.
    ///
    /// The accumulating loops read before they write; on untouched `calloc`
    /// pages that maps the shared zero page first and copies it on the
    /// write, two faults per page. Touching by writing first takes one.
    func prefault(control: ComputeControl) throws {
        let page = 4096 / MemoryLayout<Double>.stride
        let chunk = 1 << 18  // doubles: 2 MB
        let chunks = (count + chunk - 1) / chunk
        let base = self.base, count = self.count
        try Parallel.forEach(chunks) { c in
            try control.checkCancellation()
            var i = c * chunk
            let end = min(count, (c + 1) * chunk)
            while i < end {
                base[i] = 0
                i += page
            }
        }
    }

    /// An independent buffer with the same contents; nil when the memory
    /// is not available.
    package func copy() -> GridBuffer? {
        guard let other = GridBuffer(count: count) else { return nil }
        other.base.update(from: base, count: count)
        return other
    }
}
