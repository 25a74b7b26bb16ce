import Foundation
import Testing

@testable import HeatMapContouring
@testable import HeatMapCore
@testable import HeatMapDensity
@testable import HeatMapFormats

/// The rectangles about a piece's diagonal that let the contact check pass
/// over pairs of pieces without reading their rings: `apart` must never
/// say so of two pieces that meet, and should say so of pieces that run
/// side by side.
@Suite struct DiagonalSlabTests {
    /// A monotone run of `count` segments from `start`, each step at most
    /// `step` in x and y, x rising and y rising or falling.
    private func run(
        from start: FixedPoint, count: Int, step: Int64, falling: Bool, rng: inout SplitMix
    ) -> [FixedPoint] {
        var p = start
        var out = [p]
        for _ in 0..<count {
            let dx = Int64(rng.next() % UInt64(step + 1)), dy = Int64(rng.next() % UInt64(step + 1))
            p = FixedPoint(x: p.x + dx, y: p.y + (falling ? -dy : dy))
            out.append(p)
        }
        return out
    }

    private func piece(_ positions: [FixedPoint]) -> (box: FixedBox, slab: DiagonalSlab) {
        let a = positions[0], b = positions[positions.count - 1]
        let box = FixedBox(minX: min(a.x, b.x), maxX: max(a.x, b.x), minY: min(a.y, b.y), maxY: max(a.y, b.y))
        let slab = positions.withUnsafeBufferPointer { p in
            DiagonalSlab(p, 0, p.count - 1, box: box, rising: (a.x <= b.x) == (a.y <= b.y))
        }
        return (box, slab)
    }

    private func meet(_ a: [FixedPoint], _ b: [FixedPoint]) -> Bool {
        for s in 0..<(a.count - 1) {
            for t in 0..<(b.count - 1) where a[s] != a[s + 1] && b[t] != b[t + 1] {
                if ExactPredicates.contact(a[s], a[s + 1], b[t], b[t + 1]) != .none { return true }
            }
        }
        for p in a where b.contains(p) { return true }
        return false
    }

    /// Pairs of runs near each other at every scale the exports meet
    /// (lattice steps of 1 to 10⁶, positions up to 2⁵⁰): none that meets is
    /// called apart, and of those that miss each other, running every which
    /// way, a fair share is (about a quarter; parallel contour lines more).
    @Test(arguments: [1, 2, 3, 4]) func apartNeverSeparatesRunsThatMeet(seed: UInt64) {
        var rng = SplitMix(seed: seed)
        var meeting = 0, separated = 0, notMeeting = 0
        for trial in 0..<3000 {
            let scale: Int64 = [1, 7, 1000, 1_000_000][trial % 4]
            let base: Int64 = trial % 3 == 0 ? 1 << 50 : (trial % 3 == 1 ? -180_000_000 : 0)
            let falling = rng.next() % 2 == 0
            let start = FixedPoint(x: base + Int64(rng.next() % 40) * scale, y: base + Int64(rng.next() % 40) * scale)
            let a = run(from: start, count: 1 + Int(rng.next() % 16), step: 4 * scale, falling: falling, rng: &rng)
            // The other: a parallel run a little off, one through a vertex of
            // the first, or one through a point on a segment of it.
            var b: [FixedPoint]
            switch rng.next() % 3 {
            case 0:
                let offset = FixedPoint(
                    x: start.x + Int64(rng.next() % 9) * scale - 4 * scale,
                    y: start.y + Int64(rng.next() % 9) * scale - 4 * scale)
                b = run(
                    from: offset, count: 1 + Int(rng.next() % 16), step: 4 * scale, falling: rng.next() % 4 != 0,
                    rng: &rng)
            case 1:
                // A monotone run through a vertex of the first: its head
                // mirrored back through the vertex, then its tail, both
                // the same way (it crosses the first there, or touches it).
                let through = a[Int(rng.next() % UInt64(a.count))]
                let way = rng.next() % 2 == 0
                let tail = run(from: through, count: 1 + Int(rng.next() % 8), step: 3 * scale, falling: way, rng: &rng)
                let head = run(from: through, count: Int(rng.next() % 8), step: 3 * scale, falling: way, rng: &rng)
                    .map { FixedPoint(x: 2 * through.x - $0.x, y: 2 * through.y - $0.y) }
                b = head.reversed() + tail.dropFirst()
            default:
                // A segment's midpoint, when it lies on the lattice.
                let s = Int(rng.next() % UInt64(a.count - 1))
                let p = a[s], q = a[s + 1]
                let mid = FixedPoint(x: (p.x + q.x) / 2, y: (p.y + q.y) / 2)
                b = run(from: mid, count: 1 + Int(rng.next() % 8), step: 3 * scale, falling: !falling, rng: &rng)
            }
            guard b.count >= 2 else { continue }
            let pa = piece(a), pb = piece(b)
            guard pa.box.overlaps(pb.box) else { continue }
            let apart = DiagonalSlab.apart(pa.box, pa.slab, pb.box, pb.slab)
            #expect(apart == DiagonalSlab.apart(pb.box, pb.slab, pa.box, pa.slab), "apart is symmetric")
            if meet(a, b) {
                meeting += 1
                #expect(!apart, "runs that meet called apart: \(a) and \(b)")
            } else {
                notMeeting += 1
                if apart { separated += 1 }
            }
        }
        #expect(meeting > 500)
        #expect(separated * 6 > notMeeting, "\(separated) of \(notMeeting) runs that miss each other called apart")
    }

    /// Two long parallel diagonals a lattice step apart, whose boxes all but
    /// coincide, are apart; a box with no length has no slab.
    @Test func parallelDiagonalsAStepApartAreApart() {
        let a = (0...16).map { FixedPoint(x: Int64($0) * 1000, y: Int64($0) * 1000) }
        let b = a.map { FixedPoint(x: $0.x + 1, y: $0.y) }
        let pa = piece(a), pb = piece(b)
        #expect(pa.box.overlaps(pb.box))
        #expect(DiagonalSlab.apart(pa.box, pa.slab, pb.box, pb.slab))
        let c = a.map { FixedPoint(x: $0.x, y: $0.y) }
        #expect(!DiagonalSlab.apart(pa.box, pa.slab, piece(c).box, piece(c).slab))
        let point = piece([FixedPoint(x: 5, y: 5), FixedPoint(x: 5, y: 5)])
        #expect(!point.slab.low.isFinite)
        #expect(!DiagonalSlab.apart(pa.box, pa.slab, point.box, point.slab))
        #expect(!DiagonalSlab.apart(pa.box, pa.slab, pb.box, .unbounded))
    }
}
