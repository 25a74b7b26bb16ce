import Foundation

extension Parallel {
    /// Makes items 0..<count on every core, a few ahead of the one in use,
    /// and hands them to `consume` on the calling thread in index order —
    /// a writer that formats on all cores while it writes what is made.
    ///
    /// Up to ``workerCount`` + 1 items are in flight (being made, or made
    /// and waiting) whatever they cost, so one large item never holds the
    /// others back, and more while their `cost` stays within `budget`; an
    /// item leaves the room when the consumer takes it. Making the next
    /// items overlaps consuming this one, so the consumer's own work (a
    /// write to a file) is hidden behind the making. O(count) hand-overs
    /// under one lock.
    ///
    /// Failures as ``forEach(_:control:_:)``: a cancel throws
    /// `CancellationError`; otherwise the error of the first failing item in
    /// index order (made or consumed) is rethrown, after every item before
    /// it was consumed, as a serial loop would. Returns only once every
    /// maker thread has stopped.
    package static func ordered<Item>(
        _ count: Int, cost: (Int) -> Int, budget: Int, control: ComputeControl = .none,
        make: (Int) throws -> Item, consume: (Int, Item) throws -> Void
    ) throws {
        guard count > 0 else { return }
        if count == 1 || workerCount == 1 {
            for i in 0..<count {
                try control.checkCancellation()
                do { try consume(i, try make(i)) } catch {
                    try control.checkCancellation()
                    throw error
                }
            }
            return
        }
        let state = OrderedState<Item>(count: count, ahead: workerCount + 1, budget: budget)
        let makers = min(workerCount, count)
        let done = DispatchSemaphore(value: 0)
        try withoutActuallyEscaping(make) { make in
            try withoutActuallyEscaping(cost) { cost in
                // Handed over through the state and dropped before `done` is
                // signalled: the closures must not outlive this block, and a
                // Thread object may outlive its run.
                state.work = (make, cost)
                for _ in 0..<makers {
                    // Threads of their own, not dispatch workers: they block
                    // while waiting for room, and the caller may itself be one.
                    let thread = Thread {
                        state.runMaker(control: control)
                        done.signal()
                    }
                    thread.start()
                }
                // However this ends, the makers stop and are waited for: they
                // borrow what `make` captured.
                defer {
                    state.stop()
                    for _ in 0..<makers { done.wait() }
                    state.work = nil
                }
                for i in 0..<count {
                    let made = state.take(i)
                    do {
                        try consume(i, try made.get())
                    } catch {
                        try control.checkCancellation()
                        throw error
                    }
                }
            }
        }
    }
}

/// What the makers and the consumer of ``Parallel/ordered(_:cost:budget:control:make:consume:)``
/// share, under one condition lock.
private final class OrderedState<Item>: @unchecked Sendable {
    private let condition = NSCondition()
    private let count: Int, ahead: Int, budget: Int
    /// The next item to claim; the next item to consume.
    private var next = 0, using = 0
    /// The cost of the items claimed and not yet taken, and each one's.
    private var inFlight = 0
    private var costs: [Int: Int] = [:]
    private var made: [Int: Result<Item, any Error>] = [:]
    /// The lowest item whose making failed: nothing above it is claimed.
    private var failedAt = Int.max
    private var stopped = false

    package init(count: Int, ahead: Int, budget: Int) {
        (self.count, self.ahead, self.budget) = (count, ahead, budget)
    }

    /// What the makers run: the making and the cost of an item. Set before
    /// they start, cleared once they have stopped.
    package var work: ((Int) throws -> Item, (Int) -> Int)?

    /// A maker thread's loop: claims the next item while there is room, makes it, hands it over.
    func runMaker(control: ComputeControl) {
        condition.lock()
        defer { condition.unlock() }
        guard let (body, cost) = work else { return }
        while !stopped, next < count, next <= failedAt {
            let i = next, c = cost(i)
            guard i - using < ahead || inFlight + c <= budget else {
                condition.wait()
                continue
            }
            next += 1
            inFlight += c
            costs[i] = c
            condition.unlock()
            let result = Result { () throws -> Item in
                try control.checkCancellation()
                return try body(i)
            }
            condition.lock()
            if case .failure = result { failedAt = min(failedAt, i) }
            made[i] = result
            condition.broadcast()
        }
    }

    /// Waits for item i and takes it from the shelf, which makes room for the next.
    package func take(_ i: Int) -> Result<Item, any Error> {
        condition.lock()
        defer { condition.unlock() }
        while made[i] == nil { condition.wait() }
        using = i + 1
        inFlight -= costs.removeValue(forKey: i)!
        condition.broadcast()
        return made.removeValue(forKey: i)!
    }

    package func stop() {
        condition.lock()
        stopped = true
        // What was made and not used is freed off the caller's path.
        let unused = made
        made = [:]
        condition.broadcast()
        condition.unlock()
        DeferredRelease.release(UncheckedSendable(unused))
    }
}
