import Foundation
import Testing

@testable import HeatMapContouring
@testable import HeatMapCore
@testable import HeatMapDensity
@testable import HeatMapFormats

/// Bandwidth rules (docs/density-model.md): Scott, Silverman, the Apple package's adaptive
/// rule, weighted statistics, the quartile sample, degenerate input.
@Suite struct BandwidthTests {
    static let planar = PlaneProjection(kind: .planar)

    static func estimator(_ points: [(Double, Double, Double)], capacity: Int = 100_000) -> BandwidthEstimator {
        var e = BandwidthEstimator(reservoirCapacity: capacity)
        for (x, y, w) in points { e.add(x: x, y: y, weight: w) }
        return e
    }

    @Test func scottOnASquareOfFourPoints() {
        // (±1, ±1): unbiased sd along each axis √(4/3); n = 4.
        let e = Self.estimator([(-1, -1, 1), (1, -1, 1), (-1, 1, 1), (1, 1, 1)])
        let sd = (4.0 / 3).squareRoot()
        #expect(abs(e.standardDeviation.x - sd) < 1e-12)
        #expect(abs(e.standardDeviation.y - sd) < 1e-12)
        let expected = 3 * pow(4, -1.0 / 6) * sd
        #expect(abs(e.radius(for: .scott, fixed: 99, projection: Self.planar) - expected) < 1e-12)
    }

    @Test func scottAveragesTheVariancesOfBothAxes() {
        // x spread 0 (a vertical line), y values 0, 2, 4, 6: sd_y = √(20/3).
        let e = Self.estimator([(5, 0, 1), (5, 2, 1), (5, 4, 1), (5, 6, 1)])
        let spread = ((0 + 20.0 / 3) / 2).squareRoot()
        #expect(abs(e.radius(for: .scott, fixed: 99, projection: Self.planar) - 3 * pow(4, -1.0 / 6) * spread) < 1e-12)
    }

    @Test func weightsCountAsRepeatedPointsInMeansAndSpreads() {
        let weighted = Self.estimator([(0, 0, 3), (4, 2, 1)])
        #expect(weighted.mean == PlanePoint(x: 1, y: 0.5))
        #expect(abs(weighted.effectiveCount - 16.0 / 10) < 1e-12)
        #expect(weighted.totalWeight == 4)
        #expect(weighted.count == 2)
    }

    @Test func silvermanUsesTheInterquartileRangeWhenItIsSmaller() {
        // Mostly tight points plus far outliers along x: IQR/1.349 < sd.
        var points: [(Double, Double, Double)] = []
        for i in 0..<100 { points.append((Double(i % 10), Double(i / 10), 1)) }
        points.append((1_000, 5, 1))
        points.append((-1_000, 5, 1))
        let e = Self.estimator(points)
        let iqr = e.interquartileRange
        #expect(iqr.x > 0 && iqr.x < 10)
        let sd = e.standardDeviation
        #expect(sd.x > 100)
        let n = e.effectiveCount
        let expected = 3 * pow(n, -1.0 / 6) * (min(sd.x, iqr.x / 1.349) + min(sd.y, iqr.y / 1.349)) / 2
        let silverman = e.radius(for: .silverman, fixed: 99, projection: Self.planar)
        #expect(abs(silverman - expected) < 1e-9)
        #expect(silverman < e.radius(for: .scott, fixed: 99, projection: Self.planar) / 10)
    }

    @Test func quartilesAreExactBelowTheSampleCapacity() {
        let e = Self.estimator((1...8).map { (Double($0), 0, 1) })
        // Weighted quartiles: smallest value with cumulative weight ≥ q·Σw.
        #expect(e.interquartileRange.x == 6 - 2)
    }

    @Test func quartilesAreEstimatedBeyondTheSampleCapacity() {
        var e = BandwidthEstimator(reservoirCapacity: 2_000)
        for i in 0..<200_000 { e.add(x: Double(i % 1000), y: Double((i * 7) % 1000), weight: 1) }
        // Uniform on 0…999: IQR ≈ 500.
        #expect(abs(e.interquartileRange.x - 500) < 40)
        #expect(abs(e.interquartileRange.y - 500) < 40)
        #expect(e.count == 200_000)
    }

    @Test func autoFollowsTheApplePackageRule() {
        // 100 points on a 1000 × 1000 box: spacing √(1e6 / 100) = 100.
        var points: [(Double, Double, Double)] = []
        for i in 0..<100 { points.append((Double(i % 10) * 1000 / 9, Double(i / 10) * 1000 / 9, 1)) }
        let e = Self.estimator(points)
        #expect(abs(e.radius(for: .auto, fixed: 1, projection: Self.planar) - 100) < 1e-9)
        // Geographic planes clamp to 50 m … 50 km.
        let geo = PlaneProjection(kind: .equalArea)
        #expect(e.radius(for: .auto, fixed: 1, projection: geo) == 100)
        let tight = Self.estimator([(0, 0, 1), (1, 1, 1), (2, 0, 1)])
        #expect(tight.radius(for: .auto, fixed: 1, projection: geo) == 50)
        let wide = Self.estimator([(0, 0, 1), (1e6, 1e6, 1)])
        #expect(wide.radius(for: .auto, fixed: 1, projection: geo) == 50_000)
        // Planar: longer side × [1/1000, 1/2].
        #expect(wide.radius(for: .auto, fixed: 1, projection: Self.planar) == 5e5)
    }

    @Test(arguments: Bandwidth.allCases)
    func degenerateInputFallsBackToTheFixedRadius(bandwidth: Bandwidth) {
        let cases: [[(Double, Double, Double)]] = [
            [], [(3, 4, 1)], [(3, 4, 1), (3, 4, 2), (3, 4, 5)], [(1, 2, 0), (5, 6, 0)],
            [(1e9, 1e9, 1), (1e9 + 1e-7, 1e9, 1)]  // a spread lost in rounding
        ]
        for points in cases {
            let e = Self.estimator(points)
            let r = e.radius(for: bandwidth, fixed: 7, projection: Self.planar)
            #expect(r == 7, "\(bandwidth) on \(points)")
        }
    }

    @Test func badValuesAreIgnored() {
        var e = BandwidthEstimator()
        e.add(x: .nan, y: 0, weight: 1)
        e.add(x: 0, y: .infinity, weight: 1)
        e.add(x: 0, y: 0, weight: -1)
        e.add(x: 1, y: 1, weight: .nan)
        #expect(e.count == 0)
        #expect(e.bounds.isEmpty)
    }

    @Test func zeroWeightPointsMoveOnlyTheBounds() {
        let e = Self.estimator([(0, 0, 1), (10, 0, 1), (500, 500, 0)])
        #expect(e.bounds.maxX == 500)
        #expect(e.weightedBounds.maxX == 10)
        #expect(e.weightedCount == 2)
    }

    @Test func theChosenRadiusIsReportedByTheGrid() throws {
        var rng = SplitMix(seed: 8)
        var points = PlanePoints()
        for _ in 0..<300 { points.append(x: rng.uniform(0, 50), y: rng.uniform(0, 20), weight: rng.uniform(0.5, 1.5)) }
        let e = Self.estimator((0..<points.count).map { (points.x[$0], points.y[$0], points.weight[$0]) })
        for bandwidth in [Bandwidth.scott, .silverman, .auto] {
            var configuration = HeatMapConfiguration(radius: 1, gridResolution: 60, projection: .planar)
            configuration.bandwidth = bandwidth
            let grid = try DensityGrid.compute(points: points, projection: Self.planar, configuration: configuration)
            #expect(grid.radius == e.radius(for: bandwidth, fixed: 1, projection: Self.planar))
            #expect(grid.radius != 1)
        }
    }
}
