import Foundation
import Synchronization

/// A stage of the computation, for progress reports.
public enum HeatMapStage: String, Sendable, Hashable, CaseIterable {
    /// Reading input.
    case read
    /// Projecting points to the plane.
    case project
    /// Filling the density grid.
    case density
    /// Choosing thresholds.
    case levels
    /// Tracing contour rings.
    case contour
    /// Smoothing rings.
    case smooth
    /// Nesting rings into polygons and bands.
    case assemble
    /// Binning into hexagons or squares.
    case bin
    /// Writing output.
    case export
}

/// One progress report: a stage and how far it is, 0...1.
public struct HeatMapProgress: Sendable, Hashable {
    /// The stage running.
    public var stage: HeatMapStage
    /// Fraction of the stage done, 0...1.
    public var fraction: Double
    /// Creates a report.
    public init(stage: HeatMapStage, fraction: Double) {
        self.stage = stage
        self.fraction = fraction
    }
}

/// A thread-safe cancellation flag that worker threads can poll.
///
/// `Task.isCancelled` is false on threads the task did not start (such as
/// `DispatchQueue.concurrentPerform` workers), so the async API sets this
/// flag from a cancellation handler and every stage polls it.
public final class CancellationFlag: Sendable {
    private let flag = Atomic<Bool>(false)
    /// Creates an unset flag.
    public init() {}
    /// Sets the flag; every later check throws `CancellationError`.
    public func cancel() { flag.store(true, ordering: .relaxed) }
    /// Whether the flag is set.
    public var isCancelled: Bool { flag.load(ordering: .relaxed) }
}

/// What every stage gets: a way to learn it should stop, and a way to say
/// how far it is. Cheap to copy and to check.
public struct ComputeControl: Sendable {
    /// The flag polled by ``checkCancellation()``; nil never cancels.
    public var cancellation: CancellationFlag?
    /// Receives progress reports; may be called from any thread.
    public var progress: (@Sendable (HeatMapProgress) -> Void)?

    /// Creates a control.
    public init(cancellation: CancellationFlag? = nil, progress: (@Sendable (HeatMapProgress) -> Void)? = nil) {
        self.cancellation = cancellation
        self.progress = progress
    }

    /// A control that never cancels and reports nothing.
    public static let none = ComputeControl()

    /// Whether the work should stop.
    @inline(__always) public var isCancelled: Bool { cancellation?.isCancelled ?? false }

    /// Throws `CancellationError` when the work should stop.
    @inline(__always) public func checkCancellation() throws {
        if let cancellation, cancellation.isCancelled { throw CancellationError() }
    }

    /// Starts a stage: throws `CancellationError` if the work should stop
    /// (so a cancel during one stage's last report never lets the next one
    /// begin), then reports the stage at 0.
    package func begin(_ stage: HeatMapStage) throws {
        try checkCancellation()
        report(stage, 0)
    }

    /// Reports progress of a stage.
    package func report(_ stage: HeatMapStage, _ fraction: Double) {
        progress?(HeatMapProgress(stage: stage, fraction: min(max(fraction, 0), 1)))
    }
}
