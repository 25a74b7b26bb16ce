import Foundation
import Testing

@testable import HeatMapContouring
@testable import HeatMapCore

/// The pieces of small rings as one item of the grid (``PieceGroups``)
/// against the pieces as items of their own: the same pairs of pieces
/// that need comparing.
@Suite struct PieceGroupsTests {
    /// Rings of 3 to 12 vertices (most) and up to 70, nested, side by side
    /// and crossing on a small lattice: every pair of pieces the grid of
    /// the pieces hands out, and that needs comparing (pieces of two rings,
    /// or of one ring neither next to each other nor in one run), the
    /// groups hand out too, and nothing else but pairs whose boxes overlap.
    @Test(arguments: [1, 2, 3]) func theGroupsHandOutThePairsThePiecesNeed(seed: UInt64) {
        var rng = SplitMix(seed: seed)
        var grouped = 0
        for _ in 0..<150 {
            let side = 20 + Double(rng.next() % 200)
            var rings: [[FixedPoint]] = []
            for _ in 0..<(1 + Int(rng.next() % 60)) {
                let n = rng.next() % 5 == 0 ? 13 + Int(rng.next() % 58) : 3 + Int(rng.next() % 10)
                let cx = rng.uniform(0, side), cy = rng.uniform(0, side), r = rng.uniform(1, side / 4)
                var points = (0..<n).map { k -> FixedPoint in
                    let t = 2 * Double.pi * (Double(k) + rng.unit()) / Double(n), d = r * rng.uniform(0.3, 1)
                    return FixedPoint(x: Int64((cx + d * cos(t)).rounded()), y: Int64((cy + d * sin(t)).rounded()))
                }
                if rng.next() % 2 == 0 { points.reverse() }
                rings.append(FixedRing.clean(points))
            }
            let pieces = MonotonePieces(rings.filter { !$0.isEmpty })
            func sameRun(_ u: Int, _ v: Int) -> Bool { (u + 1...v).allSatisfy { pieces.joinsPrevious($0) } }
            func needed(_ u: Int, _ v: Int) -> Bool {
                pieces.ring(u) != pieces.ring(v) || (v != u + 1 && !sameRun(u, v))
            }
            var plain = Set<[Int]>()
            BoxPairs.forEach(pieces) { u, v in
                if needed(min(u, v), max(u, v)) { plain.insert([min(u, v), max(u, v)]) }
            }
            let groups = PieceGroups(pieces)
            var found = Set<[Int]>()
            func take(_ u: Int, _ v: Int) {
                #expect(u < v && pieces.box(u).overlaps(pieces.box(v)))
                if needed(u, v) { found.insert([u, v]) }
            }
            groups.forEachInnerPair(take)
            BoxPairs.forEach(groups) { i, j in groups.forEachPiecePair(i, j, take) }
            #expect(found == plain, "\(found.subtracting(plain).sorted { $0.lexicographicallyPrecedes($1) }.prefix(5))")
            grouped += pieces.count - groups.count
        }
        // Most rings are small: far fewer items than pieces.
        #expect(grouped > 1000)
    }
}
