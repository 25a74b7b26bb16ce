import Foundation
import Testing

@testable import HeatMapContouring
@testable import HeatMapCore
@testable import HeatMapDensity
@testable import HeatMapFormats

/// Known answers for every spacing strategy of docs/level-spacing.md.
@Suite struct LevelSpacingTests {
    /// 0, 1, …, 100.
    let ramp = (0...100).map(Double.init)

    @Test func linearSplitsTheRangeIntoEqualParts() {
        let t = ThresholdResolver.thresholds(for: .linear, levelCount: 4, values: ramp)
        #expect(t == [20, 40, 60, 80])
    }

    @Test func logarithmicFollowsTheApplePackageFormula() {
        let t = ThresholdResolver.thresholds(for: .logarithmic, levelCount: 3, values: ramp)
        // base 4, fractions 1/4, 2/4, 3/4: 100 (4^f − 1) / 3
        let expected = [0.25, 0.5, 0.75].map { 100 * (pow(4, $0) - 1) / 3 }
        #expect(t.count == 3)
        for (a, b) in zip(t, expected) { #expect(abs(a - b) < 1e-12) }
        #expect(t[0] < 20, "log spacing crowds the low end")
    }

    @Test func quantileUsesTheNonZeroCellsAndDropsTies() {
        // 90 zeros and 1…10: quantiles of the ten non-zero values.
        let values = Array(repeating: 0.0, count: 90) + (1...10).map(Double.init)
        let t = ThresholdResolver.thresholds(for: .quantile, levelCount: 4, values: values)
        // indices Int(f × 10) for f = 0.2, 0.4, 0.6, 0.8 → 2, 4, 6, 8 → values 3, 5, 7, 9
        #expect(t == [3, 5, 7, 9])
        // Eleven non-zero values, ten of them 5: every quantile index lands on a 5.
        let tied = Array(repeating: 0.0, count: 10) + Array(repeating: 5.0, count: 10) + [6]
        #expect(ThresholdResolver.thresholds(for: .quantile, levelCount: 5, values: tied) == [5])
    }

    @Test func thresholdsCloserThanTheContouringResolvesAreOneLevel() {
        // A plateau summed in different orders: values a few bits apart.
        // Their quantiles would make bands of no width, whose crossings
        // coincide along steep edges and fold once written.
        var values = Array(repeating: 0.0, count: 10) + [1, 2, 10]
        for k in 0..<12 { values.append(k.isMultiple(of: 2) ? 4 : 4.0.nextUp.nextUp) }
        let t = ThresholdResolver.thresholds(for: .quantile, levelCount: 8, values: values)
        #expect(t.filter { abs($0 - 4) < 1e-12 } == [4])
        #expect(zip(t, t.dropFirst()).allSatisfy { $1 - $0 > 1e-9 * 10 })
        // Given levels too: the lower of a close pair stays.
        let given = ThresholdResolver.thresholds(
            for: .custom([3, 3 + 1e-8, 5, 5 + 2e-7]), levelCount: 4, values: ramp)
        #expect(given == [3, 5, 5 + 2e-7])  // 1e-9 of the range 0…100 is 1e-7
    }

    @Test func quantileBandsOfAUniformKernelsPlateausAreValid() throws {
        // Discs of an adaptive uniform kernel overlap into plateaus whose
        // sums differ in their last bits: 20 quantiles gave three pairs of
        // thresholds one bit apart and three features GEOS calls invalid
        // (a ring running along an edge and back, nested shells).
        let path = EngineCellsTests.root.appendingPathComponent("Samples/data/quakes_fiji.csv").path
        let run = try Tool.run([
            "export", path, "--lon", "long", "--adaptive", "--kernel", "uniform", "--spacing", "quantile",
            "--levels", "20"
        ])
        #expect(run.status == 0, "\(run.stderr)")
        let features = try GeoJSONRead.features(run.stdout)
        let thresholds = try features.map {
            try #require(($0["properties"] as? [String: Any])?["threshold"] as? Double)
        }
        #expect(features.count == 12)
        #expect(zip(thresholds, thresholds.dropFirst()).allSatisfy { $1 - $0 > 1e-9 * 0.041 })
        #expect(try GeoJSONRead.featuresAtFault(run.stdout) == [])
    }

    @Test func autoPicksQuantileForSkewedDataAndLinearOtherwise() {
        let skewed = Array(repeating: 1.0, count: 100) + [1000]
        #expect(ThresholdResolver.autoSpacing(values: skewed + [0], minimum: 0, range: 1000) == .quantile)
        #expect(ThresholdResolver.autoSpacing(values: ramp, minimum: 0, range: 100) == .linear)
        #expect(ThresholdResolver.thresholds(for: .auto, levelCount: 4, values: ramp) == [20, 40, 60, 80])
    }

    @Test func customValuesAreFilteredSortedAndDeduplicated() {
        let t = ThresholdResolver.thresholds(
            for: .custom([50, -1, 10, 50, 100, 0, 250, 10.5]),
            levelCount: 1, values: ramp)
        #expect(t == [10, 10.5, 50])
    }

    @Test func customSpacingSetsTheLevelCount() {
        let c = HeatMapConfiguration(contourLevels: 3, levelSpacing: .custom([1, 2, 3, 4, 5]))
        #expect(c.contourLevels == 5)
    }

    @Test func niceValuesAreRoundAndAboutTheAskedCount() {
        let t = ThresholdResolver.thresholds(for: .nice, levelCount: 5, values: [0, 2.37])
        #expect(t == [0.5, 1, 1.5, 2])
        let u = ThresholdResolver.thresholds(for: .nice, levelCount: 10, values: [0.0013, 0.0871])
        #expect(u.count >= 7 && u.count <= 13)
        for v in u {
            let mantissa = v / pow(10, floor(log10(v)))
            let ok = [1.0, 2, 3, 4, 5, 6, 7, 8, 9].contains { abs(mantissa - $0) < 1e-9 }
            #expect(ok, "\(v) is not a round value")
        }
    }

    @Test func probabilityThresholdsHoldTheAskedShareOfMass() {
        // Mass 10 + 20 + 30 + 40 = 100: the top cell holds 40 %, top two 70 %.
        let values: [Double] = [0, 10, 20, 30, 40]
        let t = ThresholdResolver.thresholds(for: .probability([0.4, 0.7, 0.95]), levelCount: 3, values: values)
        #expect(t == [10, 30])  // 0.95 → 10, 0.7 → 30, 0.4 → 40 = max (dropped: not below max)
    }

    @Test func flatOrEmptyGridsHaveNoThresholds() {
        #expect(ThresholdResolver.thresholds(for: .linear, levelCount: 5, values: []).isEmpty)
        #expect(ThresholdResolver.thresholds(for: .quantile, levelCount: 5, values: [3, 3, 3]).isEmpty)
        #expect(ThresholdResolver.thresholds(for: .linear, levelCount: 5, values: [.nan, .nan]).isEmpty)
    }

    @Test func densityNoiseBelowZeroNeverMakesZeroAThreshold() {
        let noisy = [-5.5e-10, 0, 0.01, 0.05, 0.237]
        #expect(ThresholdResolver.thresholds(for: .nice, levelCount: 10, values: noisy).contains(0))
        let t = ThresholdResolver.thresholds(for: .nice, levelCount: 10, values: noisy, floor: 0)
        #expect(!t.isEmpty && t.allSatisfy { $0 > 0 })
    }

    @Test func undefinedNodesAreIgnored() {
        let t = ThresholdResolver.thresholds(for: .linear, levelCount: 1, values: [.nan, 0, 10, .nan])
        #expect(t == [5])
    }
}
