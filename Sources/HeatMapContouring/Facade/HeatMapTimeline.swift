import Foundation
import HeatMapCore
import HeatMapDensity

/// The density of points over time, frame by frame, with one grid, one
/// kernel radius and one set of thresholds for every frame, so that a
/// colour means the same density in every frame (docs/time.md).
///
/// ```swift
/// let timeline = try await HeatMapTimeline.prepare(
///     fixes, configuration: HeatMapConfiguration(),
///     frames: TimeFrameOptions(step: TimeStep(1, .month), window: TimeStep(3, .month)))
/// print(timeline.thresholds)                 // known before any frame
/// for try await frame in timeline.frames {   // in order, one at a time
///     let bands = try await frame.contours()
///     …
/// }
/// ```
///
/// ``prepare(_:configuration:frames:progress:)`` does the heavy work off
/// the caller's actor: it plans the grid and radius over all points, fills
/// each time interval's grid once (a point is deposited once however many
/// frames hold it) and finds the shared thresholds over all frames' values.
/// Iterating ``frames`` then makes each frame as it is asked for (a running
/// sum of interval grids: O(grid) per frame), holding two grids besides
/// the frame handed out; the interval grids wait in a temporary file.
/// Cancelling the awaiting task stops either within milliseconds.
public final class HeatMapTimeline: Sendable {
    /// The frames' time spans, in order.
    public let spans: [TimeFrame]
    /// The thresholds every frame is contoured at (ascending, in the grid's units).
    public let thresholds: [Double]
    /// The kernel radius every frame uses (plane units: metres, or planar units).
    public let radius: Double
    /// The grid every frame is sampled on.
    public let geometry: GridGeometry
    /// The configuration as used (the radius and resolution chosen).
    public let configuration: HeatMapConfiguration
    /// Points used (in at least one frame) and left out (bad, or in no frame).
    public let summary: InputSummary

    private let density: UncheckedSendable<FrameDensity>
    private let progress: (@Sendable (HeatMapProgress) -> Void)?

    private init(
        density: FrameDensity, thresholds: [Double], configuration: HeatMapConfiguration,
        summary: InputSummary, progress: (@Sendable (HeatMapProgress) -> Void)?
    ) {
        spans = density.schedule.frames
        self.thresholds = thresholds
        radius = density.radius
        geometry = density.geometry
        self.configuration = configuration
        self.summary = summary
        self.density = UncheckedSendable(density)
        self.progress = progress
    }

    /// Plans the frames of `points` and their shared thresholds
    /// (`configuration.levelSpacing` over all frames' values), off the
    /// caller's actor. Points with a bad coordinate, weight or time are
    /// left out and counted in ``summary``.
    ///
    /// Points of a ``HeatMapRadial`` type keep their own radius in every
    /// frame (a bad radius leaves the point out, counted); an adaptive
    /// bandwidth (``Bandwidth/adaptive(_:)``) gives each point its
    /// radius from a pilot density over all points, kept in every frame.
    ///
    /// - Parameter progress: called (from any thread) as the stages advance.
    /// - Throws: ``HeatMapError/invalidConfiguration(_:)`` for frame
    ///   options ``TimeFrameOptions/validate()`` refuses, an empty frame
    ///   range or more than 10,000 frames;
    ///   `CancellationError` when the task is cancelled.
    public static func prepare<P: HeatMapTimed>(
        _ points: [P], configuration: HeatMapConfiguration = HeatMapConfiguration(), frames: TimeFrameOptions,
        progress: (@Sendable (HeatMapProgress) -> Void)? = nil
    ) async throws -> HeatMapTimeline {
        try await BackgroundWork.run { control in
            var control = control
            control.progress = progress
            return try prepare(points, configuration: configuration, frames: frames, control: control)
        }
    }

    /// ``prepare(_:configuration:frames:progress:)`` on the calling thread, under `control`.
    public static func prepare<P: HeatMapTimed>(
        _ points: [P], configuration: HeatMapConfiguration, frames: TimeFrameOptions, control: ComputeControl
    ) throws -> HeatMapTimeline {
        try frames.validate()
        let geographic = configuration.projection != .planar
        var batch = PointBatch(capacity: points.count)
        var statistics = InputStatistics()
        var rejected: [String: Int] = [:]
        // A point type with its own radius (HeatMapRadial) keeps it in every frame.
        let radiusOf = PointPreparation.ownRadius(of: P.self)
        var radii: [Double]? = radiusOf == nil ? nil : []
        try points.withUnsafeBufferPointer { buffer in
            for i in buffer.indices {
                let p = buffer[i]
                if i & 0xffff == 0xffff { try control.checkCancellation() }
                let c = p.coordinate, t = p.time.timeIntervalSince1970
                let radius = radiusOf?(buffer.baseAddress! + i)
                let reason: String?
                if !c.latitude.isFinite || !c.longitude.isFinite
                    || (geographic
                        && (PointRule.isOutside(latitude: c.latitude) || PointRule.isOutside(longitude: c.longitude)))
                {
                    reason = "bad coordinate"
                } else if !(p.weight >= 0) || !p.weight.isFinite {
                    reason = "bad weight"
                } else if !t.isFinite {
                    reason = "bad time"
                } else if let radius, !(radius.isFinite && radius > 0) {
                    reason = "bad radius"
                } else {
                    reason = nil
                }
                if let reason {
                    rejected[reason, default: 0] += 1
                    continue
                }
                // Under the mean, a measured point brings its value; any other maps its weight, with kernel weight 1.
                var weight = p.weight, value = Double.nan
                if configuration.estimator == .mean {
                    if let measured = p as? any HeatMapMeasurable {
                        value = measured.value
                        if !value.isFinite {
                            rejected["bad value", default: 0] += 1
                            continue
                        }
                    } else {
                        (value, weight) = (p.weight, 1)
                    }
                }
                let point = InputPoint(
                    latitude: c.latitude, longitude: c.longitude, weight: weight, value: value, time: t)
                batch.append(point)
                statistics.add(point)
                if let radius { radii?.append(radius) }
            }
        }
        try configuration.checkSettings()
        let density = try FrameDensity.make(
            points: batch, radii: radii, statistics: statistics, configuration: configuration,
            frames: frames, control: control)
        let thresholds = try density.thresholds(
            spacing: configuration.levelSpacing,
            levelCount: configuration.contourLevels, control: control)
        if batch.count > density.pointsInFrames { rejected["in no frame"] = batch.count - density.pointsInFrames }
        return HeatMapTimeline(
            density: density, thresholds: thresholds, configuration: density.configuration,
            summary: InputSummary(used: density.pointsInFrames, rejected: rejected),
            progress: control.progress)
    }

    /// The frames, in order, each made when asked for (off the caller's actor).
    public var frames: Frames { Frames(timeline: self) }

    /// The frames as an `AsyncSequence`.
    public struct Frames: AsyncSequence, Sendable {
        public typealias Element = HeatMapFrame
        let timeline: HeatMapTimeline

        public func makeAsyncIterator() -> Iterator { Iterator(timeline: timeline) }

        /// Makes frame after frame; each iterator starts from the first.
        public struct Iterator: AsyncIteratorProtocol {
            private let timeline: HeatMapTimeline
            private let stepper: UncheckedSendable<Box>

            init(timeline: HeatMapTimeline) {
                self.timeline = timeline
                stepper = UncheckedSendable(Box(FrameDensity.FrameStepper(timeline.density.value)))
            }

            /// The next frame, or nil after the last.
            /// - Throws: `CancellationError` when the task is cancelled.
            public mutating func next() async throws -> HeatMapFrame? {
                let stepper = self.stepper, timeline = self.timeline
                return try await BackgroundWork.run { control in
                    guard let (span, grid) = try stepper.value.stepper.next(control: control) else { return nil }
                    timeline.progress?(
                        HeatMapProgress(
                            stage: .export,
                            fraction: Double(span.index + 1) / Double(timeline.spans.count)))
                    return HeatMapFrame(
                        span: span, grid: grid, thresholds: timeline.thresholds,
                        configuration: timeline.configuration)
                }
            }
        }

        /// The stepper, advanced by one frame at a time (never concurrently: an iterator is used by one task).
        final class Box {
            var stepper: FrameDensity.FrameStepper
            init(_ stepper: FrameDensity.FrameStepper) { self.stepper = stepper }
        }
    }
}

/// One frame of a ``HeatMapTimeline``: its time span and its density grid.
public struct HeatMapFrame: Sendable {
    /// Its index and span (start ≤ t < end, seconds since 1970 UTC).
    public let span: TimeFrame
    /// The density of the points in the frame (the timeline's grid and radius).
    public let grid: DensityGrid
    /// The thresholds shared by every frame.
    public let thresholds: [Double]
    /// The configuration the frame was made with.
    public let configuration: HeatMapConfiguration

    /// When the frame starts.
    public var start: Date { Date(timeIntervalSince1970: span.start) }
    /// When it ends (excluded).
    public var end: Date { Date(timeIntervalSince1970: span.end) }

    /// The frame's contours at the shared thresholds (every level kept, so
    /// levels are numbered and coloured alike in every frame), off the
    /// caller's actor. O(cells + vertices).
    /// - Throws: `CancellationError` when the task is cancelled.
    public func contours(kinds: ContourKinds = .all) async throws -> HeatMapContours {
        let grid = grid, thresholds = thresholds, configuration = configuration
        return try await BackgroundWork.run { control in
            try HeatMapContours.compute(
                from: grid, thresholds: thresholds, configuration: configuration,
                control: control, kinds: kinds)
        }
    }
}
