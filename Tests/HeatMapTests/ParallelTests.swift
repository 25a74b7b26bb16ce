import Foundation
import Synchronization
import Testing

@testable import HeatMapContouring
@testable import HeatMapCore
@testable import HeatMapDensity
@testable import HeatMapFormats

/// The one parallel loop: results in index order, and when iterations fail
/// the same error whatever the thread timing (the lowest failing index, or
/// cancellation when the control is cancelled).
@Suite struct ParallelTests {
    struct Failure: Error, Equatable { let index: Int }

    @Test func mapKeepsIndexOrder() throws {
        for count in [0, 1, 2, 7, 1000] {
            let squares = try Parallel.map(count, control: .none) { i -> Int in
                if i % 97 == 0 { usleep(100) }  // uneven work, so threads finish out of order
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

    /// The ordered loop: every item consumed once, in index order, on the
    /// calling thread, with never more in flight than the rule allows
    /// (one per core and one more, or more while within the budget).
    @Test(arguments: [0, 1, 2, 5, 300])
    func orderedConsumesInOrderWithinItsRoom(count: Int) throws {
        // Items the consumer has begun: the one it holds has left the room.
        let begun = Atomic<Int>(0), furthest = Atomic<Int>(Int.min)
        var consumed: [Int] = []
        let caller = Thread.current
        try Parallel.ordered(count, cost: { $0 % 5 == 0 ? 1_000 : 1 }, budget: 0) { i -> Int in
            furthest.max(i - begun.load(ordering: .relaxed), ordering: .relaxed)
            if i % 7 == 0 { usleep(300) }  // uneven work, so makers finish out of order
            return i * i
        } consume: { i, square in
            begun.add(1, ordering: .relaxed)
            #expect(Thread.current == caller)
            #expect(square == i * i)
            consumed.append(i)
        }
        #expect(consumed == Array(0..<count))
        // Claimed only while fewer than one per core and one more were in
        // flight, counting the one taken and not yet begun.
        #expect(furthest.load(ordering: .relaxed) <= Parallel.workerCount + 1)
    }

    /// The first failure in index order is thrown — a maker's or the
    /// consumer's — after every item before it was consumed; a cancel
    /// throws CancellationError.
    @Test func orderedFailsAsASerialLoopWould() {
        for failing in [[0], [3, 40], [40, 3], [299]] {
            let lowest = failing.min()!
            var consumed: [Int] = []
            #expect(throws: Failure(index: lowest)) {
                try Parallel.ordered(300, cost: { _ in 1 }, budget: 8) { i -> Int in
                    if failing.contains(i) {
                        if i == lowest { usleep(2000) }
                        throw Failure(index: i)
                    }
                    return i
                } consume: { i, _ in
                    consumed.append(i)
                }
            }
            #expect(consumed == Array(0..<lowest))
        }
        var consumed: [Int] = []
        #expect(throws: Failure(index: 17)) {
            try Parallel.ordered(300, cost: { _ in 1 }, budget: 8) {
                $0
            } consume: { i, _ in
                if i == 17 { throw Failure(index: i) }
                consumed.append(i)
            }
        }
        #expect(consumed == Array(0..<17))
        let flag = CancellationFlag()
        let control = ComputeControl(cancellation: flag)
        #expect(throws: CancellationError.self) {
            try Parallel.ordered(300, cost: { _ in 1 }, budget: 8, control: control) { i -> Int in
                if i == 50 { flag.cancel() }
                if i > 50 { throw Failure(index: i) }
                return i
            } consume: { _, _ in
            }
        }
    }

    /// A poll counter polls once the interval is used up, however the work
    /// is counted, reports the units counted since the last poll, and
    /// throws at the first poll after a cancel (not before).
    @Test func aPollCounterPollsOnceEveryIntervalAndReportsWhatItCounted() throws {
        let flag = CancellationFlag()
        let reported = Mutex<[Int]>([])
        var poll = PollCounter(ComputeControl(cancellation: flag), every: 10) { units in
            reported.withLock { $0.append(units) }
        }
        for _ in 0..<25 { try poll.advance() }
        try poll.advance(by: 13)
        #expect(reported.withLock { $0 } == [10, 10, 18])
        flag.cancel()
        try poll.advance(by: 9)
        #expect(throws: CancellationError.self) { try poll.advance() }
        #expect(reported.withLock { $0 } == [10, 10, 18, 10])
        #expect(throws: CancellationError.self) { try poll.check() }
    }

    @Test func blocksCoverTheRangeInOrderWithTheLastShorter() {
        #expect(Parallel.blocks(of: 0).isEmpty)
        #expect(Parallel.blocks(of: 5, size: 5) == [0..<5])
        #expect(Parallel.blocks(of: 11, size: 4) == [0..<4, 4..<8, 8..<11])
        let blocks = Parallel.blocks(of: 200_001)
        #expect(blocks.count == 4 && blocks.last == 196_608..<200_001)
        #expect(zip(blocks, blocks.dropFirst()).allSatisfy { $0.upperBound == $1.lowerBound })
    }
}
