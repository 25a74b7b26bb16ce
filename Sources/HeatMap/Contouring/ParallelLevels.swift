import Foundation
import Synchronization

/// Runs independent per-level work on every core, with results in level
/// order whatever the thread timing (so output is deterministic).
enum ParallelLevels {
    /// `body(0) … body(count − 1)`, in parallel, in order.
    ///
    /// Stops starting new work once the control is cancelled or a body has
    /// thrown, then rethrows the first error (cancellation as
    /// `CancellationError`) without waiting for the finished levels' results
    /// to be freed.
    static func map<T: Sendable>(count: Int, control: ComputeControl,
                                 _ body: @Sendable (Int) throws -> T) throws -> [T] {
        guard count > 0 else { return [] }
        if count == 1 { return [try body(0)] }
        let results = Mutex<[T?]>(Array(repeating: nil, count: count))
        let failure = Mutex<(any Error)?>(nil)
        DispatchQueue.concurrentPerform(iterations: count) { i in
            if control.isCancelled || failure.withLock({ $0 != nil }) { return }
            do {
                let value = try body(i)
                results.withLock { $0[i] = value }
            } catch {
                failure.withLock { if $0 == nil { $0 = error } }
            }
        }
        do {
            if let error = failure.withLock({ $0 }) { throw error }
            try control.checkCancellation()
            return try results.withLock { slots in
                try slots.map { slot in
                    guard let value = slot else { throw CancellationError() }
                    return value
                }
            }
        } catch {
            // The levels done so far are released off the caller's path.
            DeferredRelease.release(results.withLock { slots in
                let done = slots
                slots = []
                return done
            })
            throw error
        }
    }
}
