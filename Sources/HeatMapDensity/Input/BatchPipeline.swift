import Foundation
import HeatMapCore

/// Makes batches on a thread of its own while the calling thread uses the
/// ones made before: reading and projecting the next points overlaps the
/// density work on the last ones.
///
/// Items arrive in the order made; at most ``depth`` wait. The first error
/// stops both sides and is rethrown: the producer's after every item made
/// before it was used (as a serial loop would), or the consumer's.
/// ``run(produce:consume:)`` returns only once the producer's thread is done.
enum BatchPipeline {
    /// Items made ahead, at most.
    package static let depth = 2

    /// The hand-over between the two threads, under one condition lock.
    private final class Channel<Item>: @unchecked Sendable {
        let condition = NSCondition()
        package var items: [Item] = []
        package var finished = false
        var stopped = false
        package var failure: (any Error)?
        /// The producer's work, until its thread takes it.
        var work: (((Item) throws -> Void) throws -> Void)?
    }

    /// Calls `produce` on a new thread, handing it a `yield` that passes
    /// each item to `consume`, called on this thread in order.
    ///
    /// - Throws: what `produce` or `consume` throws, whichever comes first.
    package static func run<Item>(
        produce: ((Item) throws -> Void) throws -> Void,
        consume: (Item) throws -> Void
    ) throws {
        let channel = Channel<Item>()
        let done = DispatchSemaphore(value: 0)
        try withoutActuallyEscaping(produce) { produce in
            // Handed over through the channel and dropped before `done` is
            // signalled: the closure must not outlive this block, and the
            // Thread object may outlive its run.
            channel.work = produce
            // A thread of its own, not a dispatch worker: it blocks while the
            // consumer's parallel loops need every dispatch worker.
            let thread = Thread {
                var work = channel.condition.withLock {
                    defer { channel.work = nil }
                    return channel.work
                }
                do {
                    try work? { item in
                        channel.condition.lock()
                        defer { channel.condition.unlock() }
                        while channel.items.count >= depth && !channel.stopped { channel.condition.wait() }
                        if channel.stopped { throw CancellationError() }
                        channel.items.append(item)
                        channel.condition.broadcast()
                    }
                } catch {
                    channel.condition.lock()
                    if !channel.stopped { channel.failure = error }
                    channel.condition.unlock()
                }
                work = nil
                channel.condition.lock()
                channel.finished = true
                channel.condition.broadcast()
                channel.condition.unlock()
                done.signal()
            }
            thread.start()
            // However this ends, the producer stops and is waited for: it
            // borrows what `produce` captured.
            defer {
                channel.condition.lock()
                channel.stopped = true
                channel.condition.broadcast()
                channel.condition.unlock()
                done.wait()
            }
            while true {
                channel.condition.lock()
                while channel.items.isEmpty && !channel.finished { channel.condition.wait() }
                guard !channel.items.isEmpty else {
                    let failure = channel.failure
                    channel.condition.unlock()
                    if let failure { throw failure }
                    return
                }
                let item = channel.items.removeFirst()
                channel.condition.broadcast()
                channel.condition.unlock()
                try consume(item)
            }
        }
    }
}
