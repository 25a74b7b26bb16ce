import Foundation

/// Releases what a cancelled stage or a dropped result had made on one
/// background thread named `heatmap-release`, so that a `CancellationError`
/// reaches the caller at once: freeing a gigabyte held in a million arrays
/// takes longer than the 50 ms a cancel may.
package enum DeferredRelease {
    /// The name of the thread that frees (for profilers and benchmarks).
    static let threadName = "heatmap-release"

    /// Keeps `value` alive until the release thread drops it.
    package static func release<T: Sendable>(_ value: T) {
        ReleaseThread.shared.enqueue { withExtendedLifetime(value) {} }
    }
}

/// One long-lived thread that runs the queued releases in order.
private final class ReleaseThread: @unchecked Sendable {
    package static let shared = ReleaseThread()

    private let condition = NSCondition()
    private var pending: [@Sendable () -> Void] = []

    private init() {
        let thread = Thread { [unowned self] in self.run() }
        thread.name = DeferredRelease.threadName
        thread.qualityOfService = .utility
        thread.start()
    }

    func enqueue(_ work: @escaping @Sendable () -> Void) {
        condition.lock()
        pending.append(work)
        condition.signal()
        condition.unlock()
    }

    private func run() {
        Thread.current.name = DeferredRelease.threadName
        while true {
            condition.lock()
            while pending.isEmpty { condition.wait() }
            let batch = pending
            pending = []
            condition.unlock()
            for work in batch { work() }
        }
    }
}
