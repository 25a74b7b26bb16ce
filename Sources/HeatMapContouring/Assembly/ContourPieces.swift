import Foundation
import HeatMapCore
import HeatMapDensity
import Synchronization

/// A grid's contours held as their traced pieces and the Chaikin passes
/// each keeps (``SmoothingGuard/passes(traces:iterations:geometry:control:)``),
/// from which a band, level or isoline is made when it is asked for: the
/// very polygons ``ContourBuilder/build(grid:thresholds:smoother:kinds:control:)``
/// makes, but a writer that streams features holds the traces, a byte per
/// grid node (``NodeBands``) and the few levels in flight instead of the
/// whole smoothed geometry.
///
/// Each call smooths the one or two levels it needs (kept in a small cache,
/// as neighbouring bands share a level) and assembles; it may be called
/// from several threads at once. O(the level's vertices · 2^passes) a call.
package final class ContourPieces: ContourSource {
    package let thresholds: [Double]
    private let geometry: GridGeometry
    private let frame: GridFrame
    private let bands: NodeBands
    private let traces: [LevelTrace]
    private let passes: [[UInt8]]
    /// Recently smoothed levels and assembled results, newest last.
    private let recent = Mutex<Recent>(Recent())
    /// The levels being smoothed now, so that a second reader of one waits
    /// for it rather than smoothing it again.
    private let making = LevelGate()

    private struct Recent {
        /// Levels by (level, raw): a raw level's positions are unprojected
        /// (``rawPolygons(_:level:geometry:control:)``).
        package var levels: [(level: Int, raw: Bool, smoothed: SmoothedLevel)] = []
        package var made: [(key: Key, polygons: [PlanePolygon], rings: [[PlanePoint]])] = []
        /// The last results asked for: one asked for again while still here
        /// is kept in `made` (a writer reading a level polygon by polygon),
        /// one asked for once is not (a writer reading whole bands).
        package var asked: [Key] = []
    }

    private struct Key: Equatable {
        package var level: Int
        package var band: Bool
        /// Assembled from raw levels.
        package var raw = false
    }

    /// How many smoothed levels are kept: one per core and one more, since
    /// bands are read in level order and each shares a level with the next.
    private static var levelCapacity: Int { Parallel.workerCount + 1 }
    /// How many assembled results are kept: one per core, for writers that
    /// read a level's polygons one by one.
    private static var madeCapacity: Int { Parallel.workerCount }

    /// No levels to make.
    package init(thresholds: [Double]) {
        self.thresholds = thresholds
        geometry = GridGeometry(columns: 0, rows: 0, x0: 0, y0: 0, dx: 1, dy: 1)
        frame = GridFrame(columns: 2, rows: 2)
        bands = NodeBands()
        traces = []
        passes = []
    }

    package init(
        thresholds: [Double], geometry: GridGeometry, frame: GridFrame, bands: NodeBands,
        traces: [LevelTrace], passes: [[UInt8]]
    ) {
        self.thresholds = thresholds
        self.geometry = geometry
        self.frame = frame
        self.bands = bands
        self.traces = traces
        self.passes = passes
    }

    deinit {
        DeferredRelease.release((bands, traces, passes))
    }

    /// Stage 3 for every level at once: the contour set of `kinds` (the
    /// others left empty), levels smoothed and assembled on every core.
    /// `pieces` is consumed: once smoothed, the traced vertices are let go
    /// (when nothing else holds the pieces), so the set does not sit beside
    /// a second copy of its outline.
    /// - Throws: `CancellationError`; what a cancel leaves is freed off the caller's path.
    package static func contourSet(
        of pieces: consuming ContourPieces, kinds: ContourKinds,
        control: ComputeControl
    ) throws -> ContourSet {
        let thresholds = pieces.thresholds, levelCount = thresholds.count
        let empty = ContourSet(
            thresholds: thresholds,
            levels: Array(repeating: [], count: levelCount),
            bands: Array(repeating: [], count: levelCount),
            isolines: Array(repeating: [], count: levelCount))
        guard !pieces.traces.isEmpty else { return empty }
        var traces = pieces.traces
        let passes = pieces.passes, bands = pieces.bands, geometry = pieces.geometry, frame = pieces.frame
        _ = consume pieces

        // A level task gives the level's polygons and rings (its isolines),
        // a band task one band; the top band is the top level itself.
        let tasks = AssemblyTask.list(levelCount: levelCount, kinds: kinds)
        var smoothed: [SmoothedLevel] = []
        let results: [(polygons: [PlanePolygon], rings: [[PlanePoint]])]
        do {
            smoothed = try SmoothedLevel.all(traces, passes: passes, geometry: geometry, control: control)
            for l in traces.indices { traces[l].dropVertices() }

            // Assemble only what `kinds` asks for (see ``AssemblyTask``).
            try control.begin(.assemble)
            let assembled = Atomic<Int>(0)
            let finalTraces = traces, finalSmoothed = smoothed
            results = try Parallel.map(tasks.count, control: control) { t in
                try control.checkCancellation()
                let task = tasks[t], l = task.level
                let hasUpper = task.isBand && l + 1 < levelCount
                let assembler = BandAssembler(
                    geometry: geometry, frame: frame, bands: bands, level: l,
                    lower: finalTraces[l], lowerSmooth: finalSmoothed[l],
                    upper: hasUpper ? finalTraces[l + 1] : nil,
                    upperSmooth: hasUpper ? finalSmoothed[l + 1] : nil,
                    control: control)
                let result = try assembler.assemble(polygons: task.needsPolygons)
                let n = assembled.add(1, ordering: .relaxed).newValue
                control.report(.assemble, Double(n) / Double(tasks.count))
                return result
            }
        } catch {
            DeferredRelease.release((traces, smoothed))
            throw error
        }
        if control.isCancelled {
            DeferredRelease.release((traces, smoothed, results))
            throw CancellationError()
        }
        var set = empty
        for (task, result) in zip(tasks, results) {
            if task.isBand {
                set.bands[task.level] = result.polygons
                continue
            }
            if kinds.contains(.levels) { set.levels[task.level] = result.polygons }
            if kinds.contains(.isolines) { set.isolines[task.level] = result.rings }
            if kinds.contains(.bands) && task.level == levelCount - 1 { set.bands[task.level] = result.polygons }
        }
        return set
    }

    package func polygons(_ mode: ContourMode, level l: Int, control: ComputeControl) throws -> [PlanePolygon] {
        guard l < traces.count, mode != .isolines else { return [] }
        // The top band is the top level itself.
        let band = mode == .bands && l + 1 < traces.count
        return try made(Key(level: l, band: band), control: control).polygons
    }

    /// Bands or levels assembled from levels whose pieces were unprojected
    /// once each (kept while neighbouring bands need them), not from plane
    /// positions unprojected band by band: each ring shared by two bands
    /// is unprojected once.
    package func rawPolygons(
        _ mode: ContourMode, level l: Int, geometry: LonLatGeometry, control: ComputeControl
    ) throws -> [PlanePolygon] {
        guard geometry.projection.isGeographic else { return try polygons(mode, level: l, control: control) }
        guard l < traces.count, mode != .isolines else { return [] }
        let band = mode == .bands && l + 1 < traces.count
        return try made(Key(level: l, band: band, raw: true), geometry: geometry, control: control).polygons
    }

    package func isolines(level l: Int, control: ComputeControl) throws -> [[PlanePoint]] {
        guard l < traces.count else { return [] }
        return try made(Key(level: l, band: false), control: control).rings
    }

    /// The frame's largest |x| or |y|: tracing puts every vertex on a grid
    /// edge, and smoothing only cuts corners, so no contour reaches past it.
    package var magnitudeGuess: Double? {
        guard !traces.isEmpty else { return nil }
        let x1 = geometry.x0 + Double(geometry.columns - 1) * geometry.dx
        let y1 = geometry.y0 + Double(geometry.rows - 1) * geometry.dy
        return max(abs(geometry.x0), abs(x1), abs(geometry.y0), abs(y1))
    }

    package func vertexEstimate(_ mode: ContourMode, level l: Int) -> Int {
        guard l < traces.count, mode != .isolines else { return 0 }
        func smoothed(_ l: Int) -> Int {
            Int(traces[l].pieceStart.last ?? 0) << Int(passes[l].max() ?? 0)
        }
        return smoothed(l) + (mode == .bands && l + 1 < traces.count ? smoothed(l + 1) : 0)
    }

    /// Lets go of the smoothed levels and assembled results kept for
    /// readers that come back to a level: a reader that has read every
    /// level once, in order, needs none of them (hundreds of megabytes on
    /// a large grid), handed to the release thread.
    func forgetRecent() {
        let recent = self.recent.withLock { r in
            let kept = r
            r = Recent()
            return kept
        }
        DeferredRelease.release(consume recent)
    }

    /// The result for `key`; a raw key's needs `geometry`.
    private func made(_ key: Key, geometry output: LonLatGeometry? = nil, control: ComputeControl) throws -> (
        polygons: [PlanePolygon], rings: [[PlanePoint]]
    ) {
        if let hit = recent.withLock({ r in r.made.first { $0.key == key } }) { return (hit.polygons, hit.rings) }
        let l = key.level
        let raw = key.raw ? output : nil
        func assembler(raw: LonLatGeometry?) throws -> BandAssembler {
            var assembler = BandAssembler(
                geometry: geometry, frame: frame, bands: bands, level: l,
                lower: traces[l], lowerSmooth: try smoothed(l, raw: raw, control: control),
                upper: key.band ? traces[l + 1] : nil,
                upperSmooth: key.band ? try smoothed(l + 1, raw: raw, control: control) : nil,
                control: control)
            if let raw { assembler.mapPosition = { raw.raw([$0])[0] } }
            return assembler
        }
        let result: (polygons: [PlanePolygon], rings: [[PlanePoint]])
        if let raw {
            // A hole placed by geometry needs the plane positions (rare):
            // then the plane band is unprojected as a whole.
            let polygons =
                try assembler(raw: raw).mappedPolygons()
                ?? assembler(raw: nil).assemble(polygons: true).polygons.map { raw.raw($0, control: control) }
            result = (polygons, [])
        } else {
            result = try assembler(raw: nil).assemble(polygons: true)
        }
        recent.withLock { r in
            if let seen = r.asked.firstIndex(of: key) {
                r.asked.remove(at: seen)
                guard !r.made.contains(where: { $0.key == key }) else { return }
                r.made.append((key, result.polygons, result.rings))
                if r.made.count > Self.madeCapacity { r.made.removeFirst() }
            } else {
                r.asked.append(key)
                if r.asked.count > Self.madeCapacity { r.asked.removeFirst() }
            }
        }
        return result
    }

    /// Level `l` smoothed, its positions unprojected by `raw` if given.
    /// A level another reader is smoothing is waited for, not smoothed
    /// twice: readers of neighbouring bands on two cores meet at the level
    /// they share. (Asking for the upper level first, to smooth different
    /// levels at once, held more levels at a time: a peak about 15 MB
    /// higher on the 1 M export, docs/performance.md.)
    private func smoothed(_ l: Int, raw: LonLatGeometry? = nil, control: ComputeControl) throws -> SmoothedLevel {
        let isRaw = raw != nil
        func cached() -> SmoothedLevel? {
            recent.withLock { r in r.levels.first { $0.level == l && $0.raw == isRaw }?.smoothed }
        }
        if let hit = cached() { return hit }
        // Another reader was smoothing it: now it is made (or that reader
        // failed, and this one tries).
        guard making.enter(l, raw: isRaw) else { return try smoothed(l, raw: raw, control: control) }
        defer { making.leave(l, raw: isRaw) }
        if let hit = cached() { return hit }
        let level = try SmoothedLevel(
            trace: traces[l], iterations: passes[l], geometry: geometry, control: control,
            map: raw.map { raw in { raw.raw($0, control: control) } })
        recent.withLock { r in
            guard !r.levels.contains(where: { $0.level == l && $0.raw == isRaw }) else { return }
            r.levels.append((l, isRaw, level))
            if r.levels.count > Self.levelCapacity { r.levels.removeFirst() }
        }
        return level
    }
}

/// The levels being smoothed, each by one reader: ``enter(_:raw:)`` lets
/// the first reader of a level in and holds the others until it leaves.
private final class LevelGate: @unchecked Sendable {
    private let condition = NSCondition()
    /// Guarded by `condition`.
    private var inside: [(level: Int, raw: Bool)] = []

    /// Whether the caller is to smooth the level: true when nobody else is
    /// (it must ``leave(_:raw:)`` after); false, after waiting, when
    /// another reader was and has left.
    func enter(_ level: Int, raw: Bool) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        guard inside.contains(where: { $0 == (level, raw) }) else {
            inside.append((level, raw))
            return true
        }
        while inside.contains(where: { $0 == (level, raw) }) { condition.wait() }
        return false
    }

    func leave(_ level: Int, raw: Bool) {
        condition.lock()
        inside.removeAll { $0 == (level, raw) }
        condition.broadcast()
        condition.unlock()
    }
}
