import Foundation
import Synchronization
import Testing

@testable import HeatMapContouring
@testable import HeatMapCore
@testable import HeatMapDensity
@testable import HeatMapFormats

/// The density engine (docs/density-model.md): exact sums, mass, the methods against a brute
/// force sum, the mean estimator, degenerate input, determinism, streaming.
/// Serialized: the cancellation-latency test must not share the cores with
/// the brute-force sums of its neighbours.
@Suite(.serialized) struct DensityTests {
    static let planar = PlaneProjection(kind: .planar)

    /// Σ w exp(−d²/2σ²)/(2πσ²) at every node, untruncated: O(N · cells).
    static func bruteForce(_ points: PlanePoints, _ g: GridGeometry, radius: Double) -> [Double] {
        let s = radius / 3
        var out = [Double](repeating: 0, count: g.count)
        for r in 0..<g.rows {
            for c in 0..<g.columns {
                let node = g.node(column: c, row: r)
                var sum = 0.0
                for i in 0..<points.count {
                    let dx = node.x - points.x[i], dy = node.y - points.y[i]
                    sum += points.weight[i] * exp(-(dx * dx + dy * dy) / (2 * s * s))
                }
                out[r * g.columns + c] = sum / (2 * .pi * s * s)
            }
        }
        return out
    }

    static func grid(
        _ points: PlanePoints, _ g: GridGeometry, radius: Double, method: DensityMethod,
        estimator: DensityEstimator = .density,
        projection: PlaneProjection = planar
    ) throws -> DensityGrid {
        var accumulator = try DensityAccumulator(
            geometry: g, radius: radius, projection: projection,
            estimator: estimator, method: method,
            expectedCount: points.count)
        try accumulator.add(points)
        return try accumulator.finish()
    }

    static func maxError(_ a: [Double], _ b: [Double]) -> Double {
        zip(a, b).map { abs($0 - $1) }.max() ?? 0
    }

    // MARK: exact sums

    @Test(arguments: DensityMethod.allCases)
    func sumsOfOneToThreePointsMatchTheFormula(method: DensityMethod) throws {
        let g = GridGeometry(columns: 40, rows: 30, x0: 0, y0: 0, dx: 0.5, dy: 0.5)
        let radius = 4.5  // σ = 1.5 = 3 cells
        let sigma = radius / 3
        let sets: [[(Double, Double, Double)]] = [
            [(10.2, 7.3, 1)],
            [(10.2, 7.3, 1), (12.9, 8.1, 2.5)],
            [(5.05, 5.55, 0.5), (9.0, 9.0, 1), (14.4, 6.2, 3)]
        ]
        for set in sets {
            var points = PlanePoints()
            for (x, y, w) in set { points.append(x: x, y: y, weight: w) }
            let grid = try Self.grid(points, g, radius: radius, method: method)
            var peak = 0.0
            for (c, r) in [(20, 14), (21, 15), (25, 16), (10, 11), (18, 12), (28, 12), (0, 0)] {
                // The hand formula: Σ w exp(−d²/2σ²) / (2πσ²).
                var expected = 0.0
                for (x, y, w) in set {
                    let dx = Double(c) * 0.5 - x, dy = Double(r) * 0.5 - y
                    expected += w * exp(-(dx * dx + dy * dy) / (2 * sigma * sigma)) / (2 * .pi * sigma * sigma)
                }
                peak = max(peak, expected)
                let value = grid.values[r * g.columns + c]
                // The exact splat drops nodes beyond 5σ: at most e^−12.5 ≈ 4e−6 of a peak.
                let tolerance = method == .exact ? 1e-5 * peak : 5e-4 * peak
                #expect(abs(value - expected) <= tolerance, "node (\(c), \(r)): \(value) vs \(expected)")
            }
            #expect(grid.radius == radius)
        }
    }

    @Test func onePointPeaksAtItsNodeWithOneOverTwoPiSigmaSquared() throws {
        let g = GridGeometry(columns: 21, rows: 21, x0: -10, y0: -10, dx: 1, dy: 1)
        var points = PlanePoints()
        points.append(x: 0, y: 0, weight: 2)
        let grid = try Self.grid(points, g, radius: 6, method: .exact)
        let peak = 2 / (2 * Double.pi * 4)
        #expect(abs(grid.values[10 * 21 + 10] - peak) < 1e-9 * peak)
        #expect(abs(grid.values[10 * 21 + 11] - peak * exp(-1.0 / 8)) < 1e-9 * peak)
        // Symmetric about the point (up to the recurrence's rounding).
        #expect(abs(grid.values[10 * 21 + 7] - grid.values[10 * 21 + 13]) < 1e-9 * peak)
        #expect(abs(grid.values[7 * 21 + 10] - grid.values[13 * 21 + 10]) < 1e-9 * peak)
    }

    @Test func geographicValuesArePerSquareKilometre() throws {
        let g = GridGeometry(columns: 31, rows: 31, x0: -15_000, y0: -15_000, dx: 1_000, dy: 1_000)
        var points = PlanePoints()
        points.append(x: 0, y: 0, weight: 1)
        let projection = PlaneProjection(kind: .equalArea, centreLatitude: -41, centreLongitude: 174)
        let grid = try Self.grid(points, g, radius: 3_000, method: .exact, projection: projection)
        // σ = 1 km: the peak is 1 / (2π · 1 km²).
        #expect(abs(grid.values[15 * 31 + 15] - 1 / (2 * .pi)) < 1e-9)
        #expect(grid.units == "per km²")
    }

    // MARK: mass

    @Test(arguments: DensityMethod.allCases)
    func massIsKeptWithinOnePercent(method: DensityMethod) throws {
        var rng = SplitMix(seed: 3)
        var points = PlanePoints()
        for _ in 0..<500 { points.append(x: rng.uniform(0, 100), y: rng.uniform(0, 60), weight: rng.uniform(0.1, 3)) }
        for radius in [3.0, 12.0] {
            var configuration = HeatMapConfiguration(radius: radius, gridResolution: 150, projection: .planar)
            configuration.densityMethod = method
            let grid = try DensityGrid.compute(points: points, projection: Self.planar, configuration: configuration)
            let mass = grid.values.reduce(0, +) * grid.geometry.cellArea
            #expect(abs(mass / points.totalWeight - 1) < 0.01)
        }
    }

    // MARK: methods against brute force

    @Test(arguments: [1.0, 3.0, 15.0])
    func everyMethodIsWithinOneThousandthOfTheMaximum(sigmaInCells: Double) throws {
        var rng = SplitMix(seed: UInt64(sigmaInCells * 10))
        let g = GridGeometry(columns: 70, rows: 60, x0: 0, y0: 0, dx: 1, dy: 1.2)
        for n in [1, 3, 60] {
            var points = PlanePoints()
            for _ in 0..<n {
                points.append(x: rng.uniform(-0.5, 69.5), y: rng.uniform(-0.6, 71.4), weight: rng.uniform(0.2, 2))
            }
            let radius = 3 * sigmaInCells
            let exact = Self.bruteForce(points, g, radius: radius)
            let peak = exact.max()!
            for method in DensityMethod.allCases {
                let grid = try Self.grid(points, g, radius: radius, method: method)
                let error = Self.maxError(grid.values, exact) / peak
                #expect(error <= 1e-3, "σ = \(sigmaInCells) cells, \(n) points, \(method): \(error)")
            }
        }
    }

    /// Each scheme the planner can pick, forced, on the σ it is meant for.
    @Test(arguments: [
        (DensityScheme.rowMoments(order: 5), 1.05), (.rowMoments(order: 4), 1.3), (.rowMoments(order: 3), 2.05),
        (.taylorBinning(order: 4), 2.05),
        (.taylorBinning(order: 3), 3.2), (.taylorBinning(order: 2), 6.5), (.linearBinning, 25)
    ])
    func eachSchemeMeetsTheBoundFromItsThreshold(scheme: DensityScheme, sigmaInCells: Double) throws {
        var rng = SplitMix(seed: 11)
        let g = GridGeometry(columns: 90, rows: 80, x0: 0, y0: 0, dx: 1, dy: 1)
        var points = PlanePoints()
        for _ in 0..<25 { points.append(x: rng.uniform(0, 89), y: rng.uniform(0, 79), weight: rng.uniform(0.5, 2)) }
        let radius = 3 * sigmaInCells
        var accumulator = try DensityAccumulator(
            geometry: g, radius: radius, projection: Self.planar,
            scheme: scheme)
        try accumulator.add(points)
        let grid = try accumulator.finish()
        let exact = Self.bruteForce(points, g, radius: radius)
        #expect(Self.maxError(grid.values, exact) / exact.max()! <= 1e-3)
    }

    @Test func smallGridsSplatManyPointsInPrivateCopies() throws {
        // Enough points for several private copies of a grid small enough
        // to copy (PrivateGridSplat), some outside it; density and mean.
        var rng = SplitMix(seed: 3)
        let g = GridGeometry(columns: 40, rows: 30, x0: 0, y0: 0, dx: 1, dy: 1)
        var points = PlanePoints()
        for _ in 0..<12_000 {
            points.append(x: rng.uniform(-3, 42), y: rng.uniform(-3, 32), weight: rng.uniform(0.1, 2))
        }
        let exact = Self.bruteForce(points, g, radius: 4.5)
        let grid = try Self.grid(points, g, radius: 4.5, method: .exact)
        #expect(Self.maxError(grid.values, exact) / exact.max()! <= 1e-4)
        #expect(try Self.grid(points, g, radius: 4.5, method: .exact).values == grid.values)
        // Plain points map the mean of their weights: Σ w K / Σ K.
        let ones = PlanePoints(x: points.x, y: points.y, weight: points.weight.map { _ in 1 })
        let support = Self.bruteForce(ones, g, radius: 4.5)
        let mean = try Self.grid(points, g, radius: 4.5, method: .exact, estimator: .mean)
        let expected = zip(exact, support).map { $0 / $1 }
        #expect(Self.maxError(mean.values, expected) <= 1e-4)
    }

    @Test func pointsSpanningMoreThanADoubleAreRefusedNotTrapped() {
        // Both coordinates finite, their distance not: no grid can be fitted.
        let points = PlanePoints(x: [-1e308, 1e308, 0], y: [-1e308, 1e308, 0], weight: [1, 1, 1])
        let configuration = HeatMapConfiguration(radius: 6, projection: .planar)
        let geometry = GridGeometry.fitting(
            box: PlaneBox(minX: -1e308, minY: -1e308, maxX: 1e308, maxY: 1e308),
            radius: 6, paddingFactor: 1.5, resolution: 100)
        #expect(geometry.columns == 100 && geometry.rows == 100)
        #expect(throws: HeatMapError.self) {
            try DensityGrid.compute(points: points, projection: Self.planar, configuration: configuration)
        }
    }

    @Test func pointsOutsideTheGridStillCountWhereTheirKernelReaches() throws {
        let g = GridGeometry(columns: 30, rows: 30, x0: 0, y0: 0, dx: 1, dy: 1)
        var points = PlanePoints()
        points.append(x: -4, y: 15, weight: 1)  // left of the grid, within reach
        points.append(x: 15, y: 33, weight: 1)  // above it
        points.append(x: 14, y: 14, weight: 1)
        let exact = Self.bruteForce(points, g, radius: 12)
        for method in DensityMethod.allCases {
            let grid = try Self.grid(points, g, radius: 12, method: method)
            #expect(Self.maxError(grid.values, exact) / exact.max()! <= 1e-3, "\(method)")
        }
    }

    // MARK: mean estimator

    @Test(arguments: DensityMethod.allCases)
    func theMeanOfAConstantIsThatConstantAndUndefinedFarAway(method: DensityMethod) throws {
        var rng = SplitMix(seed: 5)
        let g = GridGeometry(columns: 80, rows: 40, x0: 0, y0: 0, dx: 1, dy: 1)
        var points = PlanePoints(value: [])
        for _ in 0..<200 {
            points.append(x: rng.uniform(5, 30), y: rng.uniform(5, 35), weight: rng.uniform(0.5, 2), value: 21.5)
        }
        let grid = try Self.grid(points, g, radius: 6, method: method, estimator: .mean)
        var defined = 0
        for (i, v) in grid.values.enumerated() {
            let c = i % g.columns
            if c < 30, c > 5, i / g.columns > 5, i / g.columns < 35 {
                #expect(abs(v - 21.5) < 1e-9, "node \(i)")
            }
            if c > 60 { #expect(v.isNaN, "node \(i) should be undefined") }
            if !v.isNaN { defined += 1 }
        }
        #expect(defined > 0)
        #expect(grid.estimator == .mean)
    }

    @Test func theMeanWeighsValuesByKernelAndWeight() throws {
        let g = GridGeometry(columns: 11, rows: 11, x0: -5, y0: -5, dx: 1, dy: 1)
        var points = PlanePoints(value: [])
        points.append(x: -1, y: 0, weight: 1, value: 10)
        points.append(x: 1, y: 0, weight: 3, value: 20)
        let grid = try Self.grid(points, g, radius: 3, method: .exact, estimator: .mean)
        // At the midpoint both kernels are equal: (1·10 + 3·20) / 4.
        #expect(abs(grid.values[5 * 11 + 5] - 17.5) < 1e-9)
    }

    // MARK: degenerate input

    @Test(arguments: DensityEstimator.allCases)
    func degenerateInputGivesAValidGrid(estimator: DensityEstimator) throws {
        var configuration = HeatMapConfiguration(radius: 2, gridResolution: 20, projection: .planar)
        configuration.estimator = estimator
        let one = PlanePoints(x: [3], y: [4], weight: [1], value: [7])
        let same = PlanePoints(x: [3, 3, 3], y: [4, 4, 4], weight: [1, 2, 1], value: [7, 7, 7])
        let zero = PlanePoints(x: [1, 5, 9], y: [1, 2, 3], weight: [0, 0, 0], value: [1, 2, 3])
        for bandwidth in Bandwidth.allCases {
            configuration.bandwidth = bandwidth
            for points in [PlanePoints(value: []), one, same, zero] {
                let grid = try DensityGrid.compute(
                    points: points, projection: Self.planar,
                    configuration: configuration)
                #expect(grid.radius.isFinite && grid.radius > 0)
                #expect(grid.values.count == grid.geometry.count)
                #expect(grid.values.allSatisfy { !$0.isInfinite })
                if estimator == .density {
                    #expect(grid.values.allSatisfy { $0.isFinite && $0 >= 0 })
                    #expect((grid.maximum > 0) == (points.totalWeight > 0))
                } else if points.totalWeight == 0 {
                    #expect(grid.values.allSatisfy { $0.isNaN })
                } else {
                    #expect(grid.values.contains { abs($0 - 7) < 1e-9 })
                }
            }
        }
    }

    @Test func badPointsAreRefusedByIndexAndNothingIsAdded() throws {
        let g = GridGeometry(columns: 10, rows: 10, x0: 0, y0: 0, dx: 1, dy: 1)
        var accumulator = try DensityAccumulator(geometry: g, radius: 3, projection: Self.planar)
        try accumulator.add(PlanePoints(x: [1, 2], y: [1, 2], weight: [1, 1]))
        #expect(throws: HeatMapError.invalidPoint(index: 3, reason: "weight is negative")) {
            try accumulator.add(PlanePoints(x: [1, 2, 3], y: [1, 2, 3], weight: [1, -1, 1]))
        }
        #expect(throws: HeatMapError.invalidPoint(index: 2, reason: "x is not a finite number")) {
            try accumulator.add(PlanePoints(x: [.nan], y: [1], weight: [1]))
        }
        #expect(accumulator.count == 2)
        #expect(throws: HeatMapError.self) {
            _ = try DensityAccumulator(geometry: g, radius: .nan, projection: Self.planar)
        }
        #expect(throws: HeatMapError.self) {
            _ = try DensityAccumulator(
                geometry: GridGeometry(columns: 0, rows: 5, x0: 0, y0: 0, dx: 1, dy: 1),
                radius: 1, projection: Self.planar)
        }
    }

    // MARK: determinism and streaming

    static func cluster(_ n: Int, seed: UInt64) -> PlanePoints {
        var rng = SplitMix(seed: seed)
        var points = PlanePoints(value: [])
        for i in 0..<n {
            let cx = i % 3 == 0 ? 30.0 : 70.0
            points.append(
                x: cx + rng.uniform(-20, 20) * rng.uniform(0, 1), y: rng.uniform(0, 80),
                weight: rng.uniform(0.1, 2), value: rng.uniform(-5, 30))
        }
        return points
    }

    @Test(arguments: DensityMethod.allCases)
    func twoRunsGiveIdenticalBits(method: DensityMethod) throws {
        let points = Self.cluster(4_000, seed: 9)
        for estimator in DensityEstimator.allCases {
            var configuration = HeatMapConfiguration(radius: 4, gridResolution: 150, projection: .planar)
            configuration.densityMethod = method
            configuration.estimator = estimator
            let a = try DensityGrid.compute(points: points, projection: Self.planar, configuration: configuration)
            let b = try DensityGrid.compute(points: points, projection: Self.planar, configuration: configuration)
            #expect(a.values.map(\.bitPattern) == b.values.map(\.bitPattern))
        }
    }

    /// Streaming in batches sums the same terms, in another order when a
    /// batch's band cut differs: equal to rounding.
    @Test(arguments: DensityMethod.allCases)
    func batchesGiveTheSameGridAsOneCall(method: DensityMethod) throws {
        let points = Self.cluster(3_000, seed: 4)
        let g = GridGeometry.fitting(box: points.bounds, radius: 5, paddingFactor: 1.5, resolution: 120)
        let whole = try Self.grid(points, g, radius: 5, method: method, estimator: .mean)
        var accumulator = try DensityAccumulator(
            geometry: g, radius: 5, projection: Self.planar, estimator: .mean,
            method: method, expectedCount: points.count)
        var start = 0
        for size in [1, 999, 1_000, 1_000] {
            let end = min(points.count, start + size)
            try accumulator.add(
                PlanePoints(
                    x: Array(points.x[start..<end]), y: Array(points.y[start..<end]),
                    weight: Array(points.weight[start..<end]),
                    value: Array(points.value![start..<end])))
            start = end
        }
        #expect(accumulator.count == points.count)
        let streamed = try accumulator.finish()
        #expect(streamed.values.map(\.isNaN) == whole.values.map(\.isNaN))
        let peak = whole.values.filter { !$0.isNaN }.map(abs).max()!
        for (a, b) in zip(streamed.values, whole.values) where !a.isNaN {
            #expect(abs(a - b) <= 1e-12 * peak)
        }
    }

    @Test func copiesOfAnAccumulatorAreIndependent() throws {
        let g = GridGeometry(columns: 20, rows: 20, x0: 0, y0: 0, dx: 1, dy: 1)
        var a = try DensityAccumulator(geometry: g, radius: 3, projection: Self.planar)
        try a.add(PlanePoints(x: [5], y: [5], weight: [1]))
        var b = a
        try b.add(PlanePoints(x: [15], y: [15], weight: [1]))
        let gridA = try a.finish(), gridB = try b.finish()
        #expect(gridA.values[15 * 20 + 15] < 1e-20)
        #expect(gridB.values[15 * 20 + 15] > 0.01)
        #expect(gridA.values[5 * 20 + 5] == gridB.values[5 * 20 + 5])
    }

    @Test func progressRisesToOne() throws {
        let fractions = Mutex<[Double]>([])
        let control = ComputeControl(progress: { p in
            if p.stage == .density { fractions.withLock { $0.append(p.fraction) } }
        })
        let configuration = HeatMapConfiguration(radius: 4, gridResolution: 120, projection: .planar)
        _ = try DensityGrid.compute(
            points: Self.cluster(5_000, seed: 1), projection: Self.planar,
            configuration: configuration, control: control)
        let seen = fractions.withLock { $0 }
        #expect(seen.first == 0)
        #expect(seen.last == 1)
        #expect(seen.allSatisfy { $0 >= 0 && $0 <= 1 })
    }

    // MARK: cancellation

    /// Cancelling a big job (300,000 points, 800 cells a side) deep in the density stage (at its
    /// first report past the start, and at the first past a third) throws
    /// `CancellationError`, and the stage never reports that it finished.
    /// Driven by the stage's own progress reports, not by a clock, so it
    /// holds on a slow debug build; the latency in milliseconds is measured
    /// by `contours-bench job --cancel-at-reports` on a release build.
    @Test(arguments: [0.0, 0.33])
    func cancellingABigJobDuringTheDensityStageThrows(after fraction: Double) throws {
        var rng = SplitMix(seed: 2)
        let n = 300_000
        var x = [Double](repeating: 0, count: n), y = x
        for i in 0..<n { x[i] = rng.uniform(0, 1000); y[i] = rng.uniform(0, 1000) }
        let points = PlanePoints(x: x, y: y, weight: [Double](repeating: 1, count: n))
        let configuration = HeatMapConfiguration(radius: 10, gridResolution: 800, projection: .planar)
        let flag = CancellationFlag()
        let reports = Mutex<(cancelledAt: Double?, afterCancel: [Double])>((nil, []))
        let control = ComputeControl(
            cancellation: flag,
            progress: { p in
                guard p.stage == .density else { return }
                reports.withLock { r in
                    if r.cancelledAt != nil {
                        r.afterCancel.append(p.fraction)
                    } else if p.fraction > fraction && p.fraction < 1 {
                        r.cancelledAt = p.fraction
                        flag.cancel()
                    }
                }
            })
        #expect(throws: CancellationError.self) {
            _ = try DensityGrid.compute(
                points: points, projection: Self.planar, configuration: configuration,
                control: control)
        }
        let seen = reports.withLock { $0 }
        #expect(seen.cancelledAt != nil, "the stage reported nothing between \(fraction) and 1")
        #expect(!seen.afterCancel.contains(1), "the stage finished after the cancel")
    }
}
