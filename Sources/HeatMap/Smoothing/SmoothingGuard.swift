import Foundation

/// Smooths every level's pieces and keeps the result valid (§5.5, §5.6).
///
/// Chaikin can make rings cross or touch where isolines run close: two
/// levels squeezed into one cell, or one ring passing a saddle cell twice.
/// Because every smoothed point is a convex combination of neighbouring
/// vertices, and a vertex's corner cut stays inside the two cells its
/// segments cross, smoothed pieces can only meet inside a grid cell that
/// both (or one, twice) crossed before smoothing. So:
///
/// 1. *Hot cells*: for each level l, the cells crossed by two or more
///    original segments of levels l and l + 1 (found by sorting
///    (cell, segment) keys — no per-cell array, no hashing).
/// 2. Each round, for every hot cell, the smoothed segments that come from
///    its occupants (a window of 3·2^k segments around each) and meet the
///    cell are tested pairwise with a conservative predicate; pairs of the
///    same level or of neighbouring levels are compared, which is what the
///    level polygons and the bands (level i minus level i + 1) need.
/// 3. Every piece in a conflict loses one Chaikin pass, and the round
///    repeats with the pairs that changed, until no conflict is left or the
///    pieces are back to their original, valid, vertices.
///
/// Pieces are shared, so the bands on both sides of a ring get the same
/// (possibly less smoothed) vertices. Deterministic: a round's conflicts are
/// a set, whatever the thread order.
enum SmoothingGuard {
    /// The smoothed pieces of every level.
    static func smooth(traces: [LevelTrace], iterations: Int, geometry: GridGeometry,
                       control: ComputeControl) throws -> [SmoothedLevel] {
        let levelCount = traces.count
        guard iterations > 0, levelCount > 0 else { return traces.map(SmoothedLevel.init(unsmoothed:)) }
        control.report(.smooth, 0)
        var passes = traces.map { trace in
            trace.isRemoved.map { $0 ? UInt8(0) : UInt8(iterations) }
        }
        let initial = passes
        var levels = try ParallelLevels.map(count: levelCount, control: control) { l in
            SmoothedLevel(trace: traces[l], iterations: initial[l])
        }
        let hot = try ParallelLevels.map(count: levelCount, control: control) { l in
            HotCells(lower: traces[l], upper: l + 1 < levelCount ? traces[l + 1] : nil)
        }
        var changed: [[Bool]]? = nil
        for round in 0...iterations {
            try control.checkCancellation()
            let smoothedNow = levels
            let changedNow = changed
            let found = try ParallelLevels.map(count: levelCount, control: control) { l -> [Conflict] in
                let checker = ConflictChecker(geometry: geometry, traces: traces, smoothed: smoothedNow,
                                              changed: changedNow, control: control)
                return try checker.conflicts(level: l, hot: hot[l])
            }
            var reduced = traces.map { [Bool](repeating: false, count: $0.pieceCount) }
            var any = false
            for list in found {
                for c in list where passes[c.level][Int(c.piece)] > 0 && !reduced[c.level][Int(c.piece)] {
                    reduced[c.level][Int(c.piece)] = true
                    passes[c.level][Int(c.piece)] -= 1
                    any = true
                }
            }
            control.report(.smooth, Double(round + 1) / Double(iterations + 1))
            guard any else { break }
            let passesNow = passes
            let touched = reduced.map { $0.contains(true) }
            let rebuilt = try ParallelLevels.map(count: levelCount, control: control) { l -> SmoothedLevel? in
                touched[l] ? SmoothedLevel(trace: traces[l], iterations: passesNow[l]) : nil
            }
            for l in 0..<levelCount { if let level = rebuilt[l] { levels[l] = level } }
            changed = reduced
        }
        control.report(.smooth, 1)
        return levels
    }
}

/// A piece that takes part in a conflict.
struct Conflict: Sendable {
    var level: Int
    var piece: Int32
}

/// The hot cells of one level and the level above: cells crossed by two or
/// more original segments, with the segments (occupants) in each.
struct HotCells: Sendable {
    /// Occupants of hot cell h: `occupants[start[h] ..< start[h + 1]]`.
    var cells: [Int32] = []
    var start: [Int32] = [0]
    /// Occupant: bit 31 set for the upper level; the rest is the index of
    /// the segment's first vertex in that level's trace.
    var occupants: [UInt32] = []

    init(lower: LevelTrace, upper: LevelTrace?) {
        var keys: [UInt64] = []
        keys.reserveCapacity(lower.cells.count + (upper?.cells.count ?? 0))
        func add(_ trace: LevelTrace, flag: UInt32) {
            for p in 0..<trace.pieceCount where !trace.isRemoved[p] {
                for v in trace.range(p) {
                    let cell = trace.cells[v]
                    if cell >= 0 { keys.append(UInt64(UInt32(cell)) << 32 | UInt64(flag | UInt32(v))) }
                }
            }
        }
        add(lower, flag: 0)
        if let upper { add(upper, flag: 1 << 31) }
        keys.sort()
        var i = 0
        while i < keys.count {
            var j = i + 1
            while j < keys.count && keys[j] >> 32 == keys[i] >> 32 { j += 1 }
            if j - i >= 2 {
                cells.append(Int32(truncatingIfNeeded: keys[i] >> 32))
                for k in i..<j { occupants.append(UInt32(truncatingIfNeeded: keys[k])) }
                start.append(Int32(occupants.count))
            }
            i = j
        }
    }
}

/// Tests the smoothed segments of hot cells for meetings.
private struct ConflictChecker {
    let geometry: GridGeometry
    let traces: [LevelTrace]
    let smoothed: [SmoothedLevel]
    /// Pieces changed in the last round (nil: first round, test everything).
    let changed: [[Bool]]?
    let control: ComputeControl

    /// One occupant resolved: its level, piece, and the smoothed segments
    /// (by first vertex index) that meet the hot cell.
    private struct Window {
        var level: Int
        var piece: Int
        var segments: [Int32]
    }

    func conflicts(level l: Int, hot: HotCells) throws -> [Conflict] {
        var out: [Conflict] = []
        // Repeated vertices make zero-length edges: a conflict of the piece alone.
        if changed == nil || changed![l].contains(true) {
            let trace = traces[l], level = smoothed[l]
            for p in 0..<trace.pieceCount where !trace.isRemoved[p] && (changed == nil || changed![l][p]) {
                if hasRepeatedVertex(level, range: level.range(p), closed: !trace.isChain[p]) {
                    out.append(Conflict(level: l, piece: Int32(p)))
                }
            }
        }
        let c1 = geometry.columns - 1
        for h in 0..<hot.cells.count {
            if h & 1023 == 0 { try control.checkCancellation() }
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
            let windows = occ.map { window(hot.occupants[$0], level: l, box: box) }
            for a in 0..<windows.count {
                for b in a..<windows.count {
                    let wa = windows[a], wb = windows[b]
                    // The upper level's own pairs are the next level's business.
                    if wa.level != l && wb.level != l { continue }
                    if let changed, !changed[wa.level][wa.piece] && !changed[wb.level][wb.piece] { continue }
                    if meet(wa, wb) {
                        out.append(Conflict(level: wa.level, piece: Int32(wa.piece)))
                        if wb.level != wa.level || wb.piece != wa.piece {
                            out.append(Conflict(level: wb.level, piece: Int32(wb.piece)))
                        }
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
        let starts = traces[lv].pieceStart
        // The piece holding vertex v: last start ≤ v.
        var lo = 0, hi = starts.count - 1
        while hi - lo > 1 {
            let mid = (lo + hi) / 2
            if Int(starts[mid]) <= v { lo = mid } else { hi = mid }
        }
        return (lv, lo, v - Int(starts[lo]))
    }

    private func window(_ occupant: UInt32, level l: Int, box: PlaneBox) -> Window {
        let (lv, p, j) = resolve(occupant, level: l)
        let trace = traces[lv], level = smoothed[lv]
        let closed = !trace.isChain[p]
        let range = level.range(p)
        let n = range.count
        let segmentCount = closed ? n : n - 1
        var segments: [Int32] = []
        guard segmentCount > 0 else { return Window(level: lv, piece: p, segments: segments) }
        let originalCount = trace.range(p).count
        let k = Int(level.iterations[p])
        // Passes are skipped on paths too short to cut (see Chaikin).
        let scale = (originalCount >= 3 && k > 0) ? 1 << k : 1
        var first = (j - 1) * scale, last = (j + 2) * scale
        if closed {
            if last - first >= segmentCount { first = 0; last = segmentCount }
        } else {
            first = max(first, 0); last = min(last, segmentCount)
        }
        for raw in first..<last {
            let s = closed ? ((raw % segmentCount) + segmentCount) % segmentCount : raw
            let i = range.lowerBound + s
            let i2 = s + 1 == n ? range.lowerBound : i + 1
            let ax = level.xs[i], ay = level.ys[i], bx = level.xs[i2], by = level.ys[i2]
            if max(ax, bx) < box.minX || min(ax, bx) > box.maxX || max(ay, by) < box.minY || min(ay, by) > box.maxY {
                continue
            }
            segments.append(Int32(s))
        }
        return Window(level: lv, piece: p, segments: segments)
    }

    /// Whether two windows have segments that meet (adjacent segments of
    /// one piece share their vertex by design and are not compared).
    private func meet(_ a: Window, _ b: Window) -> Bool {
        let la = smoothed[a.level], lb = smoothed[b.level]
        let ra = la.range(a.piece), rb = lb.range(b.piece)
        let samePiece = a.level == b.level && a.piece == b.piece
        let closed = !traces[a.level].isChain[a.piece]
        let na = ra.count
        for sa in a.segments {
            let i = ra.lowerBound + Int(sa)
            let i2 = Int(sa) + 1 == na ? ra.lowerBound : i + 1
            let p1x = la.xs[i], p1y = la.ys[i], p2x = la.xs[i2], p2y = la.ys[i2]
            for sb in b.segments {
                if samePiece {
                    let d = abs(Int(sa) - Int(sb))
                    if d <= 1 || (closed && d == na - 1) { continue }
                }
                let j = rb.lowerBound + Int(sb)
                let j2 = Int(sb) + 1 == rb.count ? rb.lowerBound : j + 1
                if SegmentIntersection.mayMeet(p1x, p1y, p2x, p2y, lb.xs[j], lb.ys[j], lb.xs[j2], lb.ys[j2]) {
                    return true
                }
            }
        }
        return false
    }

    private func hasRepeatedVertex(_ level: SmoothedLevel, range: Range<Int>, closed: Bool) -> Bool {
        guard range.count >= 2 else { return false }
        for i in range.lowerBound..<(range.upperBound - 1)
        where level.xs[i] == level.xs[i + 1] && level.ys[i] == level.ys[i + 1] {
            return true
        }
        let a = range.lowerBound, b = range.upperBound - 1
        return closed && level.xs[a] == level.xs[b] && level.ys[a] == level.ys[b]
    }

    /// The cell's box, grown by a millionth of a cell so that points on its
    /// sides are in.
    private func cellBox(column c: Int, row r: Int) -> PlaneBox {
        let g = geometry
        let mx = g.dx * 1e-6, my = g.dy * 1e-6
        return PlaneBox(minX: g.x0 + Double(c) * g.dx - mx, minY: g.y0 + Double(r) * g.dy - my,
                        maxX: g.x0 + Double(c + 1) * g.dx + mx, maxY: g.y0 + Double(r + 1) * g.dy + my)
    }
}
