import Foundation
import Synchronization
import Testing
@testable import HeatMap

/// The one parallel loop: results in index order, and when iterations fail
/// the same error whatever the thread timing (the lowest failing index, or
/// cancellation when the control is cancelled).
@Suite struct ParallelTests {
    struct Failure: Error, Equatable { let index: Int }

    @Test func mapKeepsIndexOrder() throws {
        for count in [0, 1, 2, 7, 1000] {
            let squares = try Parallel.map(count, control: .none) { i -> Int in
                if i % 97 == 0 { usleep(100) }   // uneven work, so threads finish out of order
                return i * i
            }
            #expect(squares == (0..<count).map { $0 * $0 })
            #expect(Parallel.map(count) { $0 + 1 } == (0..<count).map { $0 + 1 })
        }
    }

    @Test func everyIterationRunsOnce() throws {
        let hits = Mutex([Int](repeating: 0, count: 5000))
        try Parallel.forEach(5000, control: .none) { i in hits.withLock { $0[i] += 1 } }
        #expect(hits.withLock { $0 } == [Int](repeating: 1, count: 5000))
    }

    /// Many failing indices, the late ones failing fast and the early ones
    /// slowly: the error is always the lowest failing index's.
    @Test(arguments: [[3, 40, 41, 999], [0, 1, 2], [998, 999], [500]])
    func lowestFailingIndexWins(failing: [Int]) {
        let lowest = failing.min()!
        for _ in 0..<20 {
            #expect(throws: Failure(index: lowest)) {
                try Parallel.forEach(1000) { i in
                    if failing.contains(i) {
                        if i == lowest { usleep(2000) }
                        throw Failure(index: i)
                    }
                }
            }
            #expect(throws: Failure(index: lowest)) {
                _ = try Parallel.map(1000) { i -> Int in
                    if failing.contains(i) { throw Failure(index: i) }
                    return i
                }
            }
        }
    }

    /// Every index below the lowest failing one runs, so that one is found.
    @Test func indicesBelowTheFailureAllRun() {
        let ran = Mutex(Set<Int>())
        #expect(throws: Failure(index: 700)) {
            try Parallel.forEach(1000) { i in
                ran.withLock { _ = $0.insert(i) }
                if i >= 700 { throw Failure(index: i) }
            }
        }
        #expect(ran.withLock { $0.isSuperset(of: 0..<701) })
    }

    /// Once the control is cancelled the loop throws CancellationError,
    /// even when bodies threw their own errors.
    @Test func cancellationComesFirst() {
        let flag = CancellationFlag()
        let control = ComputeControl(cancellation: flag)
        for count in [1, 1000] {
            #expect(throws: CancellationError.self) {
                try Parallel.forEach(count, control: control) { i in
                    if i == count / 2 { flag.cancel() }
                    throw Failure(index: i)
                }
            }
        }
        let started = Atomic<Int>(0)
        #expect(throws: CancellationError.self) {
            _ = try Parallel.map(1000, control: control) { i -> Int in
                started.add(1, ordering: .relaxed)
                return i
            }
        }
        #expect(started.load(ordering: .relaxed) == 0)
    }
}
