import Foundation
import HeatMapCore

/// Points with times that can be passed over several times, in order.
protocol TimedPointSource {
    /// What the first pass learned (count, times' range…).
    var statistics: InputStatistics { get }
    /// Hands out every point (with its time) in batches, in the same order each time.
    func forEachTimedBatch(control: ComputeControl, _ body: (PointBatch) throws -> Void) throws
}

extension StreamedPoints: TimedPointSource {
    func forEachTimedBatch(control: ComputeControl, _ body: (PointBatch) throws -> Void) throws {
        try forEachBatch(control: control, body)
    }
}

/// The density of every frame of a ``FrameSchedule`` on one grid, with one
/// kernel radius, in memory O(grid) whatever the number of points or frames.
///
/// Made in four passes over the points: the planner's (the box and the
/// radius rule over all points, as without time), a count of the points
/// in each elementary interval of the schedule, a pass that writes the
/// points projected and sorted by interval to a scratch file (an external
/// counting sort in a few MB of buffers), and one that fills each
/// interval's grid once from its own points and keeps it in a second
/// scratch file. A frame is the sum of its run of intervals, kept as a
/// running sum from one frame to the next (intervals entering are added,
/// those leaving subtracted), so a sliding window costs two grid reads a
/// frame, not a new density. Frames are made in order, one at a time,
/// as often as asked (``forEachFrame(control:_:)``).
package final class FrameDensity {
    /// The frames and their intervals.
    package let schedule: FrameSchedule
    /// The grid's plan: radius, resolution, geometry (shared by every frame).
    let plan: DensityPlanner.Plan
    /// The kernel radius (plane units), shared by every frame.
    package var radius: Double { plan.radius }
    /// The grid's nodes, shared by every frame.
    package var geometry: GridGeometry { plan.geometry }
    /// Whether the `auto` radius was raised to half a cell.
    package var radiusRaised: Bool { plan.radiusRaised }
    /// The configuration as used: the radius and resolution chosen.
    package private(set) var configuration = HeatMapConfiguration()
    /// The plane of the grid.
    package let projection: PlaneProjection
    /// Density or kernel-weighted mean (only the density has frames so far).
    package let estimator: DensityEstimator
    /// Points held by at least one frame.
    package let pointsInFrames: Int
    /// Points in each elementary interval.
    let intervalCounts: [Int]

    fileprivate let grids: ScratchFile

    private init(
        schedule: FrameSchedule, plan: DensityPlanner.Plan, projection: PlaneProjection,
        estimator: DensityEstimator, pointsInFrames: Int, intervalCounts: [Int], grids: ScratchFile
    ) {
        self.schedule = schedule
        self.plan = plan
        self.projection = projection
        self.estimator = estimator
        self.pointsInFrames = pointsInFrames
        self.intervalCounts = intervalCounts
        self.grids = grids
    }

    /// Nodes per grid.
    package var nodes: Int { plan.geometry.count }

    /// Plans the grid over every point of `planning` (the same points as
    /// `timed`, projected) and fills each interval's grid.
    ///
    /// - Throws: ``HeatMapError/invalidConfiguration(_:)`` for a schedule
    ///   that cannot be made (no times, an empty range, too many frames,
    ///   the mean estimator); `CancellationError`; what the sources throw.
    static func make<P: PlanePointSource, T: TimedPointSource>(
        planning: P, timed: T, configuration: HeatMapConfiguration, frames options: TimeFrameOptions,
        control: ComputeControl
    ) throws -> FrameDensity {
        guard configuration.estimator == .density else {
            throw HeatMapError.invalidConfiguration(
                "frames map the density; the kernel-weighted mean (--value) has no frames yet")
        }
        let stats = timed.statistics
        let schedule = try FrameSchedule(options, earliest: stats.minTime, latest: stats.maxTime)
        let plan = try DensityPlanner.plan(planning, configuration: configuration, control: control)
        let projection = planning.projection
        let nodes = plan.geometry.count
        let intervals = schedule.intervalCount
        // Interval grids are kept on disk: say so before filling a disk.
        let scratchBytes = Double(intervals) * Double(nodes) * 8
        if scratchBytes > 64e9 {
            throw HeatMapError.invalidConfiguration(
                "\(schedule.frames.count) frames on a grid of \(nodes) nodes need \(Int(scratchBytes / 1e9)) GB of temporary space (at most 64): use fewer frames or a coarser grid"
            )
        }

        // Pass: how many points each interval holds.
        var counts = [Int](repeating: 0, count: intervals)
        try timed.forEachTimedBatch(control: control) { batch in
            for i in 0..<batch.count {
                if let j = schedule.interval(of: batch.time[i]) { counts[j] += 1 }
                if i & 0xfffff == 0xfffff { try control.checkCancellation() }
            }
        }
        var offsets = [Int](repeating: 0, count: intervals + 1)
        for j in 0..<intervals { offsets[j + 1] = offsets[j] + counts[j] }
        let held = offsets[intervals]

        // Pass: the points projected, sorted by interval (x, y, w records).
        let sorted = try ScratchFile()
        let capacity = max(8, (1 << 19) / max(3 * intervals, 1))
        var buffers = [[Double]](repeating: [], count: intervals)
        var written = offsets
        func flush(_ j: Int) throws {
            try buffers[j].withUnsafeBufferPointer { try sorted.write($0, at: 3 * written[j]) }
            written[j] += buffers[j].count / 3
            buffers[j].removeAll(keepingCapacity: true)
        }
        let projector = PointProjector(projection)
        var done = 0
        try timed.forEachTimedBatch(control: control) { batch in
            for i in 0..<batch.count {
                guard let j = schedule.interval(of: batch.time[i]) else { continue }
                let q = projector.plane(latitude: batch.latitude[i], longitude: batch.longitude[i])
                if buffers[j].capacity == 0 { buffers[j].reserveCapacity(3 * capacity) }
                buffers[j].append(q.x)
                buffers[j].append(q.y)
                buffers[j].append(batch.weight[i])
                if buffers[j].count == 3 * capacity { try flush(j) }
                if i & 0xffff == 0xffff { try control.checkCancellation() }
            }
            done += batch.count
            control.report(.project, Double(done) / Double(max(stats.count, 1)))
        }
        for j in 0..<intervals where !buffers[j].isEmpty { try flush(j) }
        buffers = []

        // Each interval's grid, once.
        let grids = try ScratchFile()
        var quiet = control
        quiet.progress = nil
        let chunk = 1 << 18
        var records = [Double](repeating: 0, count: 3 * chunk)
        var filled = 0
        control.report(.density, 0)
        for j in 0..<intervals where counts[j] > 0 {
            var accumulator = try DensityAccumulator(
                geometry: plan.geometry, radius: plan.radius,
                projection: projection, estimator: .density,
                method: configuration.densityMethod, expectedCount: counts[j])
            var k = 0
            while k < counts[j] {
                let n = min(chunk, counts[j] - k)
                try records.withUnsafeMutableBufferPointer {
                    try sorted.read(
                        into: UnsafeMutableBufferPointer(rebasing: $0[0..<(3 * n)]), at: 3 * (offsets[j] + k))
                }
                var points = PlanePoints()
                points.reserveCapacity(n)
                for r in 0..<n {
                    points.append(x: records[3 * r], y: records[3 * r + 1], weight: records[3 * r + 2], value: nil)
                }
                try accumulator.add(points, control: quiet)
                k += n
            }
            let grid = try (consume accumulator).finish(control: quiet)
            try grid.values.withUnsafeBufferPointer { try grids.write($0, at: j * nodes) }
            filled += counts[j]
            control.report(.density, Double(filled) / Double(max(held, 1)))
        }
        control.report(.density, 1)
        let made = FrameDensity(
            schedule: schedule, plan: plan, projection: projection, estimator: .density,
            pointsInFrames: held, intervalCounts: counts, grids: grids)
        var used = configuration
        used.radius = plan.radius
        used.gridResolution = plan.resolution
        used.bandwidth = .fixed
        used.resolutionFromData = false
        made.configuration = used
        return made
    }

    /// The frames of points read by ``StreamedPoints`` (with times).
    /// - Parameter resolutionFromData: as ``StreamedDensity/compute(from:configuration:resolutionFromData:control:)``.
    package static func make(
        streamed points: StreamedPoints, configuration: HeatMapConfiguration,
        resolutionFromData: Bool = false, frames options: TimeFrameOptions,
        control: ComputeControl
    ) throws -> FrameDensity {
        var asked = configuration
        if resolutionFromData { asked.resolutionFromData = true }
        let source = StreamedPointSource(
            points: points, configuration: configuration,
            batchSize: StreamedPoints.batchSize)
        return try make(planning: source, timed: points, configuration: asked, frames: options, control: control)
    }

    /// Hands out every frame's grid, in order. Memory: three grids.
    /// - Throws: `CancellationError`; a scratch file that cannot be read; what `body` throws.
    package func forEachFrame(control: ComputeControl, _ body: (TimeFrame, DensityGrid) throws -> Void) throws {
        var stepper = FrameStepper(self)
        while let (frame, grid) = try stepper.next(control: control) { try body(frame, grid) }
    }

    /// Makes the frames one at a time, in order: a running sum of the
    /// intervals' grids, the ones entering added and the ones leaving
    /// subtracted. Memory: two grids and the frame handed out.
    package struct FrameStepper {
        private let density: FrameDensity
        private var sum: [Double]
        private var scratch: [Double]
        private var current = 0..<0
        private var position = 0

        package init(_ density: FrameDensity) {
            self.density = density
            sum = [Double](repeating: 0, count: density.nodes)
            scratch = sum
        }

        /// The next frame and its grid; nil after the last.
        package mutating func next(control: ComputeControl) throws -> (TimeFrame, DensityGrid)? {
            let schedule = density.schedule
            guard position < schedule.frames.count else { return nil }
            try control.checkCancellation()
            let frame = schedule.frames[position], run = schedule.runs[position]
            position += 1
            if run.lowerBound >= current.upperBound || run.upperBound <= current.lowerBound
                || run.upperBound < current.upperBound || run.lowerBound < current.lowerBound
            {
                // No overlap with the last frame: start again.
                for i in 0..<sum.count { sum[i] = 0 }
                for j in run { try apply(j, sign: 1) }
            } else {
                for j in current.upperBound..<run.upperBound { try apply(j, sign: 1) }
                for j in current.lowerBound..<run.lowerBound { try apply(j, sign: -1) }
            }
            current = run
            var values = sum
            // Subtraction leaves rounding noise where nothing is left: a density is never below 0.
            for i in 0..<values.count where values[i] < 0 { values[i] = 0 }
            let grid = DensityGrid(
                geometry: density.plan.geometry, values: values, projection: density.projection,
                radius: density.plan.radius, estimator: density.estimator,
                units: density.projection.densityUnits)
            return (frame, grid)
        }

        private mutating func apply(_ j: Int, sign: Double) throws {
            guard density.intervalCounts[j] > 0 else { return }
            let nodes = density.nodes
            try scratch.withUnsafeMutableBufferPointer { try density.grids.read(into: $0, at: j * nodes) }
            sum.withUnsafeMutableBufferPointer { s in
                scratch.withUnsafeBufferPointer { g in
                    if sign > 0 { for i in 0..<s.count { s[i] += g[i] } } else { for i in 0..<s.count { s[i] -= g[i] } }
                }
            }
        }
    }

    /// The frames of points held in memory (with times), projected with
    /// `configuration.projection` centred on them.
    package static func make(
        points batch: PointBatch, statistics: InputStatistics,
        configuration: HeatMapConfiguration, frames options: TimeFrameOptions,
        control: ComputeControl
    ) throws -> FrameDensity {
        let projection = statistics.projection(configuration.projection)
        var planes = PlanePoints()
        planes.reserveCapacity(batch.count)
        let projector = PointProjector(projection)
        for i in 0..<batch.count {
            if i & 0xffff == 0xffff { try control.checkCancellation() }
            let q = projector.plane(latitude: batch.latitude[i], longitude: batch.longitude[i])
            planes.append(x: q.x, y: q.y, weight: batch.weight[i], value: nil)
        }
        return try make(
            planning: MemoryPointSource(points: planes, projection: projection),
            timed: MemoryTimedSource(batch: batch, statistics: statistics), configuration: configuration,
            frames: options, control: control)
    }
}

/// Points with times held in memory, as ``FrameDensity`` passes over them.
struct MemoryTimedSource: TimedPointSource {
    let batch: PointBatch
    let statistics: InputStatistics

    func forEachTimedBatch(control: ComputeControl, _ body: (PointBatch) throws -> Void) throws {
        try body(batch)
    }
}
