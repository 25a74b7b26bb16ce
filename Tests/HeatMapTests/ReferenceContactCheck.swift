@testable import HeatMapContouring
@testable import HeatMapCore
@testable import HeatMapDensity
@testable import HeatMapFormats

// The contact check as it was before it learnt to pass over cells holding
// one monotone run of one ring (and before its segments left the grid's
// items): every candidate pair of a cell compared, from 48-byte segment
// copies. Kept word for word as the property test's reference, so that the
// faster check is held to the very same offenders. One change since: every
// segment pair found at a touch is judged, not the first one found, so
// that the answer does not depend on the order the pairs come in.
enum ReferenceBoxPairs {
    /// A box is compared with all others when it covers more cells than this.
    static let longBoxCells = 64

    /// Calls `body(i, items[i], j, items[j])`, i < j, for every pair of
    /// items whose boxes overlap; the items of a cell are copied side by
    /// side first, so `body` reads them without further trips to memory.
    static func forEach<Item>(
        _ items: [Item], box: (Item) -> FixedBox,
        _ body: (Int, Item, Int, Item) -> Void
    ) {
        let n = items.count
        guard n >= 2 else { return }
        var lowX = Int64.max, lowY = Int64.max, highX = Int64.min, highY = Int64.min
        var extent = 0.0
        for item in items {
            let b = box(item)
            lowX = min(lowX, b.minX); lowY = min(lowY, b.minY)
            highX = max(highX, b.maxX); highY = max(highY, b.maxY)
            extent += Double(max(b.maxX - b.minX, b.maxY - b.minY))
        }
        let indexBits = bitWidth(n - 1)
        // Cells of twice the mean extent, a power of two so that a cell index
        // is a shift; coarser where the cell numbers and box indices would not
        // share one 64-bit entry.
        let wanted = max(1, (2 * extent / Double(n)).rounded(.up))
        var shift: Int64 = 0
        while Double(Int64(1) << shift) < wanted { shift += 1 }
        var columns = 0, rows = 0
        while true {
            columns = Int((highX - lowX) >> shift) + 1
            rows = Int((highY - lowY) >> shift) + 1
            if bitWidth(columns * rows - 1) + indexBits <= 64 { break }
            shift += 1
        }
        let keyBits = bitWidth(columns * rows - 1)
        @inline(__always) func column(_ x: Int64) -> Int { Int((x - lowX) >> shift) }
        @inline(__always) func row(_ y: Int64) -> Int { Int((y - lowY) >> shift) }

        // Entries cell << indexBits | box of the short boxes; long boxes apart.
        var entries: [UInt64] = []
        entries.reserveCapacity(2 * n)
        var long: [Int] = []
        for (i, item) in items.enumerated() {
            let b = box(item)
            let c0 = column(b.minX), c1 = column(b.maxX), r0 = row(b.minY), r1 = row(b.maxY)
            if (c1 - c0 + 1) * (r1 - r0 + 1) > longBoxCells { long.append(i); continue }
            for c in c0...c1 {
                for r in r0...r1 { entries.append(UInt64(c * rows + r) << indexBits | UInt64(i)) }
            }
        }
        // Entries were made in box order, so sorting stably by the cell
        // alone leaves each cell's boxes in index order.
        RadixSort.sort(&entries, bits: indexBits..<(indexBits + keyBits))
        let indexMask = indexBits == 0 ? 0 : (UInt64.max >> (64 - indexBits))
        var run: [(box: FixedBox, item: Item)] = []
        var runIndex: [Int] = []
        var start = 0
        while start < entries.count {
            let key = entries[start] >> indexBits
            var end = start + 1
            while end < entries.count, entries[end] >> indexBits == key { end += 1 }
            if end - start > 1 {
                let c = Int(key) / rows, r = Int(key) % rows
                run.removeAll(keepingCapacity: true)
                runIndex.removeAll(keepingCapacity: true)
                for e in start..<end {
                    let i = Int(entries[e] & indexMask)
                    runIndex.append(i)
                    let item = items[i]
                    run.append((box(item), item))
                }
                for a in 0..<(run.count - 1) {
                    let bi = run[a].box
                    for b in (a + 1)..<run.count {
                        let bj = run[b].box
                        guard bi.overlaps(bj),
                            column(max(bi.minX, bj.minX)) == c, row(max(bi.minY, bj.minY)) == r
                        else { continue }
                        body(runIndex[a], run[a].item, runIndex[b], run[b].item)
                    }
                }
            }
            start = end
        }
        var isLong = [Bool](repeating: false, count: long.isEmpty ? 0 : n)
        for l in long { isLong[l] = true }
        for l in long {
            let bl = box(items[l])
            for j in 0..<n where j != l && (!isLong[j] || j > l) && bl.overlaps(box(items[j])) {
                let (i, k) = (min(l, j), max(l, j))
                body(i, items[i], k, items[k])
            }
        }
    }

    /// Bits needed to write `v` ≥ 0 (0 for 0).
    private static func bitWidth(_ v: Int) -> Int { v <= 0 ? 0 : Int.bitWidth - v.leadingZeroBitCount }
}

enum ReferenceContactCheck {
    /// One segment with its ends copied, so that a candidate pair is
    /// tested from the pair's own copies; `count` is its ring's vertex count.
    private struct ContactSegment {
        var a: FixedPoint, b: FixedPoint
        var ring: Int32, index: Int32, count: Int32

        var box: FixedBox {
            FixedBox(minX: min(a.x, b.x), maxX: max(a.x, b.x), minY: min(a.y, b.y), maxY: max(a.y, b.y))
        }
    }

    private struct Touch: Hashable {
        var ringA: Int, ringB: Int
        var point: FixedPoint
    }

    /// The indices of the rings at fault (empty when the geometry is valid).
    static func offenders(_ rings: [RingContactCheck.Ring]) -> Set<Int> {
        let total = rings.reduce(0) { $0 + $1.points.count }
        var segments: [ContactSegment] = []
        segments.reserveCapacity(total)
        var bad = Set<Int>()
        for (r, ring) in rings.enumerated() {
            let points = ring.points, n = points.count
            for i in 0..<n {
                segments.append(
                    ContactSegment(
                        a: points[i], b: points[i + 1 == n ? 0 : i + 1], ring: Int32(r),
                        index: Int32(i), count: Int32(n)))
            }
            // Neighbouring segments share a vertex; they may only not fold
            // back there (a triangle cannot).
            if n >= 2, n != 3 {
                for i in 0..<n
                where ExactPredicates.isSpike(
                    points[i == 0 ? n - 1 : i - 1], points[i],
                    points[i + 1 == n ? 0 : i + 1])
                {
                    bad.insert(r)
                    break
                }
            }
        }

        // Touch point → every segment pair of the two rings found there.
        var touches: [Touch: [(Int, Int)]] = [:]
        ReferenceBoxPairs.forEach(segments, box: \.box) { _, s, _, t in
            let ra = Int(s.ring), rb = Int(t.ring)
            let ia = Int(s.index), ib = Int(t.index)
            let p1 = s.a, p2 = s.b, p3 = t.a, p4 = t.b
            if ra == rb {
                let gap = abs(ia - ib)
                if gap == 1 || gap == Int(s.count) - 1 { return }
                if ExactPredicates.contact(p1, p2, p3, p4) != .none { bad.insert(ra) }
                return
            }
            switch ExactPredicates.contact(p1, p2, p3, p4) {
            case .none: break
            case .cross, .overlap:
                bad.insert(ra); bad.insert(rb)
            case .point(let p):
                let key = ra < rb ? Touch(ringA: ra, ringB: rb, point: p) : Touch(ringA: rb, ringB: ra, point: p)
                touches[key, default: []].append(ra < rb ? (ia, ib) : (ib, ia))
            }
        }

        // A touch where the rings cross is a crossing; touches that close a
        // cycle among the rings of one polygon disconnect its interior.
        var parent = Array(rings.indices)
        func find(_ x: Int) -> Int {
            var x = x
            while parent[x] != x { parent[x] = parent[parent[x]]; x = parent[x] }
            return x
        }
        let ordered = touches.keys.sorted {
            ($0.ringA, $0.ringB, $0.point.x, $0.point.y) < ($1.ringA, $1.ringB, $1.point.x, $1.point.y)
        }
        for touch in ordered {
            guard let pairs = touches[touch] else { continue }
            let ringA = rings[touch.ringA].points, ringB = rings[touch.ringB].points
            // A position lying exactly on another ring's edge (not at one of
            // its vertices) touches in decimal, but not reliably once read
            // as binary doubles: GEOS may see a tiny crossing. Only shared
            // vertices are safe touches. Any pair that finds a fault decides.
            let faulty = pairs.contains { sa, sb in
                guard isVertex(touch.point, of: ringA, segment: sa), isVertex(touch.point, of: ringB, segment: sb)
                else { return true }
                let (a1, a2) = directions(ringA, segment: sa, at: touch.point)
                let (b1, b2) = directions(ringB, segment: sb, at: touch.point)
                return ExactPredicates.ringsCross(a1: a1, a2: a2, b1: b1, b2: b2)
            }
            if faulty {
                bad.insert(touch.ringA); bad.insert(touch.ringB)
                continue
            }
            guard rings[touch.ringA].polygon == rings[touch.ringB].polygon else { continue }
            let ra = find(touch.ringA), rb = find(touch.ringB)
            if ra == rb {
                bad.insert(touch.ringA); bad.insert(touch.ringB)
            } else {
                parent[ra] = rb
            }
        }
        // A hole must lie inside its exterior: with no crossing found, one of
        // its positions off the exterior decides. Exteriors with holes get a
        // strip index of their edges, so each test costs O(√n), not O(n).
        var exteriorOf: [Int: Int] = [:]
        for (r, ring) in rings.enumerated() where exteriorOf[ring.polygon] == nil { exteriorOf[ring.polygon] = r }
        var indexes: [Int: ReferenceStripIndex] = [:]
        for (r, ring) in rings.enumerated() {
            guard let e = exteriorOf[ring.polygon], e != r, !bad.contains(r), !bad.contains(e) else { continue }
            if indexes[e] == nil { indexes[e] = ReferenceStripIndex(rings[e].points) }
            guard let index = indexes[e] else { continue }
            for p in ring.points {
                let side = index.locate(p)
                if side == 0 { continue }
                if side < 0 { bad.insert(r); bad.insert(e) }
                break
            }
        }
        return bad
    }

    private static func isVertex(_ p: FixedPoint, of ring: [FixedPoint], segment k: Int) -> Bool {
        p == ring[k] || p == ring[(k + 1) % ring.count]
    }

    /// The two directions in which a ring leaves point p, which lies on its
    /// segment `segment` (at a vertex, or inside the segment).
    private static func directions(_ ring: [FixedPoint], segment k: Int, at p: FixedPoint)
        -> ((Int64, Int64), (Int64, Int64))
    {
        let n = ring.count
        let a = ring[k], b = ring[(k + 1) % n]
        func to(_ q: FixedPoint) -> (Int64, Int64) { (q.x - p.x, q.y - p.y) }
        if p == a { return (to(ring[(k + n - 1) % n]), to(b)) }
        if p == b { return (to(a), to(ring[(k + 2) % n])) }
        return (to(a), to(b))
    }
}

/// A ring's edges bucketed by horizontal strips, for exact point-in-ring
/// tests that only look at the edges spanning the point's y.
struct ReferenceStripIndex {
    private let ring: [FixedPoint]
    private let low: Int64
    private let height: Double
    private var strips: [[Int32]]

    init(_ ring: [FixedPoint], strips count: Int? = nil) {
        self.ring = ring
        let n = max(ring.count, 1)
        var lo = Int64.max, hi = Int64.min
        for p in ring { lo = min(lo, p.y); hi = max(hi, p.y) }
        if lo > hi { lo = 0; hi = 0 }
        let k = max(1, count ?? Int(Double(n).squareRoot()))
        low = lo
        height = max(Double(hi - lo) / Double(k), 1)
        strips = Array(repeating: [], count: k)
        for i in 0..<ring.count {
            let a = ring[i], b = ring[(i + 1) % ring.count]
            for s in strip(min(a.y, b.y))...strip(max(a.y, b.y)) { strips[s].append(Int32(i)) }
        }
    }

    /// The strip of a y; monotonic in y, so an edge spanning y is in y's strip.
    private func strip(_ y: Int64) -> Int {
        min(max(Int(Double(y - low) / height), 0), strips.count - 1)
    }

    /// 1 inside, 0 on the boundary, −1 outside (crossing number, exact).
    func locate(_ p: FixedPoint) -> Int {
        guard ring.count >= 3 else { return -1 }
        var inside = false
        for i in strips[strip(p.y)] {
            let a = ring[Int(i)], b = ring[(Int(i) + 1) % ring.count]
            if (a.y > p.y) == (b.y > p.y) {
                // Not straddling: p can still be one of its ends, or on it if it is horizontal.
                if a == p || b == p { return 0 }
                if a.y == p.y, b.y == p.y, ExactPredicates.between(p, a, b) { return 0 }
                continue
            }
            let o = ExactPredicates.orient(a, b, p)
            if o == 0 { return 0 }
            // The crossing is east of p when p is left of an upward edge or right of a downward one.
            if (b.y > a.y) == (o > 0) { inside.toggle() }
        }
        return inside ? 1 : -1
    }
}
