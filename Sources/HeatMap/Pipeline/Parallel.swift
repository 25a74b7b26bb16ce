import Dispatch
import Foundation
import Synchronization

/// Runs loop bodies on every core.
///
/// The density stages split their work so that no two iterations write the
/// same memory (disjoint row bands, disjoint point chunks); the compiler
/// cannot see that through raw pointers, so the body is handed to
/// `concurrentPerform` unchecked. Results never depend on which thread runs
/// which iteration.
enum Parallel {
    /// The number of threads worth splitting work for.
    static var workerCount: Int { max(1, ProcessInfo.processInfo.activeProcessorCount) }

    /// Calls `body(i)` for every i in 0..<count, on all cores when count > 1.
    ///
    /// After the first error no further iteration starts; the error of the
    /// lowest failing index is rethrown, so a run fails the same way whatever
    /// the thread timing.
    static func forEach(_ count: Int, _ body: (Int) throws -> Void) throws {
        guard count > 0 else { return }
        if count == 1 || workerCount == 1 {
            for i in 0..<count { try body(i) }
            return
        }
        let failure = Mutex<(index: Int, error: any Error)?>(nil)
        let stop = Atomic<Bool>(false)
        withoutActuallyEscaping(body) { body in
            let work = UncheckedSendable(body)
            DispatchQueue.concurrentPerform(iterations: count) { i in
                if stop.load(ordering: .relaxed) { return }
                do {
                    try work.value(i)
                } catch {
                    stop.store(true, ordering: .relaxed)
                    failure.withLock { current in
                        if current == nil || i < current!.index { current = (i, error) }
                    }
                }
            }
        }
        if let (_, error) = failure.withLock({ $0 }) { throw error }
    }
}

/// A value handed across threads where the caller guarantees that the
/// threads touch disjoint parts of it.
struct UncheckedSendable<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
