import Synchronization

/// A grid's contours held as their traced pieces and the Chaikin passes
/// each keeps (``SmoothingGuard/passes(traces:iterations:geometry:control:)``),
/// from which a band, level or isoline is made when it is asked for: the
/// very polygons ``ContourBuilder/build(grid:thresholds:smoother:kinds:control:)``
/// makes, but a writer that streams features holds the grid, the traces
/// and the few levels in flight instead of the whole smoothed geometry.
///
/// Each call smooths the one or two levels it needs (kept in a small cache,
/// as neighbouring bands share a level) and assembles; it may be called
/// from several threads at once. O(the level's vertices · 2^passes) a call.
final class ContourPieces: ContourSource {
    let thresholds: [Double]
    private let geometry: GridGeometry
    private let frame: GridFrame
    private let values: [Double]
    private let traces: [LevelTrace]
    private let passes: [[UInt8]]
    /// Recently smoothed levels and assembled results, newest last.
    private let recent = Mutex<Recent>(Recent())

    private struct Recent {
        var levels: [(level: Int, smoothed: SmoothedLevel)] = []
        var made: [(key: Key, polygons: [PlanePolygon], rings: [[PlanePoint]])] = []
    }

    private struct Key: Equatable {
        var level: Int
        var band: Bool
    }

    /// How many smoothed levels are kept: every core's band and the level
    /// it shares with the next band.
    private static var levelCapacity: Int { Parallel.workerCount + 2 }
    /// How many assembled results are kept: one per core, for writers that
    /// read a level's polygons one by one.
    private static var madeCapacity: Int { Parallel.workerCount }

    /// No levels to make.
    init(thresholds: [Double]) {
        self.thresholds = thresholds
        geometry = GridGeometry(columns: 0, rows: 0, x0: 0, y0: 0, dx: 1, dy: 1)
        frame = GridFrame(columns: 2, rows: 2)
        values = []
        traces = []
        passes = []
    }

    init(thresholds: [Double], geometry: GridGeometry, frame: GridFrame, values: [Double],
         traces: [LevelTrace], passes: [[UInt8]]) {
        self.thresholds = thresholds
        self.geometry = geometry
        self.frame = frame
        self.values = values
        self.traces = traces
        self.passes = passes
    }

    deinit {
        DeferredRelease.release((values, traces, passes))
    }

    func polygons(_ mode: ContourMode, level l: Int, control: ComputeControl) throws -> [PlanePolygon] {
        guard l < traces.count, mode != .isolines else { return [] }
        // The top band is the top level itself.
        let band = mode == .bands && l + 1 < traces.count
        return try made(Key(level: l, band: band), control: control).polygons
    }

    func isolines(level l: Int, control: ComputeControl) throws -> [[PlanePoint]] {
        guard l < traces.count else { return [] }
        return try made(Key(level: l, band: false), control: control).rings
    }

    private func made(_ key: Key, control: ComputeControl) throws -> (polygons: [PlanePolygon], rings: [[PlanePoint]]) {
        if let hit = recent.withLock({ r in r.made.first { $0.key == key } }) { return (hit.polygons, hit.rings) }
        let l = key.level
        let lowerSmooth = try smoothed(l, control: control)
        let upperSmooth = key.band ? try smoothed(l + 1, control: control) : nil
        let result = try values.withUnsafeBufferPointer { buffer in
            try BandAssembler(geometry: geometry, frame: frame, values: buffer,
                              lower: traces[l], lowerSmooth: lowerSmooth,
                              upper: key.band ? traces[l + 1] : nil, upperSmooth: upperSmooth,
                              control: control).assemble(polygons: true)
        }
        recent.withLock { r in
            guard !r.made.contains(where: { $0.key == key }) else { return }
            r.made.append((key, result.polygons, result.rings))
            if r.made.count > Self.madeCapacity { r.made.removeFirst() }
        }
        return result
    }

    private func smoothed(_ l: Int, control: ComputeControl) throws -> SmoothedLevel {
        if let hit = recent.withLock({ r in r.levels.first { $0.level == l } }) { return hit.smoothed }
        let level = try SmoothedLevel(trace: traces[l], iterations: passes[l], control: control)
        recent.withLock { r in
            guard !r.levels.contains(where: { $0.level == l }) else { return }
            r.levels.append((l, level))
            if r.levels.count > Self.levelCapacity { r.levels.removeFirst() }
        }
        return level
    }
}
