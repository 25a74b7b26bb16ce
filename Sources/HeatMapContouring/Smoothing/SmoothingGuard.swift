import Foundation
import HeatMapCore
import HeatMapDensity
import Synchronization

/// Smooths every level's pieces and keeps the result valid (docs/contour-rules.md).
///
/// Chaikin can make rings cross or touch where isolines run close: two
/// levels squeezed into one cell, or one ring passing a saddle cell twice.
/// Because every smoothed point is a convex combination of neighbouring
/// vertices, and a vertex's corner cut stays inside the two cells its
/// segments cross, smoothed pieces can only meet inside a grid cell that
/// both (or one, twice) crossed before smoothing. So:
///
/// 1. *Hot cells*: for each level l, the cells crossed by two or more
///    original segments of levels l and l + 1 (a saturating count of one
///    byte per cell, then the few shared cells' segments sorted by cell —
///    no hashing; ``HotCells``).
/// 2. Each round, for every pair of occupants of a hot cell — same level,
///    or neighbouring levels, which is what the level polygons and the bands
///    (level i minus level i + 1) need — a cheap filter first: smoothing
///    keeps an occupant inside the hull of its segment's ends and its
///    neighbours' midpoints, so pairs whose hulls are apart cannot meet.
///    The others have their smoothed segments near the cell (a window of
///    3·2^k around each, cut there from the traced positions by
///    ``UniformCut`` rather than by smoothing whole pieces) compared with a
///    conservative predicate (``ConflictChecker``). Smoothed repeated
///    vertices are a conflict too; an exact bound on a ring's edges clears
///    most rings of them without smoothing.
/// 3. Every piece in a conflict loses one Chaikin pass, and the round
///    repeats with the pairs that changed, until no conflict is left or the
///    pieces are back to their original, valid, vertices.
///
/// Pieces are shared, so the bands on both sides of a ring get the same
/// (possibly less smoothed) vertices. Deterministic: a round's conflicts are
/// a set, whatever the thread order.
enum SmoothingGuard {
    /// The smoothed pieces of every level.
    package static func smooth(
        traces: [LevelTrace], iterations: Int, geometry: GridGeometry,
        control: ComputeControl
    ) throws -> [SmoothedLevel] {
        try SmoothedLevel.all(
            traces,
            passes: passes(
                traces: traces, iterations: iterations, geometry: geometry,
                control: control),
            geometry: geometry, control: control)
    }

    /// The Chaikin passes each piece of every level keeps, without holding
    /// the smoothed levels: a round's check of level l reads the traced
    /// positions of levels l and l + 1 (the upper one only in the pieces it
    /// meets in hot cells), smooths whole only the few pieces it must, and
    /// lets them go, so memory holds a level or two per core, never all of
    /// them. O(vertices + hot cells' occupants · 2^iterations) per round.
    static func passes(
        traces: [LevelTrace], iterations: Int, geometry: GridGeometry,
        control: ComputeControl
    ) throws -> [[UInt8]] {
        let levelCount = traces.count
        guard iterations > 0, levelCount > 0 else { return traces.map { [UInt8](repeating: 0, count: $0.pieceCount) } }
        try control.begin(.smooth)
        // A report per level of each step: the useful passes, the hot
        // cells, then each round of checks (most often one does).
        let progress = StageProgress(.smooth, control: control)
        let steps = levelCount * (3 + iterations)
        var passes = try Parallel.map(levelCount, control: control) { l in
            let useful = try Chaikin.usefulPasses(traces[l], upTo: iterations, geometry: geometry, control: control)
            progress.advance(by: 1, of: steps)
            return useful
        }
        // Each level's hot cells are made where its first round needs them,
        // and kept for the levels whose round found a conflict, and for
        // the others while they fit ``HotCellStore/spareBytes`` (beyond,
        // one is made again if a neighbour's repair has its level checked
        // again): all levels' at once would be the largest thing held
        // while the guard runs (about a hundred megabytes on a large
        // export), while a small grid of many levels checks most of them
        // again, round after round.
        let hot = HotCellStore(levelCount: levelCount)
        // A cancel frees the hot cells off the caller's path.
        do {
            try resolveConflicts(
                passes: &passes, traces: traces, hot: hot, iterations: iterations,
                geometry: geometry, control: control, progress: progress, steps: steps)
        } catch {
            DeferredRelease.release(hot)
            throw error
        }
        control.report(.smooth, 1)
        return passes
    }

    /// Rounds of conflict checks, each taking one pass off the pieces in a
    /// conflict, until none is left: of a pair, the pieces split beyond
    /// the uniform passes (see ``Chaikin``) if either is, else both. Each
    /// round that finds a conflict takes a pass off, and pieces without
    /// passes are the traced ones, which never meet, so the rounds end.
    private static func resolveConflicts(
        passes: inout [[UInt8]], traces: [LevelTrace], hot: HotCellStore,
        iterations: Int, geometry: GridGeometry,
        control: ComputeControl, progress: StageProgress, steps: Int
    ) throws {
        let levelCount = traces.count
        var changed: [[Bool]]? = nil
        while true {
            try control.checkCancellation()
            let passesNow = passes
            let changedNow = changed
            let found = try Parallel.map(levelCount, control: control) { l -> [Conflict] in
                let upper = l + 1 < levelCount ? l + 1 : nil
                if let changedNow, !changedNow[l].contains(true),
                    !(upper.map { changedNow[$0].contains(true) } ?? false)
                {
                    return []
                }
                let cells = try hot.cells(l) {
                    let made = try HotCells(
                        lower: traces[l], upper: upper.map { traces[$0] }, geometry: geometry,
                        control: control)
                    if changedNow == nil { progress.advance(by: 1, of: steps) }
                    return made
                }
                // What the check reads: the repeated vertices of level l's
                // pieces (those changed), and the occupants of the hot cells.
                var occupiedLower = [Bool](repeating: false, count: traces[l].pieceCount)
                var occupiedUpper = upper.map { [Bool](repeating: false, count: traces[$0].pieceCount) }
                for (k, occupant) in cells.occupants.enumerated() {
                    if occupant & (1 << 31) != 0 {
                        occupiedUpper![Int(cells.pieces[k])] = true
                    } else {
                        occupiedLower[Int(cells.pieces[k])] = true
                    }
                }
                try control.checkCancellation()
                let lower = try side(
                    of: traces[l], passes: passesNow[l], geometry: geometry, occupied: occupiedLower,
                    repeatsOf: changedNow?[l] ?? [Bool](repeating: true, count: traces[l].pieceCount),
                    control: control)
                let upperSide = try upper.map {
                    try side(
                        of: traces[$0], passes: passesNow[$0], geometry: geometry, occupied: occupiedUpper!,
                        control: control)
                }
                let checker = ConflictChecker(
                    geometry: geometry, level: l, lower: lower, upper: upperSide, changed: changedNow,
                    control: control)
                let conflicts = try checker.conflicts(hot: cells)
                hot.keep(cells, for: l, conflicted: !conflicts.isEmpty)
                progress.advance(by: 1, of: steps)
                return conflicts
            }
            var reduced = traces.map { [Bool](repeating: false, count: $0.pieceCount) }
            var any = false
            func reduce(_ level: Int, _ piece: Int) {
                guard passesNow[level][piece] > 0, !reduced[level][piece] else { return }
                reduced[level][piece] = true
                passes[level][piece] -= 1
                any = true
            }
            for list in found {
                for c in list {
                    let a = (c.level, Int(c.piece))
                    guard c.otherPiece >= 0 else {
                        reduce(a.0, a.1)
                        continue
                    }
                    let b = (c.otherLevel, Int(c.otherPiece))
                    let splitA = passesNow[a.0][a.1] > Chaikin.alwaysMade
                    let splitB = passesNow[b.0][b.1] > Chaikin.alwaysMade
                    if splitA || !splitB { reduce(a.0, a.1) }
                    if splitB || !splitA { reduce(b.0, b.1) }
                }
            }
            guard any else { break }
            changed = reduced
        }
    }
}

/// The hot cells kept between rounds: every level's whose last check found
/// a conflict (the next round is likely to check it again), and others'
/// while they fit ``spareBytes``. Shared by the round's threads, each of
/// which sets only its own level's.
final class HotCellStore: Sendable {
    /// What the levels without a conflict may hold at once: enough for
    /// every level of a small grid, a few of a large one.
    static let spareBytes = 32 << 20

    private struct Kept {
        var cells: [HotCells?]
        /// Bytes held for levels without a conflict.
        var spare = 0
        var spareOf: [Int]
    }

    private let kept: Mutex<Kept>

    init(levelCount: Int) {
        kept = Mutex(
            Kept(
                cells: [HotCells?](repeating: nil, count: levelCount),
                spareOf: [Int](repeating: 0, count: levelCount)))
    }

    /// Level `l`'s hot cells: the ones kept, or those `make` makes.
    func cells(_ l: Int, make: () throws -> HotCells) throws -> HotCells {
        if let cells = kept.withLock({ $0.cells[l] }) { return cells }
        return try make()
    }

    /// Keeps `cells` as level `l`'s: always when its check found a
    /// conflict, else while the spare bytes allow.
    func keep(_ cells: HotCells, for l: Int, conflicted: Bool) {
        kept.withLock { k in
            k.spare -= k.spareOf[l]
            k.spareOf[l] = 0
            if conflicted {
                k.cells[l] = cells
            } else if k.spare + cells.bytes <= Self.spareBytes {
                k.cells[l] = cells
                k.spareOf[l] = cells.bytes
                k.spare += cells.bytes
            } else {
                k.cells[l] = nil
            }
        }
    }
}

/// A piece that takes part in a conflict, and the piece it meets (none,
/// `otherPiece` −1, for a piece that meets itself).
struct Conflict: Sendable {
    package var level: Int
    package var piece: Int32
    package var otherLevel = 0
    package var otherPiece: Int32 = -1
}

extension SmoothingGuard {
    /// What a check reads of `trace`: the traced positions of the pieces
    /// `occupied` or `repeatsOf` marks, read once in one walk each; of
    /// those marked by `repeatsOf`, which could hold repeated vertices
    /// once smoothed (``UniformCut/certainlyDistinct(_:magnitude:)``); and
    /// smoothed whole, the pieces read that are split beyond the uniform
    /// passes and those that could hold repeated vertices.
    fileprivate static func side(
        of trace: LevelTrace, passes: [UInt8], geometry: GridGeometry, occupied: [Bool],
        repeatsOf: [Bool]? = nil, control: ComputeControl
    ) throws -> ConflictChecker.Side {
        var points = [PlanePoint](repeating: PlanePoint(x: 0, y: 0), count: trace.vertices.count)
        var unsure = repeatsOf.map { [Bool](repeating: false, count: $0.count) }
        var whole = [Bool](repeating: false, count: trace.pieceCount)
        // Every traced position lies in the grid's extent.
        let g = geometry
        let magnitude =
            2
            * max(
                max(abs(g.x0), abs(g.x0 + Double(g.columns - 1) * g.dx)),
                max(abs(g.y0), abs(g.y0 + Double(g.rows - 1) * g.dy)))
        points.withUnsafeMutableBufferPointer { points in
            for p in 0..<trace.pieceCount where !trace.isRemoved[p] {
                let checked = repeatsOf?[p] ?? false
                guard occupied[p] || checked else { continue }
                let range = trace.range(p)
                trace.vertices.forEachPoint(range) { v, point in points[v] = point }
                let closed = !trace.isChain[p]
                let isSplit = Int(passes[p]) > Chaikin.alwaysMade && range.count >= 3
                if checked {
                    let cleared =
                        closed && !isSplit && passes[p] > 0
                        && UniformCut.certainlyDistinct(
                            UnsafeBufferPointer(rebasing: points[range]), magnitude: magnitude)
                    unsure![p] = !cleared
                }
                whole[p] = (occupied[p] && isSplit) || (unsure?[p] ?? false)
            }
        }
        try control.checkCancellation()
        let smoothed = try SmoothedLevel(
            trace: trace, points: points, iterations: passes, geometry: geometry, only: whole, control: control)
        return ConflictChecker.Side(
            trace: trace, passes: passes, points: points, smoothed: smoothed, repeatsUnsure: unsure)
    }
}
