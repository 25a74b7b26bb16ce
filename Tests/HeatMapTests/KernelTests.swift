import Foundation
import Testing

@testable import HeatMapCore
@testable import HeatMapDensity

/// The finite kernels, raw values, the arcgis rule, radii per point and the
/// adaptive bandwidth (docs/density-model.md#kernels), each against a sum
/// written out here from the definitions.
@Suite struct KernelTests {
    static let planar = PlaneProjection(kind: .planar)

    /// Seeded points: a dense cluster and a sparse scatter, weights 0.5...2.
    static func points(_ n: Int, seed: UInt64) -> PlanePoints {
        var rng = SplitMixGenerator(seed: seed)
        var p = PlanePoints()
        for i in 0..<n {
            let dense = i % 3 != 0
            let x = dense ? Double.random(in: 4...6, using: &rng) : Double.random(in: 0...10, using: &rng)
            let y = dense ? Double.random(in: 4...6, using: &rng) : Double.random(in: 0...10, using: &rng)
            p.append(x: x, y: y, weight: Double.random(in: 0.5...2, using: &rng))
        }
        return p
    }

    /// Σ wᵢ shape(dᵢ² / rᵢ²) × (raw ? 1 : c / (π rᵢ²)) at (x, y), written from the table.
    static func exact(_ p: PlanePoints, radii: [Double], kernel: DensityKernel, raw: Bool, x: Double, y: Double)
        -> Double
    {
        var sum = 0.0
        for i in 0..<p.count {
            let r = radii[i]
            let d2 = (p.x[i] - x) * (p.x[i] - x) + (p.y[i] - y) * (p.y[i] - y)
            let u2 = d2 / (r * r)
            let shape: Double
            switch kernel {
            case .gaussian: shape = exp(-u2 * 4.5)
            case .quartic: shape = u2 <= 1 ? (1 - u2) * (1 - u2) : 0
            case .epanechnikov: shape = u2 <= 1 ? 1 - u2 : 0
            case .triweight: shape = u2 <= 1 ? pow(1 - u2, 3) : 0
            case .triangular(let decay): shape = u2 <= 1 ? 1 - (1 - decay) * u2.squareRoot() : 0
            case .uniform: shape = u2 <= 1 ? 1 : 0
            }
            let norm: Double
            switch kernel {
            case .gaussian: norm = 9 / 2
            case .quartic: norm = 3
            case .epanechnikov: norm = 2
            case .triweight: norm = 4
            case .triangular(let decay): norm = 3 / (1 + 2 * decay)
            case .uniform: norm = 1
            }
            sum += p.weight[i] * shape * (raw ? 1 : norm / (Double.pi * r * r))
        }
        return sum
    }

    /// The largest |grid − exact| over every node, relative to the exact maximum.
    static func error(_ grid: DensityGrid, _ p: PlanePoints, radii: [Double], kernel: DensityKernel, raw: Bool)
        -> Double
    {
        let g = grid.geometry
        var worst = 0.0, peak = 0.0
        for r in 0..<g.rows {
            for c in 0..<g.columns {
                let node = g.node(column: c, row: r)
                let e = exact(p, radii: radii, kernel: kernel, raw: raw, x: node.x, y: node.y)
                peak = max(peak, e)
                worst = max(worst, abs(grid.values[r * g.columns + c] - e))
            }
        }
        return worst / peak
    }

    static func configuration(_ kernel: DensityKernel, radius: Double = 1.2) -> HeatMapConfiguration {
        var c = HeatMapConfiguration(radius: radius, gridResolution: 60, projection: .planar)
        c.kernel = kernel
        return c
    }

    @Test(arguments: DensityKernel.all + [.triangular(decay: 0.4), .triangular(decay: 1)])
    func everyKernelIsItsSumAtEveryNodeAndKeepsTheMass(kernel: DensityKernel) throws {
        let p = Self.points(300, seed: 11)
        let grid = try DensityGrid.compute(
            points: p, projection: Self.planar, configuration: Self.configuration(kernel))
        let radii = [Double](repeating: 1.2, count: p.count)
        // The Gaussian is truncated at 5σ; the powers of 1 − d²/r² (the
        // quartic, Epanechnikov and triweight) are splatted in single
        // precision (BandSplat), within about 1e−6.
        let bound = kernel == .gaussian ? 1e-3 : BandSplatTests.kernels.contains(kernel) ? 1e-5 : 1e-9
        #expect(Self.error(grid, p, radii: radii, kernel: kernel, raw: false) < bound)
        let mass = grid.values.reduce(0, +) * grid.geometry.cellArea / p.totalWeight
        #expect(abs(mass - 1) < 0.01, "mass \(mass)")
        #expect(grid.kernel == kernel && grid.radius == 1.2)
    }

    @Test(arguments: [DensityKernel.quartic, .triangular(decay: 0.25), .gaussian])
    func rawValuesAreWeightTimesShape(kernel: DensityKernel) throws {
        let p = Self.points(200, seed: 5)
        var c = Self.configuration(kernel)
        c.kernelValues = .raw
        let grid = try DensityGrid.compute(points: p, projection: Self.planar, configuration: c)
        #expect(Self.error(grid, p, radii: [Double](repeating: 1.2, count: p.count), kernel: kernel, raw: true) < 1e-3)
        #expect(grid.units == "")
    }

    @Test func aLonePointOfRawQuarticPeaksAtItsWeightAndEndsAtTheRadius() throws {
        // A node exactly on the point and nodes exactly at d = r (included: the shape is 0 there for the quartic, δ for the triangular).
        let p = PlanePoints(x: [0], y: [0], weight: [3])
        let geometry = GridGeometry(columns: 5, rows: 5, x0: -2, y0: -2, dx: 1, dy: 1)
        var accumulator = try DensityAccumulator(
            geometry: geometry, radius: 2, projection: Self.planar,
            kernel: .triangular(decay: 0.5), kernelValues: .raw)
        try accumulator.add(p)
        let grid = try accumulator.finish()
        #expect(grid.values[12] == 3)  // the centre
        #expect(grid.values[2 * 5 + 0] == 1.5)  // (−2, 0): d = r, δ × w
        #expect(grid.values[0] == 0)  // the corner, d = 2√2 > r
    }

    @Test func theMeanEstimatorWeighsByTheChosenKernel() throws {
        var p = Self.points(200, seed: 9)
        p.value = p.x.map { 2 * $0 + 1 }
        var c = Self.configuration(.epanechnikov, radius: 2)
        c.estimator = .mean
        let grid = try DensityGrid.compute(points: p, projection: Self.planar, configuration: c)
        let g = grid.geometry
        var checked = 0
        for r in stride(from: 0, to: g.rows, by: 7) {
            for col in stride(from: 0, to: g.columns, by: 7) {
                let node = g.node(column: col, row: r)
                var num = 0.0, den = 0.0
                for i in 0..<p.count {
                    let u2 = ((p.x[i] - node.x) * (p.x[i] - node.x) + (p.y[i] - node.y) * (p.y[i] - node.y)) / 4
                    let k = u2 <= 1 ? 1 - u2 : 0
                    num += p.weight[i] * k * p.value![i]; den += p.weight[i] * k
                }
                let v = grid.values[r * g.columns + col]
                if den < 0.05 { #expect(v.isNaN) } else { #expect(abs(v - num / den) < 1e-9); checked += 1 }
            }
        }
        #expect(checked > 10)
    }

    @Test func aRuleSigmaBecomesTheRadiusOfTheSameVariance() throws {
        let p = Self.points(400, seed: 3)
        var c = Self.configuration(.gaussian)
        c.bandwidth = .scott
        let gaussian = try DensityGrid.compute(points: p, projection: Self.planar, configuration: c)
        c.kernel = .quartic
        let quartic = try DensityGrid.compute(points: p, projection: Self.planar, configuration: c)
        #expect(abs(quartic.radius - gaussian.radius / 3 * 8.0.squareRoot()) < 1e-12 * quartic.radius)
    }

    @Test(arguments: DensityKernel.all + [.triangular(decay: 0.3)])
    func radiusPerSigmaGivesTheKernelsVariancePerAxis(kernel: DensityKernel) {
        // Σ shape × x² / Σ shape on a fine lattice over the unit disc = σ² for r = 1.
        let steps = 800
        var s0 = 0.0, s2 = 0.0
        for i in -steps...steps {
            for j in -steps...steps {
                let x = Double(i) / Double(steps) * 1.7, y = Double(j) / Double(steps) * 1.7
                let k = kernel.shape(squaredDistanceRatio: x * x + y * y)
                s0 += k; s2 += k * x * x
            }
        }
        let sigma = (s2 / s0).squareRoot()
        #expect(abs(1 / sigma - kernel.radiusPerSigma) < 2e-3 * kernel.radiusPerSigma, "\(kernel.name)")
    }

    @Test func namesReadBackAndBadOnesAreRefused() throws {
        for k in DensityKernel.all + [.triangular(decay: 0.25)] { #expect(try DensityKernel(name: k.name) == k) }
        #expect(throws: HeatMapError.self) { try DensityKernel(name: "cubic") }
        #expect(throws: HeatMapError.self) { try DensityKernel(name: "triangular:2") }
        #expect(throws: HeatMapError.self) { try DensityKernel(name: "quartic:1") }
    }

    @Test func arcgisRadiusIsTheFormulaComputedIndependently() {
        var rng = SplitMixGenerator(seed: 21)
        var pts: [(Double, Double, Double)] = []
        for _ in 0..<501 {
            pts.append(
                (
                    Double.random(in: -50...80, using: &rng), Double.random(in: 0...30, using: &rng),
                    Double.random(in: 0.1...3, using: &rng)
                ))
        }
        var e = BandwidthEstimator()
        for (x, y, w) in pts { e.add(x: x, y: y, weight: w) }
        // Independently: the weighted mean centre, standard distance, weighted median distance.
        let sw = pts.reduce(0) { $0 + $1.2 }
        let mx = pts.reduce(0) { $0 + $1.0 * $1.2 } / sw, my = pts.reduce(0) { $0 + $1.1 * $1.2 } / sw
        let d = pts.map { (((($0.0 - mx) * ($0.0 - mx) + ($0.1 - my) * ($0.1 - my))).squareRoot(), $0.2) }
        let sd = (d.reduce(0) { $0 + $1.0 * $1.0 * $1.1 } / sw).squareRoot()
        var acc = 0.0, median = 0.0
        for (di, wi) in d.sorted(by: { $0.0 < $1.0 }) {
            acc += wi
            if acc >= sw / 2 { median = di; break }
        }
        let expected = 0.9 * min(sd, (1 / log(2.0)).squareRoot() * median) * pow(sw, -0.2)
        let got = e.radius(for: .arcgis, fixed: 1, projection: Self.planar)
        #expect(abs(got - expected) <= 1e-9 * expected, "\(got) vs \(expected)")
    }

    @Test func radiiPerPointAreEachPointsOwnKernel() throws {
        var p = Self.points(250, seed: 17)
        var rng = SplitMixGenerator(seed: 2)
        p.radius = (0..<p.count).map { _ in Double.random(in: 0.5...2.5, using: &rng) }
        for raw in [false, true] {
            var c = Self.configuration(.quartic)
            c.kernelValues = raw ? .raw : .density
            let grid = try DensityGrid.compute(points: p, projection: Self.planar, configuration: c)
            // The quartic's splat sums in single precision (BandSplatTests).
            #expect(Self.error(grid, p, radii: p.radius!, kernel: .quartic, raw: raw) < 7e-5)
            if !raw {
                let mass = grid.values.reduce(0, +) * grid.geometry.cellArea / p.totalWeight
                #expect(abs(mass - 1) < 0.01, "mass \(mass)")
            }
        }
        p.radius![7] = -1
        #expect(throws: HeatMapError.self) {
            try DensityGrid.compute(points: p, projection: Self.planar, configuration: Self.configuration(.quartic))
        }
    }

    @Test(arguments: [DensityKernel.quartic, .gaussian])
    func adaptiveRadiiFollowAbramsonsRule(kernel: DensityKernel) throws {
        let p = Self.points(300, seed: 29)
        let R = 1.5
        // The pilot from its definition, then the radii.
        var pilot = [Double](repeating: 0, count: p.count)
        for i in 0..<p.count {
            pilot[i] = Self.exact(
                p, radii: [Double](repeating: R, count: p.count), kernel: kernel, raw: true,
                x: p.x[i], y: p.y[i])
        }
        let sw = p.totalWeight
        let g = exp(zip(p.weight, pilot).reduce(0) { $0 + $1.0 * log($1.1) } / sw)
        let radii = pilot.map { R * min(pow($0 / g, -0.5), 5) }
        let chosen = try AdaptivePilot.radii(
            of: p, kernel: kernel, radius: R, rule: AdaptiveBandwidth(), control: .none)
        for i in 0..<p.count { #expect(abs(chosen.radii[i] - radii[i]) < 1e-4 * radii[i]) }
        var c = Self.configuration(kernel, radius: R)
        c.bandwidth = .adaptive()
        let grid = try DensityGrid.compute(points: p, projection: Self.planar, configuration: c)
        #expect(Self.error(grid, p, radii: radii, kernel: kernel, raw: false) < 1e-3)
    }

    @Test func anAdaptivePilotWithNothingToAdaptToIsRefused() {
        let p = PlanePoints(x: [1, 1, 1], y: [2, 2, 2], weight: [1, 1, 1])
        var c = Self.configuration(.quartic)
        c.bandwidth = .adaptive()
        #expect(throws: HeatMapError.self) {
            try DensityGrid.compute(points: p, projection: Self.planar, configuration: c)
        }
        c.bandwidth = .adaptive(sensitivity: -1)
        #expect(throws: HeatMapError.self) {
            try DensityGrid.compute(points: Self.points(50, seed: 1), projection: Self.planar, configuration: c)
        }
    }
}

extension KernelTests {
    // Not the Epanechnikov, triangular or uniform: a corner or step at the
    // support's edge, which no interpolation follows (their pilots are exact
    // up to AdaptivePilot.pairBudget).
    @Test(arguments: [DensityKernel.quartic, .triweight, .gaussian])
    func aPilotReadFromItsOwnGridIsNearTheExactOne(_ kernel: DensityKernel) throws {
        // The large-data path: a fine fixed-radius raw grid of its own, read
        // by cubic interpolation; a radius takes the pilot's -α-th power, so
        // 1e-3 of the pilot is 5e-4 of the radius at α = 0.5.
        let p = Self.points(400, seed: 31)
        let exact = try AdaptivePilot.density(of: p, kernel: kernel, radius: 1.5, control: .none)
        let read = try AdaptivePilot.interpolated(
            p, kernel: kernel, radius: 1.5, nodesPerRadius: AdaptivePilot.fineNodesPerRadius(kernel),
            projection: Self.planar, control: .none)
        // The finite kernels' grid, a convolution at 14 nodes per radius,
        // is within 4e-3 of each point's own pilot on these sparse points
        // (its binning errs by about 1.5e-3 of a lone point's peak, the
        // reading by up to 1e-3 of a share near the support's edge; where
        // the grid is read, among dense points, many shares average
        // that out, and sparse points are summed exactly); the Gaussian's
        // binned grid within 1e-4 of the largest pilot (a sparse point's
        // radius may then be off by more, but its kernel is as much below
        // the grid's maximum).
        let largest = exact.max() ?? 0
        for i in 0..<p.count {
            let bound = kernel == .gaussian ? 1e-3 * exact[i] + 1e-4 * largest : 4e-3 * exact[i]
            #expect(abs(read[i] - exact[i]) < bound, "point \(i)")
            // Inside the dense square (hundreds of neighbours within reach),
            // where a budget sends points to the grid: 1e-3 of the pilot.
            if (4.5...5.5).contains(p.x[i]) && (4.5...5.5).contains(p.y[i]) {
                #expect(abs(read[i] - exact[i]) < 1e-3 * exact[i], "dense point \(i)")
            }
        }
    }
}

extension KernelTests {
    @Test func aGaussianOfARadiusPerPointIsItsTruncatedSum() throws {
        // The separable splat: one exponential per column and per row, a
        // product per node, the nodes within 5σ of each point. Its density
        // and a mean's two sums against the sums over those nodes written
        // here, node by node.
        var p = Self.points(250, seed: 19)
        var rng = SplitMixGenerator(seed: 4)
        p.radius = (0..<p.count).map { _ in Double.random(in: 0.3...2.5, using: &rng) }
        p.value = p.y.map { 3 - $0 }
        let kernel = DensityKernel.gaussian
        for mean in [false, true] {
            var c = Self.configuration(kernel)
            c.densityMethod = .exact
            if mean { c.estimator = .mean }
            let grid = try DensityGrid.compute(points: p, projection: Self.planar, configuration: c)
            let g = grid.geometry
            var worst = 0.0, peak = 0.0
            for row in 0..<g.rows {
                for col in 0..<g.columns {
                    let node = g.node(column: col, row: row)
                    var den = 0.0, num = 0.0
                    for i in 0..<p.count {
                        let r = p.radius![i]
                        let d2 = (p.x[i] - node.x) * (p.x[i] - node.x) + (p.y[i] - node.y) * (p.y[i] - node.y)
                        guard d2 <= 25.0 / 9 * r * r else { continue }
                        let k = p.weight[i] * exp(-4.5 * d2 / (r * r)) * 4.5 / (Double.pi * r * r)
                        den += k
                        num += k * p.value![i]
                    }
                    let v = grid.values[row * g.columns + col]
                    if mean {
                        guard den > 0.05 else { continue }
                        #expect(!v.isNaN, "node \(col), \(row)")
                        worst = max(worst, abs(v - num / den))
                        peak = max(peak, abs(num / den))
                    } else {
                        worst = max(worst, abs(v - den))
                        peak = max(peak, den)
                    }
                }
            }
            #expect(worst < 1e-12 * peak, "mean \(mean): worst \(worst / peak) of the largest")
        }
    }

}

extension KernelTests {
    @Test(arguments: [DensityKernel.quartic, .triweight, .gaussian])
    func aPilotReadFromTheCoarseGridStaysNearTheExactOne(_ kernel: DensityKernel) throws {
        // The spacing taken where the fine grid would cost too much. A
        // finite kernel's reading errs most at its support's kink (1.1e-3
        // of the largest pilot here), where many neighbours share the error
        // in dense data; the Gaussian's grid is binned, and at the finite
        // kernels' 6 nodes per radius (2 per σ) it erred by 1.3e-3 of the
        // largest pilot everywhere, 8.7e-5 at its own 12.
        let p = Self.points(400, seed: 37)
        let exact = try AdaptivePilot.density(of: p, kernel: kernel, radius: 1.5, control: .none)
        let read = try AdaptivePilot.interpolated(
            p, kernel: kernel, radius: 1.5, nodesPerRadius: AdaptivePilot.coarseNodesPerRadius(kernel),
            projection: Self.planar, control: .none)
        let largest = exact.max() ?? 0
        let worst = zip(read, exact).map { abs($0 - $1) }.max() ?? 0
        #expect(worst < (kernel.isFinite ? 2e-3 : 2e-4) * largest, "worst \(worst / largest) of the largest pilot")
    }
}

/// The adaptive bandwidth as a ``Bandwidth``: its pilot's rule, its names
/// and its coding.
@Suite struct AdaptiveBandwidthRuleTests {
    @Test func thePilotRuleGivesThePilotRadius() throws {
        // Scott's radius as the pilot must give the grid of that radius given as fixed.
        let p = KernelTests.points(300, seed: 5)
        var byRule = KernelTests.configuration(.quartic)
        byRule.bandwidth = .adaptive(sensitivity: 0.5, pilot: .scott)
        let ruled = try DensityGrid.compute(points: p, projection: KernelTests.planar, configuration: byRule)
        var byRadius = KernelTests.configuration(.quartic, radius: ruled.radius)
        byRadius.bandwidth = .adaptive(sensitivity: 0.5)
        let fixed = try DensityGrid.compute(points: p, projection: KernelTests.planar, configuration: byRadius)
        var scott = KernelTests.configuration(.quartic)
        scott.bandwidth = .scott
        let oneRadius = try DensityGrid.compute(points: p, projection: KernelTests.planar, configuration: scott)
        #expect(ruled.radius == oneRadius.radius)
        #expect(ruled.values == fixed.values)
        #expect(ruled.values != oneRadius.values)
    }

    @Test func namesAndRulesOfOneRadius() {
        let rule = Bandwidth.adaptive(sensitivity: 0.3, trim: 4, pilot: .silverman)
        #expect(rule.radiusRule == .silverman)
        #expect(rule.adaptiveRule == AdaptiveBandwidth(sensitivity: 0.3, trim: 4, pilot: .silverman))
        #expect(rule.rawValue == "adaptive")
        #expect(Bandwidth(rawValue: "adaptive") == .adaptive(AdaptiveBandwidth()))
        #expect(Bandwidth(rawValue: "scott") == .scott)
        #expect(Bandwidth(rawValue: "cubic") == nil)
        #expect(!Bandwidth.allCases.contains { $0.adaptiveRule != nil })
        #expect(rule.fixingRadius() == .adaptive(sensitivity: 0.3, trim: 4))
        #expect(Bandwidth.scott.fixingRadius() == .fixed)
    }

    @Test func codingRoundTrips() throws {
        let rules: [Bandwidth] = [.fixed, .arcgis, .adaptive(sensitivity: 0.25, trim: 3, pilot: .auto)]
        let data = try JSONEncoder().encode(rules)
        #expect(try JSONDecoder().decode([Bandwidth].self, from: data) == rules)
        let old = try JSONDecoder().decode(Bandwidth.self, from: Data(#"{"adaptive":{"sensitivity":0.5}}"#.utf8))
        #expect(old == .adaptive(AdaptiveBandwidth()))
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(Bandwidth.self, from: Data(#""adaptive""#.utf8))
        }
    }

    @Test func anAdaptivePilotIsRefused() {
        var c = KernelTests.configuration(.quartic)
        c.bandwidth = .adaptive(pilot: .adaptive())
        #expect(throws: HeatMapError.self) {
            try DensityGrid.compute(
                points: KernelTests.points(50, seed: 1), projection: KernelTests.planar, configuration: c)
        }
    }
}
