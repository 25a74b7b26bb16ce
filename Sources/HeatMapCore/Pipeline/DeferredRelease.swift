import Foundation

/// Releases what a cancelled stage or a dropped result had made on one
/// background thread named `heatmap-release`, so that a `CancellationError`
/// reaches the caller at once: freeing a gigabyte held in a million arrays
/// takes longer than the 50 ms a cancel may.
///
/// The value is moved into a box that the release thread empties, so the
/// free happens there only if the caller holds no other reference: pass
/// locals with `consume`. References the caller cannot consume (a class's
/// stored properties in its `deinit`, a temporary's copies) are usually let
/// go within microseconds; the release thread waits ``grace`` after each
/// hand-over so that, even on a busy machine, it holds the last one.
package enum DeferredRelease {
    /// The name of the thread that frees (for profilers and benchmarks).
    static let threadName = "heatmap-release"
    /// How long a handed-over value waits before it is dropped.
    static let grace: TimeInterval = 0.05

    /// Keeps `value` alive until the release thread drops it.
    package static func release<T: Sendable>(_ value: consuming T) {
        let box = ReleaseBox(value)
        ReleaseThread.shared.enqueue(box)
    }
}

/// What the release thread drops: emptied there, whoever holds the box.
private protocol Emptiable: AnyObject, Sendable {
    func empty()
}

private final class ReleaseBox<T: Sendable>: Emptiable, @unchecked Sendable {
    private var value: T?
    init(_ value: consuming T) { self.value = consume value }
    func empty() { value = nil }
}

/// One long-lived thread that drops the queued values in order.
private final class ReleaseThread: @unchecked Sendable {
    static let shared = ReleaseThread()

    private let condition = NSCondition()
    private var pending: [(box: any Emptiable, at: Date)] = []

    private init() {
        let thread = Thread { [unowned self] in self.run() }
        thread.name = DeferredRelease.threadName
        thread.qualityOfService = .utility
        thread.start()
    }

    func enqueue(_ box: any Emptiable) {
        condition.lock()
        pending.append((box, Date()))
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
            for (box, at) in batch {
                let wait = DeferredRelease.grace - Date().timeIntervalSince(at)
                if wait > 0 { Thread.sleep(forTimeInterval: wait) }
                box.empty()
            }
        }
    }
}
