import Testing

@testable import HeatMapContouring
@testable import HeatMapCore
@testable import HeatMapDensity
@testable import HeatMapFormats

/// The stash keeps features within its budget of positions, each taken once.
@Suite struct RoundedStashTests {
    static func feature(_ positions: Int) -> [PrecisionRounding.Polygon] {
        [[FixedRing(points: (0..<positions).map { FixedPoint(x: Int64($0), y: 0) }, decimals: 0)]]
    }

    @Test func keepsWithinItsBudgetAndGivesEachOnce() {
        let stash = RoundedStash(positions: 10)
        stash.keep(Self.feature(4), for: 0)
        stash.keep(Self.feature(7), for: 1)  // does not fit beside the first
        stash.keep(Self.feature(6), for: 2)
        stash.keep(Self.feature(1), for: 2)  // one per feature: the first stays
        #expect(stash.count == 2)
        #expect(stash.take(1) == nil)
        #expect(stash.take(2)?.first?.first?.points.count == 6)
        #expect(stash.take(2) == nil)
        #expect(stash.take(0)?.first?.first?.points.count == 4)
        #expect(stash.count == 0)
    }

    @Test func aStashWithoutRoomKeepsNothing() {
        let stash = RoundedStash(positions: 0)
        stash.keep(Self.feature(1), for: 0)
        #expect(stash.take(0) == nil)
    }
}
