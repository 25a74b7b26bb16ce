import Foundation
import HeatMapCore
import HeatMapDensity

/// The segments of closed rings cut into short pieces that each lie in one
/// ``MonotoneRun``, as the items of ``BoxPairs``: a piece is a stretch of
/// at most ``pieceLength`` consecutive segments of one ring along which x
/// and y never turn back, so its box is the box of its two ends, and two of
/// its segments that are not neighbours cannot meet. Consecutive pieces of
/// one run form a run of items that need no comparing.
///
/// Pairing pieces instead of segments puts a sixteenth of the entries in
/// the grid for smooth contour rings, whose runs are tens of segments long;
/// a pair of pieces then compares only the segments that reach into the
/// overlap of the two boxes (``forEachSegmentPair(_:_:_:)``), and none when
/// the rectangles about the pieces' diagonals lie apart (each piece keeps
/// its ``DiagonalSlab``, measured as it is cut: the pair is settled from
/// the two pieces' entries, without reading their rings).
///
/// Segment k of a ring of n positions runs from position k to position
/// k + 1 (position 0 for k = n − 1). O(n) to cut, reading each position once.
struct MonotonePieces: BoxedItems {
    /// The most segments a piece holds.
    static let pieceLength = 16
    /// Above this many segments of one piece reaching into the overlap of
    /// two pieces' boxes, each segment of the other looks for its own.
    static let narrowingSpan = 4

    package let rings: [[FixedPoint]]
    /// A piece: its box and the slab about the box's diagonal, its ring,
    /// its first segment and how many it holds, and whether it continues
    /// the run of the piece before it.
    /// 64 bytes: the ring and its first segment held in 32 bits (a check
    /// of 2³¹ rings, or a ring of 2³¹ positions, would not fit in memory).
    private struct Piece {
        /// Kept, not recomputed from the ring's positions: the grid and the
        /// pairs read it in an order that jumps about the rings.
        package var box: FixedBox
        /// About the diagonal of `box` the piece runs along.
        var slab = DiagonalSlab.unbounded
        private let storedRing: Int32, storedFirst: Int32
        var length: Int16
        var joins: Bool

        init(box: FixedBox, ring: Int, first: Int, length: Int16, joins: Bool) {
            self.box = box
            (storedRing, storedFirst) = (Int32(ring), Int32(first))
            (self.length, self.joins) = (length, joins)
        }

        var ring: Int { Int(storedRing) }
        var first: Int { Int(storedFirst) }
    }
    private var pieces: [Piece] = []
    /// The rings with a spike: a vertex where the ring turns straight back
    /// (only possible where a run breaks).
    private(set) var spiky: [Int] = []

    /// Cuts the rings, and finds the spikes on the way. With `keep`, a
    /// piece of ring r is kept only when `keep(r, box)` holds for its box
    /// (a caller that needs only the pieces of some rings near others);
    /// a ring's pieces left out are then neither paired nor joined to the
    /// pieces around them.
    package init(_ rings: [[FixedPoint]], keep: ((Int, FixedBox) -> Bool)? = nil) {
        self.rings = rings
        let total = rings.reduce(0) { $0 + $1.count }
        // A closed ring has at least four runs, and a contour ring about a
        // piece for eight to sixteen positions: room for more than that
        // saves copying the pieces as the array grows, and room left over
        // is never written, so it costs address space, not memory.
        pieces.reserveCapacity(total / 16 + 8 * rings.count)
        // Wrapping arithmetic in the loops over positions: the indices stay
        // below the ring's size, and the signs in −1...1.
        for r in rings.indices {
            // The ring borrowed, not copied out (a copy retains and releases it).
            rings[r].withUnsafeBufferPointer { p in
                let n = p.count
                var run = MonotoneRun()
                var spike = false
                // The piece being gathered (its first segment, how many it
                // holds, whether it continues the run before it), appended
                // with its box once it is closed.
                var first = 0, length = 0, joinsRun = false
                // Whether the piece before the open one was kept.
                var keptLast = false
                @inline(__always) func close() {
                    guard length > 0 else { return }
                    let end = first &+ length
                    let a = p[first], b = p[end == n ? 0 : end]
                    let box = Self.box(a, b)
                    if let keep, !keep(r, box) {
                        keptLast = false
                        return
                    }
                    var piece = Piece(
                        box: box, ring: r, first: first, length: Int16(length), joins: keptLast && joinsRun)
                    // A monotone piece runs from one corner of its box to
                    // the opposite one: lower left to upper right when x
                    // and y rise (or fall) together.
                    piece.slab = DiagonalSlab(p, first, end, box: box, rising: (a.x <= b.x) == (a.y <= b.y))
                    keptLast = true
                    pieces.append(piece)
                }
                var a = n > 0 ? p[0] : FixedPoint(x: 0, y: 0)
                for i in 0..<n {
                    let next = i &+ 1 == n ? 0 : i &+ 1
                    let b = p[next]
                    defer { a = b }
                    let joins = run.extend(a, b)
                    if joins, length < Self.pieceLength {
                        length &+= 1
                        continue
                    }
                    if !joins, !spike, n >= 2, n != 3 {
                        // A triangle cannot fold back; a longer ring may, at a vertex between runs.
                        spike = ExactPredicates.isSpike(p[i == 0 ? n &- 1 : i &- 1], a, b)
                    }
                    close()
                    (first, length, joinsRun) = (i, 1, joins)
                }
                close()
                if spike { spiky.append(r) }
            }
        }
    }

    package var count: Int { pieces.count }

    /// The ring of piece k.
    @inline(__always) package func ring(_ k: Int) -> Int { pieces[k].ring }

    /// The segments of piece k, numbered within its ring.
    @inline(__always) func segments(_ k: Int) -> Range<Int> {
        let piece = pieces[k]
        return piece.first..<(piece.first + Int(piece.length))
    }

    @inline(__always) func joinsPrevious(_ k: Int) -> Bool { pieces[k].joins }

    /// Consecutive pieces of a ring are left to ``forEachNeighbourPair(_:)``:
    /// pieces that meet where a run breaks can still meet elsewhere, but
    /// they are best compared in ring order, where their positions are
    /// still in the cache, than in the grid's order.
    @inline(__always) func followsPrevious(_ k: Int) -> Bool { pieces[k - 1].ring == pieces[k].ring }

    /// Calls `body(k − 1, k)` for consecutive pieces of one ring that lie
    /// in different runs: the pairs ``followsPrevious(_:)`` keeps from the
    /// grid. (A ring's last and first pieces are the grid's to pair.) A pair
    /// that ``onlyShareTheirJoint(_:)`` clears is left out: it has no two
    /// segments for ``forEachSegmentPair(_:_:_:)`` to hand out. O(pieces).
    func forEachNeighbourPair(_ body: (Int, Int) -> Void) {
        for k in pieces.indices.dropFirst() where pieces[k - 1].ring == pieces[k].ring && !pieces[k].joins {
            if onlyShareTheirJoint(k) { continue }
            body(k - 1, k)
        }
    }

    /// Whether pieces k − 1 and k, one after the other along their ring,
    /// can only meet at the joint between them: every segment of k − 1 but
    /// its last lies in the box of its first position and the start of that
    /// last segment (the piece is monotone), which misses k's box, and every
    /// segment of k but its first in the box of that segment's end and k's
    /// last position, which misses the box of k − 1. The only pair of
    /// segments whose boxes can then overlap is the two at the joint, which
    /// are neighbours. A run turns back in one coordinate where it breaks,
    /// so the pieces' boxes meet only along the joint's line in the other,
    /// nearly always. O(1).
    @inline(__always) func onlyShareTheirJoint(_ k: Int) -> Bool {
        let u = pieces[k - 1], v = pieces[k]
        let joint = u.first + Int(u.length)
        guard joint == v.first else { return false }
        // The ring borrowed, not copied out (a copy retains and releases it).
        return rings[v.ring].withUnsafeBufferPointer { ring in
            let n = ring.count
            if u.length > 1 {
                let head = Self.box(ring[u.first], ring[joint - 1])
                if head.overlaps(v.box) { return false }
            }
            if v.length > 1 {
                let end = v.first + Int(v.length)
                let tail = Self.box(ring[joint + 1], ring[end == n ? 0 : end])
                if tail.overlaps(u.box) { return false }
            }
            return true
        }
    }

    @inline(__always) package func box(_ k: Int) -> FixedBox { pieces[k].box }

    /// One segment handed to ``forEachSegmentPair(_:_:_:)``'s body: its
    /// ring, its index there, and its ends (read once, where the pair
    /// already holds the ring).
    struct Segment {
        package var ring: Int
        package var index: Int
        package var start: FixedPoint
        package var end: FixedPoint
    }

    /// Calls `body` with every segment of piece u and every segment of
    /// piece v whose boxes overlap, except a ring's neighbouring segments
    /// (they share a vertex, and only the spike test judges them); with
    /// none when the pieces' slabs show them apart (``DiagonalSlab``), as no
    /// two of their segments can meet then. O(segments of both pieces +
    /// pairs); O(1) for pieces apart.
    @inline(__always) func forEachSegmentPair(_ u: Int, _ v: Int, _ body: (Segment, Segment) -> Void) {
        let pu = pieces[u], pv = pieces[v]
        let boxU = pu.box, boxV = pv.box
        // Most pieces whose boxes overlap run side by side, apart: settled
        // from the two entries alone, before reading either ring.
        if DiagonalSlab.apart(boxU, pu.slab, boxV, pv.slab) { return }
        let ra = pu.ring, rb = pv.ring
        // The rings borrowed, not copied out: a copy would retain and
        // release each array for every pair.
        rings[ra].withUnsafeBufferPointer { a in
            rings[rb].withUnsafeBufferPointer { b in
                let na = a.count, nb = b.count
                let overlap = FixedBox(
                    minX: max(boxU.minX, boxV.minX), maxX: min(boxU.maxX, boxV.maxX),
                    minY: max(boxU.minY, boxV.minY), maxY: min(boxU.maxY, boxV.maxY))
                // The segments of a piece that reach into the overlap lie
                // together: along a monotone run, those before them end
                // short of it in x or y and those after begin beyond it.
                let near = reaching(v, of: b, into: overlap, within: segments(v))
                guard !near.isEmpty else { return }
                let mine = reaching(u, of: a, into: overlap, within: segments(u))
                // Where many of v's segments reach into the overlap, each
                // segment of u looks only at those that reach into its own
                // box (found by halving, as above), instead of testing
                // every box.
                let narrow = near.count > Self.narrowingSpan
                for s in mine {
                    let one = Segment(ring: ra, index: s, start: a[s], end: a[s + 1 == na ? 0 : s + 1])
                    let box = Self.box(one.start, one.end)
                    for t in narrow ? reaching(v, of: b, into: box, within: near) : near {
                        let other = Segment(ring: rb, index: t, start: b[t], end: b[t + 1 == nb ? 0 : t + 1])
                        guard box.overlaps(Self.box(other.start, other.end)) else { continue }
                        if ra == rb {
                            let gap = abs(s - t)
                            if gap == 1 || gap == na - 1 { continue }
                        }
                        body(one, other)
                    }
                }
            }
        }
    }

    /// The segments among `all`, a stretch of piece k's segments, whose
    /// boxes overlap `box`, found by halving: along the run (its direction
    /// that of the whole piece), the segments wholly before the box in x
    /// or y come first, then those that overlap it, then those wholly
    /// after it. `ring` is the piece's ring, which the caller holds.
    @inline(__always) private func reaching(
        _ k: Int, of ring: UnsafeBufferPointer<FixedPoint>, into box: FixedBox, within all: Range<Int>
    ) -> Range<Int> {
        let n = ring.count, whole = segments(k)
        let start = ring[whole.lowerBound], end = ring[whole.upperBound == n ? 0 : whole.upperBound]
        let upX = start.x < end.x, downX = start.x > end.x, upY = start.y < end.y, downY = start.y > end.y
        // Segment s runs from position s to s + 1, which lies further on.
        func before(_ s: Int) -> Bool {
            let b = ring[s + 1 == n ? 0 : s + 1]
            return (upX && b.x < box.minX) || (downX && b.x > box.maxX)
                || (upY && b.y < box.minY) || (downY && b.y > box.maxY)
        }
        func after(_ s: Int) -> Bool {
            let a = ring[s]
            return (upX && a.x > box.maxX) || (downX && a.x < box.minX)
                || (upY && a.y > box.maxY) || (downY && a.y < box.minY)
        }
        var lo = all.lowerBound, hi = all.upperBound
        while lo < hi {
            let mid = (lo + hi) >> 1
            if before(mid) { lo = mid + 1 } else { hi = mid }
        }
        let first = lo
        hi = all.upperBound
        while lo < hi {
            let mid = (lo + hi) >> 1
            if after(mid) { hi = mid } else { lo = mid + 1 }
        }
        return first..<lo
    }

    @inline(__always) private static func box(_ a: FixedPoint, _ b: FixedPoint) -> FixedBox {
        FixedBox(minX: min(a.x, b.x), maxX: max(a.x, b.x), minY: min(a.y, b.y), maxY: max(a.y, b.y))
    }
}

/// Consecutive segments of a ring gathered while x and y each keep one
/// direction (or stand still). Two segments of such a run that are not
/// neighbours cannot meet: the segment between them has positive length and
/// moves away in x or in y, so one of the two coordinates separates them.
/// A segment of zero length stands alone.
struct MonotoneRun {
    private var dx = 0, dy = 0
    private var open = false

    /// Adds segment a → b; whether it joined the run (false: a new run starts with it).
    @inline(__always) mutating func extend(_ a: FixedPoint, _ b: FixedPoint) -> Bool {
        let sx = (a.x < b.x ? 1 : 0) &- (a.x > b.x ? 1 : 0), sy = (a.y < b.y ? 1 : 0) &- (a.y > b.y ? 1 : 0)
        if sx | sy == 0 {
            open = false
            return false
        }
        // Signs in −1...1: a product below zero is a turn back, and or-ing
        // keeps a direction once one is set.
        if open, sx &* dx >= 0, sy &* dy >= 0 {
            dx |= sx
            dy |= sy
            return true
        }
        (dx, dy, open) = (sx, sy, true)
        return false
    }
}
