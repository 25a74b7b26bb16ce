import Testing

@testable import HeatMapContouring
@testable import HeatMapCore
@testable import HeatMapDensity
@testable import HeatMapFormats

/// gdal_contour's -i/-off and -e level forms.
@Suite struct IntervalLevelsTests {
    @Test func intervalLevelsLieInsideTheRange() throws {
        #expect(
            try IntervalLevels.interval(100, minimum: -20, maximum: 980) == [
                0, 100, 200, 300, 400, 500, 600, 700, 800, 900
            ])
        #expect(try IntervalLevels.interval(100, offset: 50, minimum: 50, maximum: 400) == [150, 250, 350])
        #expect(try IntervalLevels.interval(1, minimum: 5, maximum: 5).isEmpty)
        #expect(throws: IntervalLevels.Failure.self) { try IntervalLevels.interval(1e-9, minimum: 0, maximum: 1) }
        #expect(throws: IntervalLevels.Failure.self) { try IntervalLevels.interval(0, minimum: 0, maximum: 1) }
    }

    /// Offsets far beyond the range (where k + 1 == k in doubles) give the
    /// same levels as their remainder, at once; the count is capped like --levels.
    @Test func farOffsetsAreReducedAndCountsBounded() throws {
        #expect(try IntervalLevels.interval(1, offset: 1e16, minimum: 0, maximum: 0.05).isEmpty)
        #expect(try IntervalLevels.interval(1, offset: 1e16 + 2, minimum: -0.5, maximum: 2.5) == [0, 1, 2])
        let far = try IntervalLevels.interval(1e-4, offset: 1e300, minimum: 0, maximum: 0.05)
        #expect(far.count >= 499 && far.count <= 500)
        #expect(zip(far, far.dropFirst()).allSatisfy { $0 < $1 })
        #expect(try IntervalLevels.interval(1e-3, minimum: 0, maximum: 1).count == 999)
        #expect(throws: IntervalLevels.Failure.self) { try IntervalLevels.interval(1e-4, minimum: 0, maximum: 1) }
    }

    @Test func exponentialLevelsArePowersFromOne() throws {
        #expect(try IntervalLevels.exponential(base: 10, minimum: 0.5, maximum: 20_000) == [1, 10, 100, 1000, 10_000])
        #expect(try IntervalLevels.exponential(base: 2, minimum: -3, maximum: 9) == [0, 1, 2, 4, 8])
        #expect(try IntervalLevels.exponential(base: 10, minimum: 0, maximum: 0.5).isEmpty)
        #expect(throws: IntervalLevels.Failure.self) { try IntervalLevels.exponential(base: 1, minimum: 0, maximum: 1) }
    }
}
