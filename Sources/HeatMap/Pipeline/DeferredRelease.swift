import Foundation

/// Releases what a cancelled stage had made on a background thread, so that
/// the `CancellationError` reaches the caller at once: freeing a gigabyte
/// held in a million arrays takes longer than the 50 ms a cancel may.
enum DeferredRelease {
    /// Keeps `value` alive until a utility-priority thread drops it.
    static func release<T: Sendable>(_ value: T) {
        DispatchQueue.global(qos: .utility).async { withExtendedLifetime(value) {} }
    }
}
