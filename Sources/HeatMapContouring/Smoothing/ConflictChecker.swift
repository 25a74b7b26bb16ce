import HeatMapCore
import HeatMapDensity

/// Tests the smoothed segments of one level's hot cells for meetings (see
/// ``SmoothingGuard``): the level against itself and against the level
/// above.
///
/// Everything a cell needs is at hand by index: the traced positions of
/// both levels read once into flat arrays (so a hull is four loads), the
/// occupants' pieces listed with the hot cells, and the smoothed segments
/// of each occupant gathered into one buffer kept from cell to cell. A
/// pair of windows of a few segments each, the common case, is compared
/// pair by pair; long windows (pieces split beyond the uniform passes) are
/// swept along x.
struct ConflictChecker {
    /// What the check reads of one level (a class: a cell's occupants
    /// refer to it, never copying its arrays).
    final class Side {
        package let trace: LevelTrace
        /// The Chaikin passes of each piece.
        package let passes: [UInt8]
        /// Traced positions by vertex index (of the pieces in use).
        package let points: [PlanePoint]
        /// The pieces smoothed whole: those split beyond the uniform
        /// passes that the check reads, and those whose repeated vertices
        /// are looked for (`repeatsUnsure`); the others are empty.
        package let smoothed: SmoothedLevel
        /// The pieces that may hold repeated vertices once smoothed (nil:
        /// not asked).
        package let repeatsUnsure: [Bool]?

        package init(
            trace: LevelTrace, passes: [UInt8], points: [PlanePoint], smoothed: SmoothedLevel,
            repeatsUnsure: [Bool]?
        ) {
            (self.trace, self.passes, self.points, self.smoothed) = (trace, passes, points, smoothed)
            self.repeatsUnsure = repeatsUnsure
        }

        /// Whether piece p is read from its whole smoothed vertices (it is
        /// split beyond the uniform passes), not cut where asked.
        @inline(__always) package func isSplit(_ p: Int) -> Bool {
            Int(passes[p]) > Chaikin.alwaysMade && trace.range(p).count >= 3
        }
    }

    package let geometry: GridGeometry
    /// The level checked, against itself and the level above.
    package let level: Int
    package let lower: Side
    package let upper: Side?
    /// Pieces changed in the last round (nil: first round, test everything).
    package let changed: [[Bool]]?
    package let control: ComputeControl

    /// One smoothed segment of a window, with its x-extent for the sweep.
    private struct Segment {
        package var minX: Double, maxX: Double
        package var index: Int32
        var ax: Double, ay: Double, bx: Double, by: Double
    }

    /// An occupant of the cell at hand: its level (`isUpper`), piece and
    /// original segment, the hull smoothing keeps it in, and its window
    /// (`segments[window]`, made when a pair first needs it).
    private struct Occupant {
        package var isUpper: Bool
        package var piece: Int
        package var segment: Int
        package var hull: Quad
        package var window: Range<Int>?
        /// The vertex count of the smoothed piece (set with the window).
        package var count = 0
    }

    /// Windows compared segment by segment up to this many pairs; above,
    /// swept.
    private static let pairwiseLimit = 256

    func conflicts(hot: HotCells) throws -> [Conflict] {
        let l = level
        var out: [Conflict] = []
        // Repeated vertices make zero-length edges: a conflict of the piece
        // alone. Only the pieces the side could not clear are looked at.
        if let unsure = lower.repeatsUnsure {
            let trace = lower.trace
            for p in 0..<trace.pieceCount where unsure[p] {
                if Self.hasRepeatedVertex(lower.smoothed.pieces[p], closed: !trace.isChain[p]) {
                    out.append(Conflict(level: l, piece: Int32(p)))
                }
            }
        }
        let c1 = geometry.columns - 1
        var occupants: [Occupant] = []
        var segments: [Segment] = []
        var activeA: [Segment] = [], activeB: [Segment] = []
        let changedLower = changed?[l], changedUpper = upper == nil ? nil : changed?[l + 1]
        for h in 0..<hot.cells.count {
            if h & 255 == 0 { try control.checkCancellation() }
            let occ = Int(hot.start[h])..<Int(hot.start[h + 1])
            // Skip the cell when nothing in it changed.
            if let changedLower {
                var touched = false
                for k in occ {
                    let p = Int(hot.pieces[k])
                    if hot.occupants[k] & (1 << 31) != 0 ? changedUpper![p] : changedLower[p] {
                        touched = true
                        break
                    }
                }
                if !touched { continue }
            }
            let cell = Int(hot.cells[h])
            let box = cellBox(column: cell % c1, row: cell / c1)
            occupants.removeAll(keepingCapacity: true)
            segments.removeAll(keepingCapacity: true)
            for k in occ {
                let isUpper = hot.occupants[k] & (1 << 31) != 0
                let p = Int(hot.pieces[k])
                let side = isUpper ? upper! : lower
                let j = Int(hot.occupants[k] & 0x7fff_ffff) - Int(side.trace.pieceStart[p])
                occupants.append(
                    Occupant(
                        isUpper: isUpper, piece: p, segment: j, hull: Self.hull(of: side, piece: p, segment: j),
                        window: nil))
            }
            for a in 0..<occupants.count {
                for b in (a + 1)..<occupants.count {
                    let oa = occupants[a], ob = occupants[b]
                    // The upper level's own pairs are the next level's business.
                    if oa.isUpper && ob.isUpper { continue }
                    if let changedLower {
                        let changedA = oa.isUpper ? changedUpper![oa.piece] : changedLower[oa.piece]
                        let changedB = ob.isUpper ? changedUpper![ob.piece] : changedLower[ob.piece]
                        if !changedA && !changedB { continue }
                    }
                    if oa.hull.isApart(from: ob.hull) { continue }
                    if oa.window == nil { window(of: &occupants[a], box: box, into: &segments) }
                    if ob.window == nil { window(of: &occupants[b], box: box, into: &segments) }
                    if meet(occupants[a], occupants[b], segments: &segments, activeA: &activeA, activeB: &activeB) {
                        let itself = oa.isUpper == ob.isUpper && oa.piece == ob.piece
                        out.append(
                            Conflict(
                                level: oa.isUpper ? l + 1 : l, piece: Int32(oa.piece),
                                otherLevel: ob.isUpper ? l + 1 : l,
                                otherPiece: itself ? -1 : Int32(ob.piece)))
                    }
                }
            }
        }
        return out
    }

    /// Where smoothing can put an occupant's piece inside its cell: the
    /// corner cuts at both ends of original segment j lie in the triangles
    /// (M_{j−1}, P_j, M_j) and (M_j, P_{j+1}, M_{j+1}) (M: segment midpoints),
    /// so within the hull of M_{j−1}, P_j, P_{j+1}, M_{j+1}. Fixed chain ends
    /// stand in for missing midpoints.
    private static func hull(of side: Side, piece p: Int, segment j: Int) -> Quad {
        let starts = side.trace.pieceStart
        let lower = Int(starts[p]), n = Int(starts[p + 1]) - lower
        let closed = !side.trace.isChain[p]
        // i lies in j − 1 ... j + 2 with 0 ≤ j < n: one wrap at most.
        @inline(__always) func index(_ i: Int) -> Int {
            lower + (closed ? (i < 0 ? i + n : (i >= n ? i - n : i)) : min(max(i, 0), n - 1))
        }
        let points = side.points
        let pa = points[index(j - 1)], pb = points[index(j)], pc = points[index(j + 1)], pd = points[index(j + 2)]
        return Quad(
            x: ((pa.x + pb.x) / 2, pb.x, pc.x, (pc.x + pd.x) / 2),
            y: ((pa.y + pb.y) / 2, pb.y, pc.y, (pc.y + pd.y) / 2))
    }

    /// Appends to `segments` the smoothed segments of the occupant's piece
    /// made from original segments j − 1 ... j + 1 that reach into `box`,
    /// in index order, and sets where they are and the piece's count.
    /// A piece split beyond the uniform passes is read from its smoothed
    /// vertices; any other is cut where the window lies.
    private func window(of occupant: inout Occupant, box: PlaneBox, into segments: inout [Segment]) {
        let first = segments.count
        let side = occupant.isUpper ? upper! : lower
        let p = occupant.piece, j = occupant.segment
        let closed = !side.trace.isChain[p]
        let range = side.trace.range(p)
        let split = side.isSplit(p)
        // Passes are skipped on paths too short to cut (see Chaikin); the
        // uniform ones map segment j to `scale` segments, and vertices
        // split beyond them are found through the level's starts.
        let k = range.count >= 3 ? min(Int(side.passes[p]), Chaikin.alwaysMade) : 0
        let scale = 1 << k
        let uniform = Chaikin.smoothedCount(range.count, closed: closed, iterations: k)
        let n = split ? side.smoothed.count(p) : uniform
        occupant.count = n
        occupant.window = first..<first
        let segmentCount = closed ? n : n - 1
        guard segmentCount > 0 else { return }
        var from = (j - 1) * scale, to = (j + 2) * scale
        if !closed {
            from = max(from, 0)
            to = min(to, uniform - 1)
        }
        if split {
            from = side.smoothed.index(of: from, piece: p, uniform: uniform)
            to = side.smoothed.index(of: to, piece: p, uniform: uniform)
        }
        if closed && to - from >= segmentCount { (from, to) = (0, segmentCount) }
        @inline(__always) func add(_ a: PlanePoint, _ b: PlanePoint, _ s: Int) {
            let ax = a.x, ay = a.y, bx = b.x, by = b.y
            if max(ax, bx) < box.minX || min(ax, bx) > box.maxX || max(ay, by) < box.minY || min(ay, by) > box.maxY {
                return
            }
            segments.append(
                Segment(minX: min(ax, bx), maxX: max(ax, bx), index: Int32(s), ax: ax, ay: ay, bx: bx, by: by))
        }
        // raw lies in −scale ..< 2 · segmentCount: one wrap at most.
        @inline(__always) func wrapped(_ raw: Int) -> Int {
            closed ? (raw < 0 ? raw + segmentCount : (raw >= segmentCount ? raw - segmentCount : raw)) : raw
        }
        if split {
            let piece = side.smoothed.pieces[p]
            for raw in from..<to {
                let s = wrapped(raw)
                add(piece[s], piece[s + 1 == n ? 0 : s + 1], s)
            }
        } else {
            side.points.withUnsafeBufferPointer { points in
                let cut = UniformCut(
                    points: UnsafeBufferPointer(rebasing: points[range]), closed: closed, passes: k)
                cut.forEachEdge(from, to) { raw, a, b in add(a, b, wrapped(raw)) }
            }
        }
        occupant.window = first..<segments.count
    }

    /// Whether two occupants' windows have segments that meet (adjacent
    /// segments of one piece share their vertex by design and are not
    /// compared). Whether any pair meets does not depend on the order the
    /// pairs are tried in, so short windows are compared pair by pair and
    /// long ones swept along x, keeping only the segments whose x-extent is
    /// open: O(n log n) rather than O(n²). A sweep sorts its windows in
    /// place.
    private func meet(
        _ a: Occupant, _ b: Occupant, segments: inout [Segment],
        activeA: inout [Segment], activeB: inout [Segment]
    ) -> Bool {
        let ra = a.window!, rb = b.window!
        let samePiece = a.isUpper == b.isUpper && a.piece == b.piece
        let closed = !(a.isUpper ? upper! : lower).trace.isChain[a.piece]
        let n = a.count
        @inline(__always) func cross(_ s: Segment, _ t: Segment) -> Bool {
            if samePiece {
                let d = abs(Int(s.index) - Int(t.index))
                if d <= 1 || (closed && d == n - 1) { return false }
            }
            return SegmentIntersection.mayMeet(s.ax, s.ay, s.bx, s.by, t.ax, t.ay, t.bx, t.by)
        }
        // One window against itself: the same segments of the same piece.
        var single = samePiece && ra.count == rb.count
        if single {
            for i in 0..<ra.count where segments[ra.lowerBound + i].index != segments[rb.lowerBound + i].index {
                single = false
                break
            }
        }
        if ra.count * rb.count <= Self.pairwiseLimit {
            return segments.withUnsafeBufferPointer { all in
                for i in ra {
                    let s = all[i]
                    for j in (single ? rb.lowerBound + (i - ra.lowerBound) + 1 : rb.lowerBound)..<rb.upperBound
                    where cross(s, all[j]) {
                        return true
                    }
                }
                return false
            }
        }
        segments[ra].sort { $0.minX < $1.minX }
        if !single { segments[rb].sort { $0.minX < $1.minX } }
        let sa = segments[ra], sb = segments[rb]
        activeA.removeAll(keepingCapacity: true)
        activeB.removeAll(keepingCapacity: true)
        var i = sa.startIndex, j = sb.startIndex
        while i < sa.endIndex || (!single && j < sb.endIndex) {
            let fromA = single || j >= sb.endIndex || (i < sa.endIndex && sa[i].minX <= sb[j].minX)
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

    private static func hasRepeatedVertex(_ piece: [PlanePoint], closed: Bool) -> Bool {
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
