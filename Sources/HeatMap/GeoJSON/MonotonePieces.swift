import Foundation

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
/// overlap of the two boxes (``forEachSegmentPair(_:_:_:)``).
///
/// Segment k of a ring of n positions runs from position k to position
/// k + 1 (position 0 for k = n − 1). O(n) to cut, reading each position once.
struct MonotonePieces: BoxedItems {
    /// The most segments a piece holds.
    static let pieceLength = 16

    let rings: [[FixedPoint]]
    /// Per piece: its ring, its first segment, and its length in segments
    /// times two, plus one when it continues the run of the piece before it.
    private var ringOf: [Int] = []
    private var firstOf: [Int] = []
    private var lengthAndJoin: [UInt8] = []
    /// The rings with a spike: a vertex where the ring turns straight back
    /// (only possible where a run breaks).
    private(set) var spiky: [Int] = []

    /// Cuts the rings, and finds the spikes on the way.
    init(_ rings: [[FixedPoint]]) {
        self.rings = rings
        let total = rings.reduce(0) { $0 + $1.count }
        let estimate = total / 8 + rings.count
        ringOf.reserveCapacity(estimate)
        firstOf.reserveCapacity(estimate)
        lengthAndJoin.reserveCapacity(estimate)
        for (r, p) in rings.enumerated() {
            let n = p.count
            var run = MonotoneRun()
            var length = 0
            var spike = false
            for i in 0..<n {
                let joins = run.extend(p[i], p[i + 1 == n ? 0 : i + 1])
                if joins, length < Self.pieceLength {
                    length += 1
                    continue
                }
                if !joins, !spike, n >= 2, n != 3 {
                    // A triangle cannot fold back; a longer ring may, at a vertex between runs.
                    spike = ExactPredicates.isSpike(p[i == 0 ? n - 1 : i - 1], p[i], p[i + 1 == n ? 0 : i + 1])
                }
                if length > 0 { lengthAndJoin[lengthAndJoin.count - 1] |= UInt8(length << 1) }
                ringOf.append(r)
                firstOf.append(i)
                lengthAndJoin.append(joins ? 1 : 0)
                length = 1
            }
            if length > 0 { lengthAndJoin[lengthAndJoin.count - 1] |= UInt8(length << 1) }
            if spike { spiky.append(r) }
        }
    }

    var count: Int { ringOf.count }

    /// The ring of piece k.
    @inline(__always) func ring(_ k: Int) -> Int { ringOf[k] }

    /// The segments of piece k, numbered within its ring.
    @inline(__always) func segments(_ k: Int) -> Range<Int> {
        let first = firstOf[k]
        return first..<(first + Int(lengthAndJoin[k] >> 1))
    }

    @inline(__always) func joinsPrevious(_ k: Int) -> Bool { lengthAndJoin[k] & 1 != 0 }

    /// Only pieces of one run need no comparing: pieces that meet where a
    /// run breaks can still meet elsewhere.
    @inline(__always) func followsPrevious(_ k: Int) -> Bool { joinsPrevious(k) }

    @inline(__always) func box(_ k: Int) -> FixedBox {
        let ring = rings[ringOf[k]], range = segments(k)
        let a = ring[range.lowerBound], b = ring[range.upperBound == ring.count ? 0 : range.upperBound]
        return FixedBox(minX: min(a.x, b.x), maxX: max(a.x, b.x), minY: min(a.y, b.y), maxY: max(a.y, b.y))
    }

    /// Calls `body(ra, s, rb, t)` for every segment s of piece u (of ring ra)
    /// and t of piece v (of ring rb) whose boxes overlap, except a ring's
    /// neighbouring segments (they share a vertex, and only the spike test
    /// judges them). O(segments of both pieces + pairs).
    @inline(__always) func forEachSegmentPair(_ u: Int, _ v: Int, _ body: (Int, Int, Int, Int) -> Void) {
        let ra = ring(u), rb = ring(v)
        let a = rings[ra], b = rings[rb]
        let na = a.count, nb = b.count
        let boxU = box(u), boxV = box(v)
        let overlap = FixedBox(minX: max(boxU.minX, boxV.minX), maxX: min(boxU.maxX, boxV.maxX),
                               minY: max(boxU.minY, boxV.minY), maxY: min(boxU.maxY, boxV.maxY))
        // The segments of a piece that reach into the overlap lie together:
        // along a monotone run, those before them end short of it in x or y
        // and those after begin beyond it.
        let near = reaching(v, into: overlap)
        guard !near.isEmpty else { return }
        for s in reaching(u, into: overlap) {
            let box = Self.box(a[s], a[s + 1 == na ? 0 : s + 1])
            for t in near where box.overlaps(Self.box(b[t], b[t + 1 == nb ? 0 : t + 1])) {
                if ra == rb {
                    let gap = abs(s - t)
                    if gap == 1 || gap == na - 1 { continue }
                }
                body(ra, s, rb, t)
            }
        }
    }

    /// The segments of piece k whose boxes overlap `box`.
    @inline(__always) private func reaching(_ k: Int, into box: FixedBox) -> Range<Int> {
        let ring = rings[ringOf[k]], n = ring.count, all = segments(k)
        var lo = all.lowerBound
        while lo < all.upperBound, !Self.box(ring[lo], ring[lo + 1 == n ? 0 : lo + 1]).overlaps(box) { lo += 1 }
        var hi = all.upperBound
        while hi > lo, !Self.box(ring[hi - 1], ring[hi == n ? 0 : hi]).overlaps(box) { hi -= 1 }
        return lo..<hi
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
    mutating func extend(_ a: FixedPoint, _ b: FixedPoint) -> Bool {
        let sx = a.x < b.x ? 1 : (a.x > b.x ? -1 : 0), sy = a.y < b.y ? 1 : (a.y > b.y ? -1 : 0)
        if sx == 0, sy == 0 {
            open = false
            return false
        }
        if open, sx == 0 || dx == 0 || sx == dx, sy == 0 || dy == 0 || sy == dy {
            if dx == 0 { dx = sx }
            if dy == 0 { dy = sy }
            return true
        }
        (dx, dy, open) = (sx, sy, true)
        return false
    }
}
