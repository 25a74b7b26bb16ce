import Foundation
import Testing

@testable import HeatMapCore
@testable import HeatMapDensity
@testable import HeatMapFormats

/// Weights near the largest double: a grid (or a bin) whose sums would
/// pass it is refused with the error that says so, never drawn with
/// infinite or undefined nodes, and weights whose total passes it while
/// every node stays finite give the grid of the same weights scaled down,
/// scaled up. A radius whose kernel area is not a double is refused too.
@Suite struct WeightOverflowTests {
    static let planar = PlaneProjection(kind: .planar)

    /// Points of `KernelTests.points`, every weight times `factor`.
    static func points(_ n: Int, seed: UInt64, factor: Double) -> PlanePoints {
        let p = KernelTests.points(n, seed: seed)
        return PlanePoints(x: p.x, y: p.y, weight: p.weight.map { $0 * factor })
    }

    @Test(arguments: [DensityKernel.gaussian, .quartic, .uniform], [false, true])
    func sumsPastTheLargestDoubleAreRefused(kernel: DensityKernel, adaptive: Bool) {
        // 200 points of weight up to 2e307: the nodes in the cluster sum past 1.8e308.
        let p = Self.points(200, seed: 5, factor: 1e307)
        var c = KernelTests.configuration(kernel, radius: 1.5)
        if adaptive { c.bandwidth = .adaptive() }
        #expect(throws: HeatMapError.sumsOverflow()) {
            _ = try DensityGrid.compute(points: p, projection: Self.planar, configuration: c)
        }
    }

    @Test func aMeanOfValuesPastTheLargestDoubleIsRefused() {
        let p = KernelTests.points(200, seed: 6)
        let valued = PlanePoints(x: p.x, y: p.y, weight: p.weight, value: p.weight.map { $0 * 1e307 })
        var c = KernelTests.configuration(.quartic, radius: 1.5)
        c.estimator = .mean
        #expect(throws: HeatMapError.sumsOverflow(values: true)) {
            _ = try DensityGrid.compute(points: valued, projection: Self.planar, configuration: c)
        }
    }

    @Test(arguments: [DensityKernel.gaussian, .quartic])
    func aTotalPastTheLargestDoubleWithFiniteNodesIsTheScaledGrid(kernel: DensityKernel) throws {
        // Thirty far-apart points of weight about 1e307: the total passes
        // the largest double, no node does. The grid is the one of the
        // weights scaled down by 2^1000, scaled up (to the bit where every
        // step scales by powers of two, within 1e−9 where a step does not).
        var x: [Double] = [], y: [Double] = [], w: [Double] = []
        for k in 0..<30 {
            x.append(Double(k % 6) * 40)
            y.append(Double(k / 6) * 40 + Double(k % 3))
            w.append(Double(6 + k % 9) * 1e306)
        }
        let big = PlanePoints(x: x, y: y, weight: w)
        let small = PlanePoints(x: x, y: y, weight: w.map { $0 * 0x1p-1000 })
        #expect(!big.weight.reduce(0, +).isFinite)
        for adaptive in [false, true] {
            var c = KernelTests.configuration(kernel, radius: 6)
            if adaptive { c.bandwidth = .adaptive() }
            let a = try DensityGrid.compute(points: big, projection: Self.planar, configuration: c)
            let b = try DensityGrid.compute(points: small, projection: Self.planar, configuration: c)
            #expect(a.values.contains { $0 > 1e300 })
            let worst = zip(a.values, b.values).map { abs($0 - $1 * 0x1p1000) }.max() ?? 0
            let top = a.values.max() ?? 0
            #expect(worst <= 1e-9 * top, "adaptive: \(adaptive)")
        }
    }

    @Test func theSumScaleIsOneForOrdinaryWeightsAndAPowerOfTwoBeyond() {
        #expect(AdaptivePilot.sumScale(of: [1, 2, 1e300]) == 1)
        #expect(AdaptivePilot.sumScale(of: []) == 1)
        let weights = [Double](repeating: 1.7e308, count: 1000)
        let s = AdaptivePilot.sumScale(of: weights)
        #expect(s < 1 && s.significand == 1)
        #expect((weights.reduce(0) { $0 + $1 * s } * 1024).isFinite)
    }

    @Test func theLargestValueIsTheOneAReductionFinds() {
        var rng = SplitMixGenerator(seed: 29)
        for n in [0, 1, 7, 8, 9, 64, 1001] {
            var weights = (0..<n).map { _ in Double.random(in: -5...5, using: &rng) }
            if n > 3 { weights[n / 2] = .nan }
            #expect(LargestValue.of(weights) == weights.reduce(0) { max($0, $1) })
            let negative = weights.map { -abs($0) }
            #expect(LargestValue.of(negative) == 0)
        }
        #expect(LargestValue.of([1, 2, 3, 4, 5, 6, 7, .infinity, 1]) == .infinity)
        #expect(LargestValue.of([1, 2, 3, 4, 5, 6, 7, 8, 1e300]) == 1e300)
    }

    @Test func aBinWhoseSumPassesTheLargestDoubleIsRefused() throws {
        let points = PlanePoints(x: [1, 2, 50], y: [1, 2, 50], weight: [1e308, 1e308, 1])
        let configuration = BinningConfiguration(shape: .square, size: 10, projection: .planar)
        #expect(throws: HeatMapError.sumsOverflow(values: true, cells: true)) {
            _ = try HeatMapBinning.bin(points, configuration: configuration)
        }
        // Apart, each cell's sum stays finite.
        let apart = PlanePoints(x: [1, 25, 50], y: [1, 25, 50], weight: [1e308, 1e308, 1])
        #expect(try HeatMapBinning.bin(apart, configuration: configuration).bins.count == 3)
        var h3 = try H3Binner(resolution: 6)
        try h3.add(latitudes: [-17.70, -17.70], longitudes: [178.10, 178.10], values: [1e308, 1e308])
        #expect(throws: HeatMapError.sumsOverflow(values: true, cells: true)) { _ = try h3.result() }
    }

    @Test(arguments: [1e-300, 1e300])
    func aRadiusWhoseAreaIsNotADoubleIsRefused(scale: Double) {
        let p = PlanePoints(x: [0, 1, 3].map { $0 * scale }, y: [0, 2, 1].map { $0 * scale }, weight: [1, 1, 1])
        var c = HeatMapConfiguration(radius: 2 * scale, gridResolution: 40, projection: .planar)
        c.kernel = .quartic
        #expect {
            _ = try DensityGrid.compute(points: p, projection: Self.planar, configuration: c)
        } throws: { error in
            guard case .invalidConfiguration(let why)? = error as? HeatMapError else { return false }
            return why.contains(scale < 1 ? "too small" : "too large")
        }
    }
}
