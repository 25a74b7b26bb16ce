import Foundation

/// Runs synchronous, cancellation-polling work off the caller's actor.
package enum BackgroundWork {
    /// Runs `body` on a detached task. Cancelling the calling task sets the
    /// control's flag, which every stage polls, and the call throws
    /// `CancellationError` as soon as the work notices.
    package static func run<T: Sendable>(_ body: @escaping @Sendable (ComputeControl) throws -> T) async throws -> T {
        let flag = CancellationFlag()
        let control = ComputeControl(cancellation: flag)
        let task = Task.detached(priority: .userInitiated) { try body(control) }
        return try await withTaskCancellationHandler {
            try await task.value
        } onCancel: {
            flag.cancel()
        }
    }
}
