import Foundation
import HeatMapCore
import HeatMapDensity

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
///    no hashing).
/// 2. Each round, for every pair of occupants of a hot cell — same level,
///    or neighbouring levels, which is what the level polygons and the bands
///    (level i minus level i + 1) need — a cheap filter first: smoothing
///    keeps an occupant inside the hull of its segment's ends and its
///    neighbours' midpoints, so pairs whose hulls are apart cannot meet.
///    The others have their smoothed segments near the cell (a window of
///    3·2^k around each) swept along x with a conservative predicate.
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
    /// the smoothed levels: a round's check of level l smooths levels l and
    /// l + 1 for itself (the upper one only in the pieces it meets in hot
    /// cells) and lets them go, so memory holds a level or two per core,
    /// never all of them. O(vertices · 2^iterations) per round.
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
        let hot = try Parallel.map(levelCount, control: control) { l in
            let cells = try HotCells(
                lower: traces[l], upper: l + 1 < levelCount ? traces[l + 1] : nil, geometry: geometry,
                control: control)
            progress.advance(by: 1, of: steps)
            return cells
        }
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
        passes: inout [[UInt8]], traces: [LevelTrace], hot: [HotCells],
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
                // What the check reads: every piece of level l (its own
                // repeated vertices), and of level l + 1 the hot cells' occupants.
                let lower = try SmoothedLevel(
                    trace: traces[l], iterations: passesNow[l], geometry: geometry, control: control)
                var occupied = upper.map { [Bool](repeating: false, count: traces[$0].pieceCount) }
                if let u = upper {
                    for (k, occupant) in hot[l].occupants.enumerated() where occupant & (1 << 31) != 0 {
                        if k & 0xffff == 0 { try control.checkCancellation() }
                        occupied![ConflictChecker.piece(holding: Int(occupant & 0x7fff_ffff), in: traces[u])] = true
                    }
                }
                let upperLevel = try upper.map {
                    try SmoothedLevel(
                        trace: traces[$0], iterations: passesNow[$0], geometry: geometry, only: occupied!,
                        control: control)
                }
                let checker = ConflictChecker(
                    geometry: geometry, level: l, traces: traces, lower: lower,
                    upper: upperLevel, changed: changedNow, control: control)
                let conflicts = try checker.conflicts(hot: hot[l])
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

/// A piece that takes part in a conflict, and the piece it meets (none,
/// `otherPiece` −1, for a piece that meets itself).
struct Conflict: Sendable {
    package var level: Int
    package var piece: Int32
    package var otherLevel = 0
    package var otherPiece: Int32 = -1
}

/// The hot cells of one level and the level above: cells crossed by two or
/// more original segments, with the segments (occupants) in each.
struct HotCells: Sendable {
    /// Occupants of hot cell h: `occupants[start[h] ..< start[h + 1]]`.
    package var cells: [Int32] = []
    package var start: [Int32] = [0]
    /// Occupant: bit 31 set for the upper level; the rest is the index of
    /// the segment's first vertex in that level's trace.
    var occupants: [UInt32] = []

    package init(lower: LevelTrace, upper: LevelTrace?, geometry: GridGeometry, control: ComputeControl) throws {
        // Count pass: segments per cell, saturating at 2, in one byte per cell.
        var count = [UInt8](repeating: 0, count: (geometry.columns - 1) * (geometry.rows - 1))
        // Each level's segment cells, worked out once for both passes.
        let lowerCells = lower.segmentCells()
        try control.checkCancellation()
        let upperCells = upper?.segmentCells() ?? []
        try control.checkCancellation()
        func each(_ cells: [Int32], _ body: (Int, Int) -> Void) {
            for (v, cell) in cells.enumerated() where cell >= 0 { body(Int(cell), v) }
        }
        each(lowerCells) { cell, _ in if count[cell] < 2 { count[cell] += 1 } }
        try control.checkCancellation()
        each(upperCells) { cell, _ in if count[cell] < 2 { count[cell] += 1 } }
        try control.checkCancellation()
        // Fill pass: only the segments of shared cells, sorted by cell.
        var keys: [UInt64] = []
        each(lowerCells) { cell, v in if count[cell] >= 2 { keys.append(UInt64(cell) << 32 | UInt64(v)) } }
        try control.checkCancellation()
        each(upperCells) { cell, v in if count[cell] >= 2 { keys.append(UInt64(cell) << 32 | UInt64(v) | 1 << 31) } }
        let cellsPerRow = UInt64(geometry.columns - 1)
        try BlockSort.sort(&keys, blocks: (geometry.rows + 62) / 64, control: control) {
            Int(($0 >> 32) / cellsPerRow / 64)
        }
        var i = 0
        while i < keys.count {
            var j = i + 1
            while j < keys.count && keys[j] >> 32 == keys[i] >> 32 { j += 1 }
            cells.append(Int32(truncatingIfNeeded: keys[i] >> 32))
            for k in i..<j { occupants.append(UInt32(truncatingIfNeeded: keys[k])) }
            start.append(Int32(occupants.count))
            i = j
        }
    }
}

/// Tests the smoothed segments of hot cells for meetings.
private struct ConflictChecker {
    package let geometry: GridGeometry
    /// The level checked, against itself and the level above.
    package let level: Int
    let traces: [LevelTrace]
    /// Level `level` smoothed, and the level above in the pieces that occupy its hot cells.
    package let lower: SmoothedLevel
    package let upper: SmoothedLevel?
    /// Pieces changed in the last round (nil: first round, test everything).
    package let changed: [[Bool]]?
    package let control: ComputeControl

    /// One occupant resolved: its level, piece, and the smoothed segments
    /// that meet the hot cell, sorted by their smallest x.
    private struct Window {
        package var level: Int
        package var piece: Int
        var segments: [Segment]

        /// Whether both windows hold the same segments of the same piece.
        func isSame(as other: Window) -> Bool {
            guard level == other.level, piece == other.piece, segments.count == other.segments.count else {
                return false
            }
            for i in segments.indices where segments[i].index != other.segments[i].index { return false }
            return true
        }
    }

    /// The smoothed pieces of level `lv` (`level` or the one above).
    private func smoothed(_ lv: Int) -> SmoothedLevel { lv == level ? lower : upper! }

    func conflicts(hot: HotCells) throws -> [Conflict] {
        let l = level
        var out: [Conflict] = []
        // Repeated vertices make zero-length edges: a conflict of the piece alone.
        if changed == nil || changed![l].contains(true) {
            let trace = traces[l]
            for p in 0..<trace.pieceCount where !trace.isRemoved[p] && (changed == nil || changed![l][p]) {
                if hasRepeatedVertex(lower.pieces[p], closed: !trace.isChain[p]) {
                    out.append(Conflict(level: l, piece: Int32(p)))
                }
            }
        }
        let c1 = geometry.columns - 1
        var resolved: [(level: Int, piece: Int, segment: Int)] = []
        var hulls: [Quad] = []
        var windows: [Window?] = []
        var activeA: [Segment] = [], activeB: [Segment] = []
        for h in 0..<hot.cells.count {
            if h & 255 == 0 { try control.checkCancellation() }
            let occ = Int(hot.start[h])..<Int(hot.start[h + 1])
            // Resolve occupants lazily: skip the cell when nothing in it changed.
            if let changed {
                var touched = false
                for k in occ {
                    let (lv, p, _) = resolve(hot.occupants[k], level: l)
                    if changed[lv][p] { touched = true; break }
                }
                if !touched { continue }
            }
            let cell = Int(hot.cells[h])
            let box = cellBox(column: cell % c1, row: cell / c1)
            resolved.removeAll(keepingCapacity: true)
            hulls.removeAll(keepingCapacity: true)
            windows.removeAll(keepingCapacity: true)
            for k in occ {
                let r = resolve(hot.occupants[k], level: l)
                resolved.append(r)
                hulls.append(hull(level: r.level, piece: r.piece, segment: r.segment))
                windows.append(nil)
            }
            for a in 0..<resolved.count {
                for b in (a + 1)..<resolved.count {
                    let ra = resolved[a], rb = resolved[b]
                    // The upper level's own pairs are the next level's business.
                    if ra.level != l && rb.level != l { continue }
                    if let changed, !changed[ra.level][ra.piece] && !changed[rb.level][rb.piece] { continue }
                    if hulls[a].isApart(from: hulls[b]) { continue }
                    if windows[a] == nil { windows[a] = window(resolved[a], box: box) }
                    if windows[b] == nil { windows[b] = window(resolved[b], box: box) }
                    if meet(windows[a]!, windows[b]!, activeA: &activeA, activeB: &activeB) {
                        let itself = rb.level == ra.level && rb.piece == ra.piece
                        out.append(
                            Conflict(
                                level: ra.level, piece: Int32(ra.piece), otherLevel: rb.level,
                                otherPiece: itself ? -1 : Int32(rb.piece)))
                    }
                }
            }
        }
        return out
    }

    /// Level, piece and original segment index of an occupant.
    private func resolve(_ occupant: UInt32, level l: Int) -> (level: Int, piece: Int, segment: Int) {
        let lv = occupant & (1 << 31) != 0 ? l + 1 : l
        let v = Int(occupant & 0x7fff_ffff)
        let p = Self.piece(holding: v, in: traces[lv])
        return (lv, p, v - Int(traces[lv].pieceStart[p]))
    }

    /// The piece holding vertex v: the last start ≤ v.
    package static func piece(holding v: Int, in trace: LevelTrace) -> Int {
        let starts = trace.pieceStart
        var lo = 0, hi = starts.count - 1
        while hi - lo > 1 {
            let mid = (lo + hi) / 2
            if Int(starts[mid]) <= v { lo = mid } else { hi = mid }
        }
        return lo
    }

    /// Where smoothing can put an occupant's piece inside its cell: the
    /// corner cuts at both ends of original segment j lie in the triangles
    /// (M_{j−1}, P_j, M_j) and (M_j, P_{j+1}, M_{j+1}) (M: segment midpoints),
    /// so within the hull of M_{j−1}, P_j, P_{j+1}, M_{j+1}. Fixed chain ends
    /// stand in for missing midpoints.
    private func hull(level lv: Int, piece p: Int, segment j: Int) -> Quad {
        // Element chains, not a copy of the whole trace (a dozen arrays to retain).
        let lower = Int(traces[lv].pieceStart[p]), n = Int(traces[lv].pieceStart[p + 1]) - lower
        let closed = !traces[lv].isChain[p]
        // i lies in j − 1 ... j + 2 with 0 ≤ j < n: one wrap at most.
        @inline(__always) func index(_ i: Int) -> Int {
            lower + (closed ? (i < 0 ? i + n : (i >= n ? i - n : i)) : min(max(i, 0), n - 1))
        }
        let a = index(j - 1), b = index(j), c = index(j + 1), d = index(j + 2)
        let pa: PlanePoint, pb: PlanePoint, pc: PlanePoint, pd: PlanePoint
        let lo = min(a, b, c, d), hi = max(a, b, c, d)
        if hi - lo <= 3 {
            // One walk through the stored steps rather than four.
            let window = traces[lv].vertices.window(from: lo, count: hi - lo + 1)
            func at(_ i: Int) -> PlanePoint {
                switch i - lo {
                case 0: return window.0
                case 1: return window.1
                case 2: return window.2
                default: return window.3
                }
            }
            (pa, pb, pc, pd) = (at(a), at(b), at(c), at(d))
        } else {
            (pa, pb, pc, pd) = (traces[lv].point(a), traces[lv].point(b), traces[lv].point(c), traces[lv].point(d))
        }
        return Quad(
            x: ((pa.x + pb.x) / 2, pb.x, pc.x, (pc.x + pd.x) / 2),
            y: ((pa.y + pb.y) / 2, pb.y, pc.y, (pc.y + pd.y) / 2))
    }

    private func window(_ occupant: (level: Int, piece: Int, segment: Int), box: PlaneBox) -> Window {
        let (lv, p, j) = occupant
        let trace = traces[lv]
        let closed = !trace.isChain[p]
        let piece = smoothed(lv).pieces[p]
        let n = piece.count
        let segmentCount = closed ? n : n - 1
        var segments: [Segment] = []
        guard segmentCount > 0 else { return Window(level: lv, piece: p, segments: segments) }
        let originalCount = trace.range(p).count
        let level = smoothed(lv)
        // Passes are skipped on paths too short to cut (see Chaikin); the
        // uniform ones map segment j to `scale` segments, and vertices
        // split beyond them are found through the level's starts.
        let k = originalCount >= 3 ? min(Int(level.iterations[p]), Chaikin.alwaysMade) : 0
        let scale = 1 << k
        let uniform = Chaikin.smoothedCount(originalCount, closed: closed, iterations: k)
        var first = (j - 1) * scale, last = (j + 2) * scale
        if !closed {
            first = max(first, 0); last = min(last, uniform - 1)
        }
        first = level.index(of: first, piece: p, uniform: uniform)
        last = level.index(of: last, piece: p, uniform: uniform)
        if closed && last - first >= segmentCount { first = 0; last = segmentCount }
        for raw in first..<last {
            // raw lies in −scale ..< 2 · segmentCount: one wrap at most.
            let s = closed ? (raw < 0 ? raw + segmentCount : (raw >= segmentCount ? raw - segmentCount : raw)) : raw
            let a = piece[s], b = piece[s + 1 == n ? 0 : s + 1]
            let ax = a.x, ay = a.y, bx = b.x, by = b.y
            if max(ax, bx) < box.minX || min(ax, bx) > box.maxX || max(ay, by) < box.minY || min(ay, by) > box.maxY {
                continue
            }
            segments.append(
                Segment(minX: min(ax, bx), maxX: max(ax, bx), index: Int32(s), ax: ax, ay: ay, bx: bx, by: by))
        }
        segments.sort { $0.minX < $1.minX }
        return Window(level: lv, piece: p, segments: segments)
    }

    /// One smoothed segment of a window, with its x-extent for the sweep.
    private struct Segment {
        package var minX: Double, maxX: Double
        package var index: Int32
        var ax: Double, ay: Double, bx: Double, by: Double
    }

    /// Whether two windows have segments that meet (adjacent segments of
    /// one piece share their vertex by design and are not compared). A
    /// sweep along x keeps only the segments whose x-extent is open, so a
    /// window pair costs O(n log n) rather than O(n²).
    private func meet(_ a: Window, _ b: Window, activeA: inout [Segment], activeB: inout [Segment]) -> Bool {
        let samePiece = a.level == b.level && a.piece == b.piece
        let closed = !traces[a.level].isChain[a.piece]
        let n = smoothed(a.level).count(a.piece)
        @inline(__always) func excluded(_ s: Segment, _ t: Segment) -> Bool {
            guard samePiece else { return false }
            let d = abs(Int(s.index) - Int(t.index))
            return d <= 1 || (closed && d == n - 1)
        }
        @inline(__always) func cross(_ s: Segment, _ t: Segment) -> Bool {
            !excluded(s, t) && SegmentIntersection.mayMeet(s.ax, s.ay, s.bx, s.by, t.ax, t.ay, t.bx, t.by)
        }
        let single = a.isSame(as: b)
        let sa = a.segments, sb = b.segments
        activeA.removeAll(keepingCapacity: true)
        activeB.removeAll(keepingCapacity: true)
        var i = 0, j = 0
        while i < sa.count || (!single && j < sb.count) {
            let fromA = single || j >= sb.count || (i < sa.count && sa[i].minX <= sb[j].minX)
            let s = fromA ? sa[i] : sb[j]
            if fromA { i += 1 } else { j += 1 }
            if single {
                activeA.removeAll { $0.maxX < s.minX }
                for t in activeA where cross(s, t) { return true }
                activeA.append(s)
            } else if fromA {
                activeB.removeAll { $0.maxX < s.minX }
                for t in activeB where cross(s, t) { return true }
                activeA.append(s)
            } else {
                activeA.removeAll { $0.maxX < s.minX }
                for t in activeA where cross(s, t) { return true }
                activeB.append(s)
            }
        }
        return false
    }

    private func hasRepeatedVertex(_ piece: [PlanePoint], closed: Bool) -> Bool {
        guard piece.count >= 2 else { return false }
        for i in 0..<(piece.count - 1) where piece[i] == piece[i + 1] { return true }
        return closed && piece[0] == piece[piece.count - 1]
    }

    /// The cell's box, grown by a millionth of a cell so that points on its
    /// sides are in.
    private func cellBox(column c: Int, row r: Int) -> PlaneBox {
        let g = geometry
        let mx = g.dx * 1e-6, my = g.dy * 1e-6
        return PlaneBox(
            minX: g.x0 + Double(c) * g.dx - mx, minY: g.y0 + Double(r) * g.dy - my,
            maxX: g.x0 + Double(c + 1) * g.dx + mx, maxY: g.y0 + Double(r + 1) * g.dy + my)
    }
}

/// Four points whose hull bounds where smoothing can move a segment.
struct Quad {
    package var x: (Double, Double, Double, Double)
    package var y: (Double, Double, Double, Double)

    @inline(__always) package subscript(i: Int) -> PlanePoint {
        switch i {
        case 0: return PlanePoint(x: x.0, y: y.0)
        case 1: return PlanePoint(x: x.1, y: y.1)
        case 2: return PlanePoint(x: x.2, y: y.2)
        default: return PlanePoint(x: x.3, y: y.3)
        }
    }

    /// Whether the two hulls are certainly apart: some pair of points of
    /// either quad gives a normal along which the projections do not overlap
    /// (the hull edges are among those pairs), by a gap that beats rounding.
    func isApart(from other: Quad) -> Bool {
        var scale = 0.0
        for i in 0..<4 {
            let p = self[i], q = other[i]
            scale = max(scale, abs(p.x), abs(p.y), abs(q.x), abs(q.y))
        }
        @inline(__always) func apart(_ u: PlanePoint, _ v: PlanePoint) -> Bool {
            let nx = v.y - u.y, ny = u.x - v.x
            let length = abs(nx) + abs(ny)
            guard length > 0 else { return false }
            var minA = Double.infinity, maxA = -Double.infinity
            var minB = Double.infinity, maxB = -Double.infinity
            for i in 0..<4 {
                let p = self[i], q = other[i]
                let d = p.x * nx + p.y * ny, e = q.x * nx + q.y * ny
                minA = min(minA, d); maxA = max(maxA, d)
                minB = min(minB, e); maxB = max(maxB, e)
            }
            let tolerance = 1e-12 * scale * length
            return maxA < minB - tolerance || maxB < minA - tolerance
        }
        // Every pair of points is an axis to try; the segment's own
        // direction (points 1 and 2) first, as it parts parallel isolines.
        for (i, j) in [(1, 2), (0, 1), (2, 3), (0, 2), (1, 3), (0, 3)] {
            if apart(self[i], self[j]) || apart(other[i], other[j]) { return true }
        }
        return false
    }
}
