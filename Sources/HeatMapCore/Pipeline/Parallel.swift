import Dispatch
import Foundation
import Synchronization

/// The package's one parallel loop: every stage that splits work across
/// cores (density bands, point chunks, contour levels, smoothing rounds,
/// export batches, raster strips) goes through it.
///
/// The stages split their work so that no two iterations write the same
/// memory (disjoint row bands, disjoint point chunks, one slot per level);
/// the compiler cannot see that through raw pointers, so the body is handed
/// to `concurrentPerform` unchecked. Results never depend on which thread
/// runs which iteration.
///
/// When iterations fail, the loop fails the same way whatever the thread
/// timing:
/// 1. If `control` is cancelled when the loop ends, it throws
///    `CancellationError` — whatever the bodies threw, since which of them
///    ran before the cancel is a matter of timing.
/// 2. Otherwise it rethrows the error of the lowest failing index. An
///    iteration is skipped only when a lower index has already failed, so
///    every index below the lowest failing one runs and that error is found.
package enum Parallel {
    /// The number of threads worth splitting work for.
    package static var workerCount: Int { max(1, ProcessInfo.processInfo.activeProcessorCount) }

    /// Calls `body(i)` for every i in 0..<count, on all cores when count > 1.
    /// Failures as described on ``Parallel``; no iteration starts once
    /// `control` is cancelled.
    package static func forEach(_ count: Int, control: ComputeControl = .none, _ body: (Int) throws -> Void) throws {
        guard count > 0 else { return }
        if count == 1 || workerCount == 1 {
            for i in 0..<count {
                if control.isCancelled { break }
                do { try body(i) } catch {
                    try control.checkCancellation()
                    throw error
                }
            }
            try control.checkCancellation()
            return
        }
        let lowestFailure = Atomic<Int>(Int.max)
        let failure = Mutex<(index: Int, error: any Error)?>(nil)
        withoutActuallyEscaping(body) { body in
            let work = UncheckedSendable(body)
            DispatchQueue.concurrentPerform(iterations: count) { i in
                if control.isCancelled || i > lowestFailure.load(ordering: .relaxed) { return }
                do {
                    try work.value(i)
                } catch {
                    lowestFailure.min(i, ordering: .relaxed)
                    failure.withLock { current in
                        if current == nil || i < current!.index { current = (i, error) }
                    }
                }
            }
        }
        try control.checkCancellation()
        if let (_, error) = failure.withLock({ $0 }) { throw error }
    }

    /// Calls `body(i)` for every i in 0..<count, on all cores; never fails.
    package static func forEach(_ count: Int, _ body: (Int) -> Void) {
        guard count > 0 else { return }
        if count == 1 || workerCount == 1 {
            for i in 0..<count { body(i) }
            return
        }
        withoutActuallyEscaping(body) { body in
            let work = UncheckedSendable(body)
            DispatchQueue.concurrentPerform(iterations: count) { i in work.value(i) }
        }
    }

    /// 0..<`count` cut into consecutive ranges `size` long (the last
    /// shorter, none when count is 0): how a loop over a long array splits
    /// among the cores with ``map(_:control:_:)`` or ``forEach(_:control:_:)``,
    /// block b taking `blocks[b]`. Results combined in block order are the
    /// same on any number of cores. The default, 64 Ki elements, repays a
    /// task and still balances the cores.
    package static func blocks(of count: Int, size: Int = 65_536) -> [Range<Int>] {
        stride(from: 0, to: count, by: size).map { $0..<min(count, $0 + size) }
    }

    /// Calls `body` with 0..<`count` cut into consecutive ranges `size`
    /// long (the last shorter), one task each, on all cores: the rows of
    /// a grid a few at a time. Failures as ``forEach(_:control:_:)``; a
    /// cancelled `control` starts no more ranges.
    package static func forEachRange(
        of count: Int, size: Int, control: ComputeControl = .none, _ body: (Range<Int>) throws -> Void
    ) throws {
        precondition(size > 0, "ranges of no size")
        try forEach((count + size - 1) / size, control: control) { b in
            try body(b * size..<min(count, (b + 1) * size))
        }
    }

    /// `[body(0), …, body(count − 1)]`, computed on all cores, in index
    /// order whatever the thread timing. Failures as ``forEach(_:control:_:)``.
    package static func map<T>(_ count: Int, control: ComputeControl = .none, _ body: (Int) throws -> T) throws -> [T] {
        var slots = [T?](repeating: nil, count: count)
        do {
            try slots.withUnsafeMutableBufferPointer { slots in
                let slots = UncheckedSendable(slots)
                try forEach(count, control: control) { i in slots.value[i] = try body(i) }
            }
        } catch {
            // What was done is freed off the caller's path, so a cancel
            // throws at once however much it was.
            DeferredRelease.release(UncheckedSendable(consume slots))
            throw error
        }
        return slots.map { $0! }
    }

    /// Writes `count` zeros from `start`, by blocks of 2 MB on all cores:
    /// `calloc` and `[Double](repeating: 0, count:)` clear memory they
    /// reuse on the caller's core alone.
    package static func clear(_ start: UnsafeMutablePointer<Double>, count: Int) {
        let chunk = 1 << 18
        let start = UncheckedSendable(start)
        forEach((count + chunk - 1) / chunk) { c in
            (start.value + c * chunk).initialize(repeating: 0, count: min(chunk, count - c * chunk))
        }
    }

    /// `count` zeros, written by blocks on all cores (``clear(_:count:)``).
    package static func zeros(_ count: Int) -> [Double] {
        [Double](unsafeUninitializedCapacity: count) { out, initialized in
            if let start = out.baseAddress { clear(start, count: count) }
            initialized = count
        }
    }

    /// Three arrays of `count` doubles that `body` fills by blocks on all
    /// cores (not cleared first: every element must be written once):
    /// `body(k, blocks(of: count)[k], a, b, c)` for each of
    /// ``blocks(of:size:)``'s blocks, with the start of each array, where
    /// the block may write any elements (its own, or places it alone owns).
    package static func threeArrays(
        count: Int, control: ComputeControl = .none,
        _ body: (
            Int, Range<Int>, UnsafeMutablePointer<Double>, UnsafeMutablePointer<Double>, UnsafeMutablePointer<Double>
        ) throws -> Void
    ) throws -> ([Double], [Double], [Double]) {
        func uninitialized() -> [Double] { [Double](unsafeUninitializedCapacity: count) { _, n in n = count } }
        var (a, b, c) = (uninitialized(), uninitialized(), uninitialized())
        try a.withUnsafeMutableBufferPointer { a in
            try b.withUnsafeMutableBufferPointer { b in
                try c.withUnsafeMutableBufferPointer { c in
                    let out = UncheckedSendable((a.baseAddress, b.baseAddress, c.baseAddress))
                    let ranges = blocks(of: count)
                    try forEach(ranges.count, control: control) { k in
                        let (a, b, c) = out.value
                        try body(k, ranges[k], a!, b!, c!)
                    }
                }
            }
        }
        return (a, b, c)
    }

    /// `[body(0), …, body(count − 1)]`, computed on all cores; never fails.
    package static func map<T>(_ count: Int, _ body: (Int) -> T) -> [T] {
        var slots = [T?](repeating: nil, count: count)
        slots.withUnsafeMutableBufferPointer { slots in
            let slots = UncheckedSendable(slots)
            forEach(count) { i in slots.value[i] = body(i) }
        }
        return slots.map { $0! }
    }
}

/// A value handed across threads where the caller guarantees that the
/// threads touch disjoint parts of it.
package struct UncheckedSendable<Value>: @unchecked Sendable {
    package let value: Value
    package init(_ value: Value) { self.value = value }
}
