import Foundation
import Testing

@testable import HeatMapContouring
@testable import HeatMapCore
@testable import HeatMapDensity
@testable import HeatMapFormats

/// The contact check's pieces: how rings are cut, and that a pair of pieces
/// hands on exactly the segment pairs a comparison of every segment of the
/// two would find.
@Suite struct MonotonePiecesTests {
    /// Random walks that wander and turn back (runs of every length, zero-
    /// length steps, long straight stretches), closed as rings.
    private func rings(seed: UInt64, count: Int) -> [[FixedPoint]] {
        var rng = SplitMix(seed: seed)
        return (0..<count).map { _ in
            let n = 3 + Int(rng.next() % 120)
            var p = FixedPoint(x: Int64(rng.next() % 50), y: Int64(rng.next() % 50))
            var dx: Int64 = 1, dy: Int64 = 1
            return (0..<n).map { _ in
                // Keep going one way for a while, then turn in x, y or both.
                if rng.next() % 9 == 0 { dx = -dx }
                if rng.next() % 11 == 0 { dy = -dy }
                let stepX = Int64(rng.next() % 4), stepY = Int64(rng.next() % 4)
                p = FixedPoint(x: p.x + dx * stepX, y: p.y + dy * stepY)
                return p
            }
        }
    }

    private func box(_ a: FixedPoint, _ b: FixedPoint) -> FixedBox {
        FixedBox(minX: min(a.x, b.x), maxX: max(a.x, b.x), minY: min(a.y, b.y), maxY: max(a.y, b.y))
    }

    /// Pieces a caller does not keep are left out, the others are those of
    /// the whole cut, and no kept piece is joined to a run across a gap.
    @Test(arguments: [4, 5]) func piecesLeftOutBreakTheirRuns(seed: UInt64) {
        let rings = rings(seed: seed, count: 30)
        let all = MonotonePieces(rings)
        let window = FixedBox(minX: 10, maxX: 30, minY: 10, maxY: 30)
        // Odd rings are cut only within the window.
        let some = MonotonePieces(rings) { r, box in r % 2 == 0 || box.overlaps(window) }
        var expected: [(ring: Int, segments: Range<Int>)] = []
        for k in 0..<all.count where all.ring(k) % 2 == 0 || all.box(k).overlaps(window) {
            expected.append((all.ring(k), all.segments(k)))
        }
        #expect(some.count == expected.count)
        for k in 0..<min(some.count, expected.count) {
            #expect(some.ring(k) == expected[k].ring && some.segments(k) == expected[k].segments)
            if some.joinsPrevious(k) {
                #expect(
                    some.ring(k - 1) == some.ring(k) && some.segments(k - 1).upperBound == some.segments(k).lowerBound)
            }
        }
        #expect(Set(some.spiky) == Set(all.spiky))
    }

    @Test(arguments: [1, 2, 3]) func piecesCoverTheRingsInOrderAndStayMonotone(seed: UInt64) {
        let rings = rings(seed: seed, count: 40)
        let pieces = MonotonePieces(rings)
        var next = [Int](repeating: 0, count: rings.count)
        for k in 0..<pieces.count {
            let r = pieces.ring(k), ring = rings[r], n = ring.count
            let segments = pieces.segments(k)
            #expect(segments.lowerBound == next[r], "piece \(k) starts where the last ended")
            #expect(segments.count >= 1 && segments.count <= MonotonePieces.pieceLength)
            next[r] = segments.upperBound
            // Every position of the piece lies in its box, and x and y never turn back.
            let b = pieces.box(k)
            var sx = 0, sy = 0
            for s in segments {
                let a = ring[s], c = ring[s + 1 == n ? 0 : s + 1]
                #expect(b.overlaps(box(a, c)) && a.x >= b.minX && a.x <= b.maxX && a.y >= b.minY && a.y <= b.maxY)
                let tx = a.x < c.x ? 1 : (a.x > c.x ? -1 : 0), ty = a.y < c.y ? 1 : (a.y > c.y ? -1 : 0)
                #expect(tx == 0 || sx == 0 || tx == sx)
                #expect(ty == 0 || sy == 0 || ty == sy)
                if tx != 0 { sx = tx }
                if ty != 0 { sy = ty }
            }
            if k > 0, pieces.joinsPrevious(k) { #expect(pieces.ring(k - 1) == r) }
        }
        for (r, ring) in rings.enumerated() { #expect(next[r] == ring.count) }
    }

    @Test(arguments: [4, 5, 6]) func aPairOfPiecesGivesEveryOverlappingSegmentPair(seed: UInt64) {
        let rings = rings(seed: seed, count: 12)
        let pieces = MonotonePieces(rings)
        var compared = 0, skipped = 0
        defer { #expect(compared > 100 && skipped > 10, "\(compared) pairs compared, \(skipped) apart") }
        for u in 0..<pieces.count {
            for v in (u + 1)..<pieces.count where pieces.box(u).overlaps(pieces.box(v)) {
                var got: [[Int]] = []
                pieces.forEachSegmentPair(u, v) { one, other in
                    got.append([one.ring, one.index, other.ring, other.index])
                    #expect(
                        one.start == rings[one.ring][one.index]
                            && other.end == rings[other.ring][(other.index + 1) % rings[other.ring].count])
                }
                var want: [[Int]] = []
                let ra = pieces.ring(u), rb = pieces.ring(v)
                let a = rings[ra], b = rings[rb]
                for s in pieces.segments(u) {
                    for t in pieces.segments(v) {
                        if ra == rb, abs(s - t) == 1 || abs(s - t) == a.count - 1 { continue }
                        if box(a[s], a[(s + 1) % a.count]).overlaps(box(b[t], b[(t + 1) % b.count])) {
                            want.append([ra, s, rb, t])
                        }
                    }
                }
                // Pieces their slabs show apart hand out nothing: then no
                // two of their segments meet.
                if got.isEmpty, !want.isEmpty {
                    for w in want {
                        let a = rings[w[0]], b = rings[w[2]]
                        let contact = ExactPredicates.contact(
                            a[w[1]], a[(w[1] + 1) % a.count], b[w[3]], b[(w[3] + 1) % b.count])
                        #expect(contact == .none, "pieces \(u) and \(v), called apart, meet")
                    }
                    skipped += 1
                    continue
                }
                #expect(got == want, "pieces \(u) and \(v)")
                compared += 1
            }
        }
    }

    /// The neighbour pass and the grid together compare every pair of
    /// pieces whose boxes overlap, except pieces of one run and neighbours
    /// that can only meet at their joint, which hand out no segment pair.
    @Test(arguments: [7, 8]) func neighboursAndTheGridCoverEveryPair(seed: UInt64) {
        let rings = rings(seed: seed, count: 30)
        let pieces = MonotonePieces(rings)
        var got = Set<[Int]>()
        pieces.forEachNeighbourPair { u, v in got.insert([u, v]) }
        BoxPairs.forEach(pieces, stripBoxes: 5) { u, v in got.insert([u, v]) }
        var want = Set<[Int]>()
        var cleared = 0
        for u in 0..<pieces.count {
            var oneRun = true
            for v in (u + 1)..<pieces.count {
                oneRun = oneRun && pieces.joinsPrevious(v)
                guard !oneRun, pieces.box(u).overlaps(pieces.box(v)) else { continue }
                if v == u + 1, pieces.ring(u) == pieces.ring(v), pieces.onlyShareTheirJoint(v) {
                    var pairs = 0
                    pieces.forEachSegmentPair(u, v) { _, _ in pairs += 1 }
                    #expect(pairs == 0, "pieces \(u), \(v) cleared with \(pairs) segment pairs")
                    cleared += 1
                    continue
                }
                want.insert([u, v])
            }
        }
        #expect(cleared > 0)
        #expect(
            want.isSubset(of: got),
            "missing \(want.subtracting(got).sorted { $0.lexicographicallyPrecedes($1) }.prefix(5))")
    }
}
