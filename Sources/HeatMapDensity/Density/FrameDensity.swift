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
    /// Density or kernel-weighted mean.
    package let estimator: DensityEstimator
    /// Points held by at least one frame.
    package let pointsInFrames: Int
    /// Points in each elementary interval.
    let intervalCounts: [Int]

    fileprivate let grids: ScratchFile
    /// For the mean: the lowest value, taken off every value in the numerator's sums.
    fileprivate let shift: Double

    /// A point's measured value for the mean: its value, or its weight when it has none.
    @inline(__always)
    fileprivate static func measured(_ batch: PointBatch, _ i: Int) -> Double {
        batch.value(at: i).isNaN ? batch.weight[i] : batch.value(at: i)
    }

    private init(
        schedule: FrameSchedule, plan: DensityPlanner.Plan, projection: PlaneProjection,
        estimator: DensityEstimator, pointsInFrames: Int, intervalCounts: [Int], grids: ScratchFile,
        shift: Double
    ) {
        self.shift = shift
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

    /// Grids kept per interval: the density's one, or the mean's denominator and numerator.
    var channels: Int { estimator == .mean ? 2 : 1 }

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
        let mean = configuration.estimator == .mean
        let stats = timed.statistics
        let schedule = try FrameSchedule(options, earliest: stats.minTime, latest: stats.maxTime)
        // Radii per point (their own, or an adaptive bandwidth's from a pilot
        // over all points) are planned once, like the grid: a point keeps
        // its radius in every frame that holds it.
        let plan: DensityPlanner.Plan
        var radii: [Double]? = nil
        if configuration.bandwidth.adaptiveRule != nil || planning.carriesRadius {
            let planned = try DensityPlanner.planWithRadii(planning, configuration: configuration, control: control)
            plan = planned.plan
            radii = planned.points.radius
        } else {
            plan = try DensityPlanner.plan(planning, configuration: configuration, control: control)
        }
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
        var lowest = Double.infinity
        try timed.forEachTimedBatch(control: control) { batch in
            for i in 0..<batch.count {
                if let j = schedule.interval(of: batch.time(at: i)) {
                    counts[j] += 1
                    if mean { lowest = min(lowest, FrameDensity.measured(batch, i)) }
                }
                if i & 0xfffff == 0xfffff { try control.checkCancellation() }
            }
        }
        // The mean's numerator sums w (v - lowest) K, never below zero, so
        // that it is a density of non-negative weights like the denominator.
        let shift = mean && lowest.isFinite ? lowest : 0
        // Records: x, y, w, then the mean's value, then the radius.
        let valueField = mean ? 3 : nil
        let radiusField = radii == nil ? nil : (mean ? 4 : 3)
        let fields = 3 + (mean ? 1 : 0) + (radii == nil ? 0 : 1)
        var offsets = [Int](repeating: 0, count: intervals + 1)
        for j in 0..<intervals { offsets[j + 1] = offsets[j] + counts[j] }
        let held = offsets[intervals]

        // Pass: the points projected, sorted by interval (x, y, w[, v] records).
        let sorted = try ScratchFile()
        let capacity = max(8, (1 << 19) / max(fields * intervals, 1))
        var buffers = [[Double]](repeating: [], count: intervals)
        var written = offsets
        func flush(_ j: Int) throws {
            try buffers[j].withUnsafeBufferPointer { try sorted.write($0, at: fields * written[j]) }
            written[j] += buffers[j].count / fields
            buffers[j].removeAll(keepingCapacity: true)
        }
        let projector = PointProjector(projection)
        var done = 0
        try timed.forEachTimedBatch(control: control) { batch in
            if let radii, done + batch.count > radii.count {
                throw HeatMapError.invalidConfiguration(
                    "the points changed between passes (\(radii.count) planned, more read)")
            }
            for i in 0..<batch.count {
                guard let j = schedule.interval(of: batch.time(at: i)) else { continue }
                let q = projector.plane(latitude: batch.latitude[i], longitude: batch.longitude[i])
                if buffers[j].capacity == 0 { buffers[j].reserveCapacity(fields * capacity) }
                buffers[j].append(q.x)
                buffers[j].append(q.y)
                buffers[j].append(batch.weight[i])
                if mean { buffers[j].append(FrameDensity.measured(batch, i) - shift) }
                if let radii { buffers[j].append(radii[done + i]) }
                if buffers[j].count == fields * capacity { try flush(j) }
                if i & 0xffff == 0xffff { try control.checkCancellation() }
            }
            done += batch.count
            control.report(.project, Double(done) / Double(max(stats.count, 1)))
        }
        for j in 0..<intervals where !buffers[j].isEmpty { try flush(j) }
        buffers = []

        // Each interval's grid, once (the mean's: its denominator and numerator).
        let grids = try ScratchFile()
        var quiet = control
        quiet.progress = nil
        let chunk = 1 << 18
        let channels = mean ? 2 : 1
        var records = [Double](repeating: 0, count: fields * chunk)
        var filled = 0
        control.report(.density, 0)
        for j in 0..<intervals where counts[j] > 0 {
            // The mean's sums are raw (unscaled), as the mean estimator's own.
            func accumulator() throws -> DensityAccumulator {
                try DensityAccumulator(
                    geometry: plan.geometry, radius: plan.radius,
                    projection: projection, estimator: .density,
                    method: configuration.densityMethod, kernel: configuration.kernel,
                    kernelValues: mean ? .raw : configuration.kernelValues,
                    maximumRadius: plan.maximumRadius, radiusProfile: plan.radiusProfile, expectedCount: counts[j])
            }
            var weights = try accumulator()
            var valued = mean ? try accumulator() : nil
            var k = 0
            while k < counts[j] {
                let n = min(chunk, counts[j] - k)
                try records.withUnsafeMutableBufferPointer {
                    try sorted.read(
                        into: UnsafeMutableBufferPointer(rebasing: $0[0..<(fields * n)]), at: fields * (offsets[j] + k))
                }
                var points = PlanePoints()
                points.reserveCapacity(n)
                for r in 0..<n {
                    points.append(
                        x: records[fields * r], y: records[fields * r + 1], weight: records[fields * r + 2], value: nil,
                        radius: radiusField.map { records[fields * r + $0] })
                }
                try weights.add(points, control: quiet)
                if valued != nil, let valueField {
                    for r in 0..<n { points.weight[r] *= records[fields * r + valueField] }
                    try valued!.add(points, control: quiet)
                }
                k += n
            }
            let grid = try (consume weights).finish(control: quiet)
            try grid.values.withUnsafeBufferPointer { try grids.write($0, at: channels * j * nodes) }
            if let valued {
                let sums = try (consume valued).finish(control: quiet)
                try sums.values.withUnsafeBufferPointer { try grids.write($0, at: (channels * j + 1) * nodes) }
            }
            filled += counts[j]
            control.report(.density, Double(filled) / Double(max(held, 1)))
        }
        control.report(.density, 1)
        let made = FrameDensity(
            schedule: schedule, plan: plan, projection: projection, estimator: configuration.estimator,
            pointsInFrames: held, intervalCounts: counts, grids: grids, shift: shift)
        var used = configuration
        used.radius = plan.radius
        used.gridResolution = plan.resolution
        used.bandwidth = used.bandwidth.fixingRadius()
        used.resolutionFromData = false
        made.configuration = used
        return made
    }

    /// The frames of points read by ``StreamedPoints`` (with times).
    /// - Parameters:
    ///   - resolutionFromData: as ``StreamedDensity/compute(from:configuration:resolutionFromData:control:)``.
    package static func make(
        streamed points: StreamedPoints, configuration: HeatMapConfiguration,
        resolutionFromData: Bool = false, frames options: TimeFrameOptions,
        control: ComputeControl
    ) throws -> FrameDensity {
        var asked = configuration
        if resolutionFromData { asked.resolutionFromData = true }
        let source = StreamedPointSource(
            points: points, configuration: configuration, batchSize: StreamedPoints.batchSize)
        return try make(planning: source, timed: points, configuration: asked, frames: options, control: control)
    }

    /// Hands out every frame's grid, in order. Memory: four grids (two for the mean's sums besides).
    /// - Throws: `CancellationError`; a scratch file that cannot be read; what `body` throws.
    package func forEachFrame(control: ComputeControl, _ body: (TimeFrame, DensityGrid) throws -> Void) throws {
        var stepper = FrameStepper(self)
        while let (frame, grid) = try stepper.next(control: control) { try body(frame, grid) }
    }

    /// Hands out every frame's values, in order, in one buffer reused from
    /// frame to frame (valid during the call): for passes that only read
    /// them. Memory: three grids, none allocated per frame.
    /// - Throws: as ``forEachFrame(control:_:)``.
    package func forEachFrameValues(
        control: ComputeControl, _ body: (TimeFrame, UnsafeBufferPointer<Double>) throws -> Void
    ) throws {
        var stepper = FrameStepper(self)
        while try stepper.advance(control: control, body) {}
    }

    /// Hands out the frames in order, `size` at a time (the last batch may
    /// be shorter), for a caller that works on several frames at once.
    /// Memory: three grids besides the batch's.
    /// - Throws: as ``forEachFrame(control:_:)``.
    package func forEachFrameBatch(
        size: Int, control: ComputeControl, _ body: ([(TimeFrame, DensityGrid)]) throws -> Void
    ) throws {
        var stepper = FrameStepper(self)
        var batch: [(TimeFrame, DensityGrid)] = []
        batch.reserveCapacity(max(size, 1))
        while let next = try stepper.next(control: control) {
            batch.append(next)
            if batch.count >= max(size, 1) {
                try body(batch)
                batch.removeAll(keepingCapacity: true)
            }
        }
        if !batch.isEmpty { try body(batch) }
    }

    /// Makes the frames one at a time, in order: a running sum of the
    /// intervals' grids, the ones entering added and the ones leaving
    /// subtracted. Memory: three grids and the frame handed out.
    package struct FrameStepper {
        private let density: FrameDensity
        private var sum: [Double]
        private var scratch: [Double]
        /// The frame's values, made anew in place for every frame.
        private var values: [Double]
        private var current = 0..<0
        private var position = 0

        package init(_ density: FrameDensity) {
            self.density = density
            sum = [Double](repeating: 0, count: density.channels * density.nodes)
            scratch = sum
            values = [Double](repeating: 0, count: density.nodes)
        }

        /// The next frame and its grid; nil after the last.
        package mutating func next(control: ComputeControl) throws -> (TimeFrame, DensityGrid)? {
            var made: (TimeFrame, DensityGrid)?
            let density = self.density
            _ = try advance(control: control) { frame, values in
                let configuration = density.configuration
                let raw = density.estimator == .mean || configuration.kernelValues == .raw
                var grid = DensityGrid(
                    geometry: density.plan.geometry, values: Array(values), projection: density.projection,
                    radius: density.plan.radius, estimator: density.estimator,
                    units: raw ? "" : density.projection.densityUnits, kernel: configuration.kernel,
                    kernelValues: density.estimator == .mean ? .density : configuration.kernelValues)
                grid.pointRadii = density.plan.pointRadii
                made = (frame, grid)
            }
            return made
        }

        /// Makes the next frame and hands it to `body` with its values
        /// (valid during the call); false after the last.
        package mutating func advance(
            control: ComputeControl, _ body: (TimeFrame, UnsafeBufferPointer<Double>) throws -> Void
        ) throws -> Bool {
            let schedule = density.schedule
            guard position < schedule.frames.count else { return false }
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
            let nodes = density.nodes
            if density.estimator == .mean {
                // The sums are raw, as the mean estimator's: undefined below the same support.
                let shift = density.shift
                for i in 0..<nodes {
                    values[i] =
                        DensityAccumulator.nodeValue(sum: sum[i], valueSum: sum[nodes + i], mean: true, scale: 1)
                        + shift
                }
            } else {
                // Subtraction leaves rounding noise where nothing is left: a density is never below 0.
                for i in 0..<nodes { values[i] = sum[i] < 0 ? 0 : sum[i] }
            }
            try values.withUnsafeBufferPointer { try body(frame, $0) }
            return true
        }

        private mutating func apply(_ j: Int, sign: Double) throws {
            guard density.intervalCounts[j] > 0 else { return }
            let size = density.channels * density.nodes
            try scratch.withUnsafeMutableBufferPointer { try density.grids.read(into: $0, at: j * size) }
            sum.withUnsafeMutableBufferPointer { s in
                scratch.withUnsafeBufferPointer { g in
                    if sign > 0 { for i in 0..<s.count { s[i] += g[i] } } else { for i in 0..<s.count { s[i] -= g[i] } }
                }
            }
        }
    }

    /// The frames of points held in memory (with times), projected with
    /// `configuration.projection` centred on them; `radii`, when given,
    /// are the points' own kernel radii (one per point, finite and > 0).
    package static func make(
        points batch: PointBatch, radii: [Double]? = nil, statistics: InputStatistics,
        configuration: HeatMapConfiguration, frames options: TimeFrameOptions,
        control: ComputeControl
    ) throws -> FrameDensity {
        let projection = statistics.projection(configuration.projection)
        var planes = PlanePoints()
        planes.reserveCapacity(batch.count)
        if radii != nil { planes.radius = [] }
        let projector = PointProjector(projection)
        for i in 0..<batch.count {
            if i & 0xffff == 0xffff { try control.checkCancellation() }
            let q = projector.plane(latitude: batch.latitude[i], longitude: batch.longitude[i])
            planes.append(x: q.x, y: q.y, weight: batch.weight[i], value: nil, radius: radii?[i])
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
