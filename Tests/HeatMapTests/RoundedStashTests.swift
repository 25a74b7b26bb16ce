import Testing

@testable import HeatMapContouring
@testable import HeatMapCore
@testable import HeatMapDensity
@testable import HeatMapFormats

/// The stash keeps features packed within its budget of bytes, each taken
/// once, as they were.
@Suite struct RoundedStashTests {
    /// One ring of `positions` positions a step apart: packed, 5 bytes of
    /// counts and 2 bytes a position.
    static func feature(_ positions: Int) -> [PrecisionRounding.Polygon] {
        [[FixedRing(points: (0..<positions).map { FixedPoint(x: Int64($0), y: 0) }, decimals: 0)]]
    }

    @Test func keepsWithinItsBudgetAndGivesEachOnce() {
        #expect(PackedPolygons(Self.feature(4)).bytes.count == 13)
        let stash = RoundedStash(bytes: 64 + 17)
        stash.keep(Self.feature(4), for: 0)  // 64 bytes as it is
        stash.keep(Self.feature(7), for: 1)  // 19 bytes packed: does not fit beside the first
        stash.keep(Self.feature(6), for: 2)  // 17 bytes packed: fits
        stash.keep(Self.feature(1), for: 2)  // one per feature: the first stays
        #expect(stash.count == 2)
        #expect(stash.take(1) == nil)
        #expect(stash.take(2)?.first?.first?.points.count == 6)
        #expect(stash.take(2) == nil)
        #expect(stash.take(0)?.first?.first?.points.count == 4)
        #expect(stash.count == 0)
    }

    /// A feature is kept as it is only when the features still to come
    /// would fit packed beside it: packed here, the first leaves room for
    /// the two after it, which as it is it would not.
    @Test func keepsRoomForTheFeaturesToCome() {
        let stash = RoundedStash(bytes: 64 + 17)
        stash.keep(Self.feature(4), for: 0, positionsToCome: 6 + 7)  // 13 bytes packed
        stash.keep(Self.feature(6), for: 1, positionsToCome: 7)  // 17 bytes packed
        stash.keep(Self.feature(7), for: 2)  // 19 bytes packed
        #expect(stash.count == 3)
        #expect(stash.take(0)?.first?.first?.points.count == 4)
        #expect(stash.take(2)?.first?.first?.points.count == 7)
    }

    /// Forgetting a feature gives its bytes back to the budget, and a
    /// feature replaced is kept packed in the room its last polygons held.
    @Test func forgettingAndReplacingGiveTheRoomBack() {
        let stash = RoundedStash(bytes: 64)
        stash.keep(Self.feature(4), for: 0)  // 64 bytes as it is: the whole budget
        stash.forget(0)
        #expect(stash.count == 0)
        stash.keep(Self.feature(4), for: 0)
        stash.replace(0, with: Self.feature(7))  // 19 bytes packed
        stash.keep(Self.feature(6), for: 1)  // 17 bytes packed: fits beside it
        #expect(stash.take(0)?.first?.first?.points.count == 7)
        #expect(stash.take(1)?.first?.first?.points.count == 6)
    }

    @Test func aStashWithoutRoomKeepsNothing() {
        let stash = RoundedStash(bytes: 0)
        stash.keep(Self.feature(1), for: 0)
        #expect(stash.take(0) == nil)
    }

    /// Packing gives back the very rings, whatever their differences: far
    /// jumps, negative values, the extremes of Int64 and empty rings.
    @Test func packedPolygonsUnpackAsTheyWere() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<50 {
            let polygons: [PrecisionRounding.Polygon] = (0..<Int.random(in: 0...3, using: &generator)).map { _ in
                (0..<Int.random(in: 1...4, using: &generator)).map { _ in
                    let n = Int.random(in: 0...40, using: &generator)
                    let scale = Int64(1) << Int64.random(in: 0...62, using: &generator)
                    let points = (0..<n).map { _ in
                        FixedPoint(
                            x: Int64.random(in: -scale...scale, using: &generator),
                            y: Bool.random(using: &generator) ? .min : .max)
                    }
                    return FixedRing(points: points, decimals: Int.random(in: -3...15, using: &generator))
                }
            }
            let back = PackedPolygons(polygons).polygons
            #expect(back.count == polygons.count)
            #expect(back.map { $0.map(\.points) } == polygons.map { $0.map(\.points) })
            #expect(back.map { $0.map(\.decimals) } == polygons.map { $0.map(\.decimals) })
        }
    }

    /// A ring held at more decimals than it was rounded to packs its zeros
    /// away: 10^7 times the steps of a one-step ring takes the same bytes.
    @Test func spareZerosArePackedAway() {
        let steps = (0..<100).map { FixedPoint(x: Int64($0 % 7) - 3, y: Int64($0 % 5)) }
        let wide = steps.map { FixedPoint(x: $0.x * 10_000_000, y: $0.y * 10_000_000) }
        let packed = PackedPolygons([[FixedRing(points: wide, decimals: 13)]])
        #expect(packed.bytes.count == PackedPolygons([[FixedRing(points: steps, decimals: 13)]]).bytes.count)
        #expect(packed.polygons[0][0].points == wide)
        for k in 0...TensDivisor.largestExponent {
            let v = TensDivisor.powers[k] * 3
            #expect(TensDivisor.divides(v, k) && TensDivisor.divides(-v, k))
            #expect(TensDivisor(exponent: k).quotient(-v) == -3)
            #expect(k == 0 || !TensDivisor.divides(v + 1, k))
        }
    }
}
