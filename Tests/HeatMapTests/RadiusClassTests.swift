import Foundation
import Testing

@testable import HeatMapCore
@testable import HeatMapDensity

/// Points of many radii through radius classes (binned, convolved class
/// by class) against the exact sum of every point's own kernel.
@Suite struct RadiusClassTests {
    /// A cluster of narrow points and a scatter of wide ones (by default
    /// 600 points, 8 to 60 cells), as an adaptive bandwidth makes them, on
    /// a 128-cell grid: every third point anywhere with a radius in
    /// `wide`, the others within `cluster` (on both axes) in `narrow`.
    static func points(
        seed: UInt64, count: Int = 600, cluster: ClosedRange<Double> = 50...75,
        narrow: ClosedRange<Double> = 8...24, wide: ClosedRange<Double> = 19...60
    ) -> (PlanePoints, [Double]) {
        var rng = SplitMixGenerator(seed: seed)
        var p = PlanePoints()
        var radii: [Double] = []
        for i in 0..<count {
            let sparse = i % 3 == 0
            let spread = sparse ? 0.0...128.0 : cluster
            p.append(
                x: Double.random(in: spread, using: &rng), y: Double.random(in: spread, using: &rng),
                weight: Double.random(in: 0.5...2, using: &rng))
            radii.append(Double.random(in: sparse ? wide : narrow, using: &rng))
        }
        return (p, radii)
    }

    static func grid(
        _ p: PlanePoints, radii: [Double], kernel: DensityKernel, method: DensityMethod,
        estimator: DensityEstimator = .density, values: KernelValues = .density
    ) throws -> (DensityGrid, DensityScheme) {
        let geometry = GridGeometry(columns: 128, rows: 131, x0: 0.5, y0: 0.5, dx: 1, dy: 1)
        var accumulator = try DensityAccumulator(
            geometry: geometry, radius: 20, projection: KernelTests.planar, estimator: estimator,
            method: method, kernel: kernel, kernelValues: values, maximumRadius: radii.max()!,
            expectedCount: p.count)
        var points = p
        points.radius = radii
        try accumulator.add(points)
        let scheme = accumulator.scheme
        return (try accumulator.finish(), scheme)
    }

    @Test(arguments: [DensityKernel.quartic, .triweight, .gaussian])
    func theClassesKeepEveryNodeWithinTheBoundAndTheMass(kernel: DensityKernel) throws {
        let (p, radii) = Self.points(seed: 7)
        let (grid, scheme) = try Self.grid(p, radii: radii, kernel: kernel, method: .binned)
        guard case .radiusClasses(let classes) = scheme else {
            Issue.record("expected radius classes, got \(scheme)")
            return
        }
        #expect(classes.count > 2)
        let error = KernelTests.error(grid, p, radii: radii, kernel: kernel, raw: false)
        #expect(error < 1e-3, "\(kernel): \(error)")
        // Three classes a point, 10 % apart at the narrowest: the quartic's
        // error is the cubic binning's and the mix's, a fraction of the bound.
        if kernel == .quartic { #expect(error < 2.5e-4, "\(error)") }
        // The Gaussian too, from its own narrowest class (its exact sum here
        // is not cut at 5σ).
        if kernel == .gaussian { #expect(error < 2.5e-4, "\(error)") }
        // The mass on the grid (supports reach past its edges) is the exact splat's.
        let (exact, exactScheme) = try Self.grid(p, radii: radii, kernel: kernel, method: .exact)
        #expect(exactScheme == .direct)
        let mass = grid.values.reduce(0, +) / exact.values.reduce(0, +)
        #expect(abs(mass - 1) < 1e-3, "mass \(mass)")
        #expect(grid.values.allSatisfy { $0 >= 0 })
        // Raw values weigh the wide points as much as the narrow ones: the
        // exact splat, as does the mean.
        let (raw, rawScheme) = try Self.grid(p, radii: radii, kernel: kernel, method: .binned, values: .raw)
        #expect(rawScheme == .direct)
        // The exact splat of the quartic and the triweight sums in single
        // precision (BandSplatTests). The Gaussian's splat ends at 5σ,
        // where it is e^−12.5 of its peak.
        let bound = BandSplatTests.kernels.contains(kernel) ? 1e-4 : kernel == .gaussian ? 1e-5 : 1e-9
        #expect(KernelTests.error(raw, p, radii: radii, kernel: kernel, raw: true) < bound)
    }

    /// The Gaussian's narrowest class: lone points (no neighbour to share
    /// the error with) of that radius, at every offset from the nodes,
    /// keep within the bound of their own peak; twice as wide, far within.
    @Test(arguments: [1.0, 2.0])
    func aLoneGaussianAtTheNarrowestClassKeepsTheBound(widening: Double) throws {
        let rho = DensityPlan.classRadiusInCells(.gaussian)! * widening
        var p = PlanePoints()
        var radii: [Double] = []
        for k in 0..<4 {
            // Offsets of a quarter cell in x and y, one point alone in each quadrant.
            let fraction = 0.25 * Double(k)
            p.append(x: 32 + fraction + Double(k % 2) * 64, y: 32 + 0.5 * fraction + Double(k / 2) * 64, weight: 1)
            radii.append(rho)
        }
        let (grid, scheme) = try Self.grid(p, radii: radii, kernel: .gaussian, method: .binned)
        guard case .radiusClasses = scheme else {
            Issue.record("expected radius classes, got \(scheme)")
            return
        }
        let error = KernelTests.error(grid, p, radii: radii, kernel: .gaussian, raw: false)
        #expect(error < (widening == 1 ? 6e-4 : 1e-4), "\(error)")
    }

    /// The wide points are kept as they come and binned class by class when
    /// the grid is finished: points added in three batches give the grid
    /// of one batch (to the transforms' rounding), and a copy of the
    /// accumulator taken between batches keeps only what it had then. (The
    /// Gaussian: its exact splat of the narrow points sums in double
    /// precision, the quartic's and the triweight's in single precision
    /// scaled per batch.)
    @Test func classesKeepTheirPointsAcrossBatchesAndCopies() throws {
        let (p, radii) = Self.points(seed: 21)
        let (whole, scheme) = try Self.grid(p, radii: radii, kernel: .gaussian, method: .binned)
        guard case .radiusClasses(let classes) = scheme else {
            Issue.record("expected radius classes, got \(scheme)")
            return
        }
        #expect(classes.count > 2)
        func batch(_ range: Range<Int>) -> PlanePoints {
            var b = PlanePoints()
            for i in range { b.append(x: p.x[i], y: p.y[i], weight: p.weight[i]) }
            b.radius = Array(radii[range])
            return b
        }
        let geometry = GridGeometry(columns: 128, rows: 131, x0: 0.5, y0: 0.5, dx: 1, dy: 1)
        var accumulator = try DensityAccumulator(
            geometry: geometry, radius: 20, projection: KernelTests.planar, method: .binned, kernel: .gaussian,
            maximumRadius: radii.max()!, expectedCount: p.count)
        try accumulator.add(batch(0..<250))
        let firstPart = accumulator
        try accumulator.add(batch(250..<251))
        try accumulator.add(batch(251..<p.count))
        let batched = try accumulator.finish()
        let top = whole.values.max()!
        let apart = zip(batched.values, whole.values).map { abs($0 - $1) }.max()!
        #expect(apart <= 1e-12 * top, "\(apart / top)")
        // The copy: the first 250 points alone, as the same accumulator of only them makes it.
        var fresh = try DensityAccumulator(
            geometry: geometry, radius: 20, projection: KernelTests.planar, method: .binned, kernel: .gaussian,
            maximumRadius: radii.max()!, expectedCount: p.count)
        try fresh.add(batch(0..<250))
        let alone = try fresh.finish()
        let copied = try firstPart.finish()
        let off = zip(copied.values, alone.values).map { abs($0 - $1) }.max()!
        #expect(off <= 1e-12 * alone.values.max()!, "\(off)")
        #expect(KernelTests.error(batched, p, radii: radii, kernel: .gaussian, raw: false) < 1e-3)
    }

    /// 300 points bunched within 2 cells of the grid's middle, every one
    /// of a radius halfway (in 1/r) between two of the widest classes from
    /// `smallest` to 60 cells, where a point's mix errs most, and two lone
    /// points of the smallest and largest radius far from them. Each node
    /// sees the bunch at one distance, so the mixes' errors add alike
    /// rather than cancel: the classes as planned err by about a hundredth
    /// of the maximum (the tests' scatter, by a tenth of a thousandth).
    static func bunched(smallest: Double, seed: UInt64) -> (PlanePoints, [Double]) {
        var rng = SplitMixGenerator(seed: seed)
        let classes = RadiusClasses(smallest: smallest, largest: 60)
        let between = classes.radius(at: Double(classes.count) - 2.5)
        var p = PlanePoints()
        p.append(x: 20, y: 20, weight: 1)
        p.append(x: 100, y: 110, weight: 1)
        var radii = [smallest, 60]
        for _ in 0..<300 {
            p.append(
                x: Double.random(in: 62...66, using: &rng), y: Double.random(in: 62...66, using: &rng),
                weight: Double.random(in: 0.5...2, using: &rng))
            radii.append(between)
        }
        return (p, radii)
    }

    /// Bunched points (``bunched(smallest:seed:)``) take classes refined
    /// until the bound holds (`.binned`), or the exact splat where that is
    /// cheaper (`.automatic`): within the tolerance of the bound either way.
    @Test(arguments: [(DensityKernel.quartic, 19.0), (.triweight, 10.0)])
    func bunchedPointsTakeClassesFineEnoughForTheBound(kernel: DensityKernel, smallest: Double) throws {
        let (p, radii) = Self.bunched(smallest: smallest, seed: 17)
        for method in [DensityMethod.binned, .automatic] {
            let (grid, scheme) = try Self.grid(p, radii: radii, kernel: kernel, method: method)
            if method == .binned, case .radiusClasses(let classes) = scheme {
                #expect(classes.smallest == smallest && classes.largest == 60)
            } else if method == .binned {
                Issue.record("expected radius classes, got \(scheme)")
            }
            let error = KernelTests.error(grid, p, radii: radii, kernel: kernel, raw: false)
            #expect(error < RadiusClassBound.tolerance, "\(kernel) \(method): \(error)")
        }
    }

    /// The bound asks the bunched points for finer classes, and the tests'
    /// scatter, whose wide points are lone beside a dense cluster of
    /// narrow ones (the exact splat's maximum), for less fine ones: it is
    /// the sum of the reaching points' worst errors, so it cannot see
    /// lone points' errors cancel (their real error, 1.3e-4 as planned,
    /// needs no refining), but it grows as points bunch.
    @Test func theBoundAsksBunchedPointsForFinerClasses() throws {
        let xAxis = GaussianAxis(origin: 0.5, step: 1, count: 128, sigma: 20.0 / 3, reach: 60)
        let yAxis = GaussianAxis(origin: 0.5, step: 1, count: 131, sigma: 20.0 / 3, reach: 60)
        // The exact splat of the points narrower than the classes, in the
        // classes' units (Σ w (R/r)² shape: the quartic's density times πR²/3).
        func splatMaximum(_ p: PlanePoints, _ radii: [Double]) throws -> Double {
            let narrow = radii.indices.filter { radii[$0] < 19 }
            guard !narrow.isEmpty else { return 0 }
            var q = PlanePoints()
            for i in narrow { q.append(x: p.x[i], y: p.y[i], weight: p.weight[i]) }
            let (grid, _) = try Self.grid(q, radii: narrow.map { radii[$0] }, kernel: .quartic, method: .exact)
            return grid.values.max()! * Double.pi * 400 / 3
        }
        func factor(_ p: PlanePoints, _ radii: [Double]) throws -> Int? {
            let classes = RadiusClasses(smallest: 19, largest: radii.max()!)
            let wide = radii.indices.filter { radii[$0] >= 19 }
            let firsts = wide.map { classes.firstClass(at: classes.coordinate(of: radii[$0])) }
            var starts = [Int](repeating: 0, count: classes.count + 1)
            for f in firsts { starts[f + 1] += 1 }
            for k in 0..<classes.count { starts[k + 1] += starts[k] }
            let order = RadiusClassOrder(starts: starts)
            var next = starts
            for (i, f) in zip(wide, firsts) {
                order.sorted.set(next[f], p.x[i], p.y[i], p.weight[i], 0, classes.coordinate(of: radii[i]))
                next[f] += 1
            }
            return RadiusClassBound.refinement(
                of: classes, points: [order], kernel: .quartic, radius: 20, xAxis: xAxis, yAxis: yAxis,
                splatMaximum: try splatMaximum(p, radii))
        }
        let (bunched, bunchedRadii) = Self.bunched(smallest: 19, seed: 17)
        let bunchedFactor = try factor(bunched, bunchedRadii) ?? .max
        #expect(bunchedFactor > 1)
        let (spread, spreadRadii) = Self.points(seed: 7)
        let spreadFactor = try factor(spread, spreadRadii) ?? .max
        #expect(spreadFactor < bunchedFactor, "\(spreadFactor) against \(bunchedFactor)")
    }

    @Test func theMeanWithRadiiTakesTheExactSplat() throws {
        var (p, radii) = Self.points(seed: 9)
        p.value = p.x.map { 0.25 * $0 + 1 }
        let (_, scheme) = try Self.grid(p, radii: radii, kernel: .quartic, method: .binned, estimator: .mean)
        #expect(scheme == .direct)
    }

    @Test func classesCoverTheirRangeAndShareAPointAmongThree() {
        let classes = RadiusClasses(smallest: 19, largest: 100)
        #expect(classes.radius(0) == 19)
        // The widest class is the largest radius itself, to the bit.
        #expect(classes.largest == 100 && classes.radius(classes.count - 1) == 100)
        // Neighbouring classes at most 10 % apart in ln ρ at the narrow end
        // (whole steps to the largest: a little less), wider beyond.
        let first = log(classes.radius(1) / classes.radius(0))
        #expect(first <= RadiusClasses.standardLogStep + 1e-12 && first > 0.9 * RadiusClasses.standardLogStep)
        #expect(classes.radius(classes.count - 1) / classes.radius(classes.count - 2) > exp(0.2))
        for r in Array(stride(from: 19.0, through: 100, by: 0.7)) + [100] {
            let t = classes.coordinate(of: r), firstClass = classes.firstClass(at: t)
            #expect(t >= 0 && t <= Double(classes.count - 1))
            #expect(firstClass >= 0 && firstClass + 3 <= classes.count)
            // Only the three classes from the first share the point.
            for k in 0..<classes.count where k < firstClass || k >= firstClass + 3 {
                #expect(classes.share(of: k, at: t) == 0)
            }
        }
        // A point of the largest radius takes the widest class whole, and
        // one of a class's radius that class.
        let last = classes.coordinate(of: 100)
        let widest = (0..<classes.count).map { classes.share(of: $0, at: last) }
        #expect(widest == (0..<classes.count).map { $0 == classes.count - 1 ? 1.0 : 0.0 })
        let third = classes.coordinate(of: classes.radius(3))
        #expect(abs(classes.share(of: 3, at: third) - 1) < 1e-12)
        // No class beyond about 1/(1 − e^−h) times the smallest.
        #expect(RadiusClasses(smallest: 1, largest: 1e9).largest.isFinite)
        #expect(RadiusClasses(smallest: 1, largest: 1e9).largest < 25)
        // One radius, one class; two classes share linearly.
        let one = RadiusClasses(smallest: 40, largest: 40)
        #expect(one.count == 1 && one.radius(0) == 40 && one.largest == 40)
        #expect(one.coordinate(of: 40) == 0 && one.share(of: 0, at: 0) == 1)
        let two = RadiusClasses(smallest: 40, largest: 42)
        #expect(two.count == 2)
        let t = two.coordinate(of: 41)
        #expect(two.firstClass(at: t) == 0 && abs(two.share(of: 0, at: t) + two.share(of: 1, at: t) - 1) < 1e-15)
    }

    @Test func aStencilSharedWholeIsOneWhoseEveryShareIsAboveOrBelowZero() {
        let many = RadiusClasses(smallest: 19, largest: 100), two = RadiusClasses(smallest: 40, largest: 42)
        let one = RadiusClasses(smallest: 40, largest: 40)
        for classes in [many, two, one] {
            let last = Double(classes.count - 1)
            // Whole coordinates, their neighbours a rounding away (where a
            // share may round to 0), a coordinate a rounding above 0, and between.
            var ts: [Double] = [0, .leastNonzeroMagnitude, 1e-17, 1e-300, last]
            for k in 0..<classes.count {
                let t = Double(k)
                ts += [t, t.nextUp, t.nextDown, t + 0.5, t + 0.25, t - 0.3].filter { $0 >= 0 && $0 <= last }
            }
            for r in stride(from: classes.smallest, through: classes.largest, by: 0.37) {
                ts.append(classes.coordinate(of: r))
            }
            for t in ts {
                let first = classes.firstClass(at: t)
                let every = (first..<min(first + 3, classes.count)).allSatisfy { classes.share(of: $0, at: t) != 0 }
                #expect(classes.sharesEveryClass(at: t) == every, "t = \(t) of \(classes.count) classes")
            }
        }
    }

    /// A point's shares of its three classes are the quadratic Lagrange
    /// weights in 1/r, so they follow every quadratic in 1/r exactly: they
    /// sum to 1 (the mass), give 1/r (the mix's mean inverse radius) and
    /// 1/r², the peak of the point's own density-normalised kernel. Two
    /// classes shared linearly miss the peak by λ(1 − λ)(1/ρₖ − 1/ρₖ₊₁)²,
    /// a few thousandths of it at these spacings.
    @Test func threeClassSharesFollowQuadraticsInTheInverseRadius() {
        let classes = RadiusClasses(smallest: 19, largest: 100)
        #expect(classes.count >= 3)
        for r in stride(from: 19.0, through: 100, by: 0.37) {
            let t = classes.coordinate(of: r), first = classes.firstClass(at: t)
            var sum = 0.0, inverse = 0.0, peak = 0.0
            for k in first..<first + 3 {
                let share = classes.share(of: k, at: t), rho = classes.radius(k)
                sum += share
                inverse += share / rho
                peak += share / (rho * rho)
            }
            #expect(abs(sum - 1) < 1e-12, "r \(r)")
            #expect(abs(inverse * r - 1) < 1e-12, "r \(r)")
            #expect(abs(peak * r * r - 1) < 1e-9, "r \(r): \(peak * r * r - 1)")
        }
    }

    /// The points an adaptive bandwidth trims all have the largest radius:
    /// a third of them here, the rest 3 to 10 cells wide. Planned for a
    /// million such points, they take one class of exactly that radius,
    /// the others the exact splat; every node stays within the bound of
    /// the exact sum and the mass is kept.
    @Test func pointsOfTheLargestRadiusTakeOneClassWhole() throws {
        let (p, _) = Self.points(seed: 13)
        let radii = (0..<p.count).map { i in i % 3 == 0 ? 40.0 : 3 + Double(i % 8) }
        let geometry = GridGeometry(columns: 128, rows: 131, x0: 0.5, y0: 0.5, dx: 1, dy: 1)
        var accumulator = try DensityAccumulator(
            geometry: geometry, radius: 20, projection: KernelTests.planar, method: .automatic, kernel: .quartic,
            maximumRadius: 40, radiusProfile: RadiusProfile(radii: radii), expectedCount: 1_000_000)
        guard case .radiusClasses(let classes) = accumulator.scheme else {
            Issue.record("expected radius classes, got \(accumulator.scheme)")
            return
        }
        #expect(classes.count == 1 && classes.smallest == 40 && classes.largest == 40)
        var points = p
        points.radius = radii
        try accumulator.add(points)
        let grid = try accumulator.finish()
        let error = KernelTests.error(grid, p, radii: radii, kernel: .quartic, raw: false)
        #expect(error < 1e-4, "\(error)")
        let (exact, _) = try Self.grid(p, radii: radii, kernel: .quartic, method: .exact)
        let mass = grid.values.reduce(0, +) / exact.values.reduce(0, +)
        #expect(abs(mass - 1) < 1e-3, "mass \(mass)")
    }

    @Test func weightedQuantilesAreThoseOfTheSortedWeights() {
        var rng = SplitMixGenerator(seed: 5)
        for n in [1, 2, 3, 10, 257, 2000] {
            // Ties included: values from a few dozen.
            var pairs = (0..<n).map { _ in
                SIMD2(Double(Int.random(in: 0..<40, using: &rng)), Double.random(in: 0.1...3, using: &rng))
            }
            let total = pairs.reduce(0) { $0 + $1.y }
            let sorted = pairs.sorted { $0.x < $1.x }
            for q in [0.0, 0.05, 0.5, 0.95, 1.0] {
                var acc = 0.0
                var expected = sorted.last!.x
                for p in sorted {
                    acc += p.y
                    if acc >= q * total * (1 - 1e-12) { expected = p.x; break }
                }
                #expect(WeightedQuantile.value(&pairs, q: q, total: total) == expected, "n \(n) q \(q)")
            }
        }
    }

    @Test func histogramQuantilesAgreeWithSelection() {
        var rng = SplitMixGenerator(seed: 11)
        for n in [1, 2, 5, 300, 20_000] {
            // Spread over decades, with ties, some zero weights and one
            // far outlier that leaves most bins empty.
            var values = (0..<n).map { _ in
                Double.random(in: 0...1, using: &rng) < 0.2
                    ? Double(Int.random(in: 0..<5, using: &rng))
                    : exp(Double.random(in: -8...8, using: &rng))
            }
            if n > 2 { values[n / 2] = 1e12 }
            let weights = (0..<n).map { i in i % 7 == 3 ? 0 : Double.random(in: 0.1...3, using: &rng) }
            let qs = [0.0, 0.05, 0.5, 0.95, 1.0]
            guard let found = WeightedQuantile.values(values, weights: weights, at: qs) else {
                #expect(weights.allSatisfy { $0 == 0 }, "n \(n)")
                continue
            }
            var pairs = zip(values, weights).filter { $0.1 > 0 }.map { SIMD2($0.0, $0.1) }
            let total = pairs.reduce(0) { $0 + $1.y }
            for (q, value) in zip(qs, found) {
                let expected = WeightedQuantile.value(&pairs, q: q, total: total)!
                #expect(value == expected, "n \(n) q \(q)")
            }
        }
        #expect(WeightedQuantile.values([1, 2], weights: [0, 0], at: [0.5]) == nil)
    }

    @Test func quantilesAmongValuesClippedToAnEndAreThatEnd() {
        var rng = SplitMixGenerator(seed: 12)
        // A fifth of the values clipped to the highest and a tenth to the
        // lowest, as an adaptive bandwidth trims its radii: the quantiles
        // that fall among them are those ends, the others found as before.
        for n in [10, 1_000, 50_000] {
            let values = (0..<n).map { _ -> Double in
                let u = Double.random(in: 0...1, using: &rng)
                return u < 0.2 ? 40 : u < 0.3 ? 0.5 : Double.random(in: 0.5...40, using: &rng)
            }
            let weights = (0..<n).map { _ in Double.random(in: 0.5...2, using: &rng) }
            let qs = [0.0, 0.05, 0.09, 0.11, 0.5, 0.79, 0.81, 0.95, 1.0]
            let found = WeightedQuantile.values(values, weights: weights, at: qs)!
            var pairs = zip(values, weights).map { SIMD2($0.0, $0.1) }
            let total = pairs.reduce(0) { $0 + $1.y }
            for (q, value) in zip(qs, found) {
                let expected = WeightedQuantile.value(&pairs, q: q, total: total)!
                #expect(value == expected, "n \(n) q \(q)")
            }
            if n >= 1_000 { #expect(found[7] == 40 && found[1] == 0.5, "n \(n)") }
        }
    }

    @Test func aProfileSharesThePointsAndTheirSquaresByRadius() {
        // 300 points of radius 2, 100 of radius 10 (one of weight 0, not
        // counted) and 99 of radius 40.
        var radii = [Double](repeating: 2, count: 300) + [Double](repeating: 10, count: 100)
        radii += [Double](repeating: 40, count: 99)
        var weights = [Double](repeating: 1, count: radii.count)
        weights[350] = 0
        let profile = RadiusProfile(radii: radii, weights: weights)
        #expect(abs(profile.share(from: 0) - 1) < 1e-12)
        #expect(abs(profile.share(from: 5, below: 20) - 99.0 / 498) < 1e-12)
        #expect(abs(profile.share(from: 20) - 99.0 / 498) < 1e-12)
        #expect(abs(profile.share(from: 1, below: 3) - 300.0 / 498) < 1e-12)
        let squares: Double = (1200.0 + 9900.0 + 158_400.0) / 498
        #expect(abs(profile.meanSquare(from: 0) - squares) < 1e-9)
        #expect(profile.share(from: 41) == 0)
        // No radii, or none of weight > 0: nothing anywhere.
        #expect(RadiusProfile(radii: [], weights: []).share(from: 0) == 0)
        #expect(RadiusProfile(radii: [3], weights: [0]).meanSquare(from: 0) == 0)
    }

    @Test func theClassesStartWhereTheirCostIsLeast() {
        let xAxis = GaussianAxis(origin: 0, step: 1, count: 1024, sigma: 10, reach: 50)
        let yAxis = GaussianAxis(origin: 0, step: 1, count: 900, sigma: 10, reach: 50)
        func plan(_ radii: [Double]) -> RadiusClasses? {
            RadiusClasses.plan(
                method: .automatic, kernel: .quartic, maximumRadius: radii.max()!, xAxis: xAxis, yAxis: yAxis,
                channels: 1, pointCount: 1_000_000, profile: RadiusProfile(radii: radii))
        }
        // A quarter of the points 30 cells wide, the rest narrow, and a
        // few between: the classes start near 30 cells, the few splatted.
        var radii = (0..<4000).map { i in i % 4 == 0 ? 30.0 : 3 + Double(i % 7) }
        radii += (0..<40).map { 19 + Double($0) / 4 }
        let chosen = plan(radii)
        #expect(chosen != nil)
        #expect((chosen?.smallest ?? 0) > 25 && (chosen?.smallest ?? 0) <= 30)
        #expect((chosen?.largest ?? 0) >= 30)
        // Without a profile they start at the narrowest the convolution allows.
        let unprofiled = RadiusClasses.plan(
            method: .automatic, kernel: .quartic, maximumRadius: 30, xAxis: xAxis, yAxis: yAxis, channels: 1,
            pointCount: 1_000_000)
        #expect(unprofiled?.smallest == 19)
        // A handful of wide points is splatted: no transforms repay them.
        #expect(plan([Double](repeating: 4, count: 100_000) + [30, 45, 60]) == nil)
        // Every point wide and spread evenly: classes from near the narrowest.
        let spread = (0..<10_000).map { 19 + Double($0 % 81) }
        #expect((plan(spread)?.smallest ?? .infinity) < 25)
    }

    /// Classes spaced evenly in 1/ρ from far below the points would reach
    /// them spaced wide (h = ln(ρₖ₊₁/ρₖ) grows as ρ/ρ₀): as an adaptive
    /// bandwidth of a wide pilot makes them, points 40 to 44 cells wide and
    /// a few 100 to 120, with every class cheaper the narrower they start.
    /// The classes start at the narrowest point, and are spaced at most
    /// 0.1 apart there.
    @Test(arguments: [DensityKernel.quartic, .gaussian])
    func classesStartNoNarrowerThanTheNarrowestPoint(kernel: DensityKernel) {
        let xAxis = GaussianAxis(origin: 0, step: 1, count: 400, sigma: 10, reach: 50)
        let yAxis = GaussianAxis(origin: 0, step: 1, count: 380, sigma: 10, reach: 50)
        var radii = (0..<20_000).map { 40 + Double($0 % 41) / 10 }
        radii += (0..<40).map { 100 + Double($0) / 2 }
        let profile = RadiusProfile(radii: radii)
        #expect(profile.smallest <= 40 && profile.smallest > 40 * exp(-1 / RadiusProfile.binsPerLog) * 0.999)
        for method in [DensityMethod.automatic, .binned] {
            let chosen = RadiusClasses.plan(
                method: method, kernel: kernel, maximumRadius: radii.max()!, xAxis: xAxis, yAxis: yAxis,
                channels: 1, pointCount: 1_000_000, profile: profile)
            guard let chosen else {
                Issue.record("\(method): expected classes")
                continue
            }
            #expect(chosen.smallest >= profile.smallest, "\(method): \(chosen)")
            #expect(log(chosen.radius(1) / chosen.radius(0)) <= RadiusClasses.standardLogStep + 1e-12)
        }
    }
}

extension RadiusClassTests {
    /// `p`'s points of radii `radii` sorted by first class of `classes`, as
    /// the fill keeps them (``RadiusClassOrder``).
    static func order(_ p: PlanePoints, radii: [Double], classes: RadiusClasses) -> RadiusClassOrder {
        let t = radii.map { classes.coordinate(of: $0) }
        let first = t.map { classes.firstClass(at: $0) }
        var starts = [Int](repeating: 0, count: classes.count + 1)
        for f in first { starts[f + 1] += 1 }
        for k in 0..<classes.count { starts[k + 1] += starts[k] }
        let order = RadiusClassOrder(starts: starts)
        var next = Array(starts.dropLast())
        for i in 0..<p.count {
            order.sorted.set(next[first[i]], p.x[i], p.y[i], p.weight[i], 0, t[i])
            next[first[i]] += 1
        }
        return order
    }

    /// 1 500 points of weight 1 in a cluster 8 wide about (64, 65), and 24
    /// wide points of radii drawn from `radii`, scattered over the test
    /// grid (``grid(_:radii:kernel:method:estimator:values:)``) and the
    /// same bunched within a unit square at (30, 30).
    static func clusterBesideWidePoints(
        seed: UInt64, radii: ClosedRange<Double>
    ) -> (narrow: PlanePoints, scattered: PlanePoints, bunched: PlanePoints, wideRadii: [Double]) {
        var rng = SplitMixGenerator(seed: seed)
        var narrow = PlanePoints(), scattered = PlanePoints(), bunched = PlanePoints()
        for _ in 0..<1500 {
            narrow.append(
                x: 64 + Double.random(in: -4...4, using: &rng), y: 65 + Double.random(in: -4...4, using: &rng),
                weight: 1)
        }
        var wideRadii: [Double] = []
        for _ in 0..<24 {
            scattered.append(
                x: Double.random(in: 10...118, using: &rng), y: Double.random(in: 10...121, using: &rng), weight: 1)
            bunched.append(
                x: 30 + Double.random(in: 0...1, using: &rng), y: 30 + Double.random(in: 0...1, using: &rng), weight: 1)
            wideRadii.append(Double.random(in: radii, using: &rng))
        }
        return (narrow, scattered, bunched, wideRadii)
    }

    /// Classes narrower than twice the narrowest go on the coarse grid as
    /// far as the bound on their error there allows: wide points scattered
    /// beside a dense cluster of narrow ones (whose peak the grid's maximum
    /// is) all go, and the grid keeps within the bound of the exact sum;
    /// the same wide points bunched, beside one narrow point, stay on the
    /// grid's own step.
    @Test func narrowClassesGoCoarseWhereTheirBoundAllows() throws {
        let (narrow, scattered, bunched, wideRadii) = Self.clusterBesideWidePoints(seed: 41, radii: 19...30)
        var p = narrow
        for i in 0..<scattered.count { p.append(x: scattered.x[i], y: scattered.y[i], weight: 1) }
        let radii = [Double](repeating: 8, count: narrow.count) + wideRadii
        let (grid, scheme) = try Self.grid(p, radii: radii, kernel: .quartic, method: .binned)
        guard case .radiusClasses(let classes) = scheme else {
            Issue.record("expected radius classes, got \(scheme)")
            return
        }
        #expect(classes.count > 2 && classes.largest < 2 * classes.smallest)
        let error = KernelTests.error(grid, p, radii: radii, kernel: .quartic, raw: false)
        #expect(error < 2.5e-4, "\(error)")
        // The bound's own verdicts, against the narrow points' exact maximum
        // (the grid's radius R is 20: Σ w (R/r)² shape).
        var maximum = 0.0
        for y in 55...75 {
            for x in 54...74 {
                let node = KernelTests.exact(
                    narrow, radii: [Double](repeating: 8, count: narrow.count), kernel: .quartic, raw: true,
                    x: Double(x) + 0.5, y: Double(y) + 0.5)
                maximum = max(maximum, node * (20.0 / 8) * (20.0 / 8))
            }
        }
        func start(_ wide: PlanePoints, maximum: Double) -> Int {
            Self.coarseStart(wide, radii: wideRadii, classes: classes, maximum: maximum, factor: 2)
        }
        #expect(start(scattered, maximum: maximum) == 0)
        #expect(start(bunched, maximum: (20.0 / 8) * (20.0 / 8)) == classes.count)
    }

    /// ``RadiusClassBound/coarseStart(used:current:classes:scale:points:runs:kernel:radius:raw:xAxis:yAxis:maximum:factor:)``
    /// of the test grid's axes over every class of `classes`, all
    /// candidates, for `wide` points of radii `radii` (the quartic, R = 20).
    static func coarseStart(
        _ wide: PlanePoints, radii: [Double], classes: RadiusClasses, maximum: Double, factor: Double
    ) -> Int {
        let xAxis = GaussianAxis(origin: 0.5, step: 1, count: 128, sigma: 1, reach: 1)
        let yAxis = GaussianAxis(origin: 0.5, step: 1, count: 131, sigma: 1, reach: 1)
        let used = Array(0..<classes.count)
        return RadiusClassBound.coarseStart(
            used: used, current: used.count, classes: classes, scale: 1,
            points: [Self.order(wide, radii: radii, classes: classes)],
            runs: { classes.runs(sharing: $0, refinedBy: 1) }, kernel: .quartic, radius: 20, raw: false,
            xAxis: xAxis, yAxis: yAxis, maximum: maximum, factor: factor)
    }

    /// The widest classes go on the grid of four times the step as far as
    /// its bound allows (read back through both coarse grids): wide points
    /// 40 to 60 cells scattered beside a dense cluster of narrow ones take
    /// it, and the grid keeps within the bound of the exact sum; bunched
    /// beside one narrow point, they do not.
    @Test func wideClassesGoOnTheCoarserGridWhereTheirBoundAllows() throws {
        let (narrow, wide, bunched, wideRadii) = Self.clusterBesideWidePoints(seed: 43, radii: 40...60)
        var p = narrow
        let narrowCount = p.count
        for i in 0..<wide.count { p.append(x: wide.x[i], y: wide.y[i], weight: 1) }
        let radii = [Double](repeating: 8, count: narrowCount) + wideRadii
        let (grid, scheme) = try Self.grid(p, radii: radii, kernel: .quartic, method: .binned)
        guard case .radiusClasses(let classes) = scheme else {
            Issue.record("expected radius classes, got \(scheme)")
            return
        }
        let error = KernelTests.error(grid, p, radii: radii, kernel: .quartic, raw: false)
        #expect(error < 2.5e-4, "\(error)")
        // The bound's verdicts on the classes of the coarse grid of twice
        // the step (all of them here): every class 9.5 cells wide or more
        // on the coarser grid (38 nodes) may go, against a maximum of 5 %
        // of the cluster's Σ w (R/r)², far below its peak.
        let maximum = Double(narrowCount) * (20.0 / 8) * (20.0 / 8) * 0.05
        func start(_ wide: PlanePoints, maximum: Double) -> Int {
            Self.coarseStart(wide, radii: wideRadii, classes: classes, maximum: maximum, factor: 4)
        }
        let first = try #require((0..<classes.count).first { classes.radius($0) / 4 >= 9.5 })
        #expect(start(wide, maximum: maximum) == first)
        #expect(start(bunched, maximum: (20.0 / 8) * (20.0 / 8)) == classes.count)
    }

    /// Every class binned into a plane of its own in one pass over the
    /// points gives the sums of the classes binned one at a time into one
    /// plane (to the transforms' rounding: only the order of the adds
    /// into a node differs), for classes of the grid's own step and of a
    /// refinement, and for a list that skips a class.
    @Test(arguments: [1, 2])
    func classesBinnedAtOnceSumAsClassesBinnedOneByOne(refinement: Int) throws {
        var rng = SplitMixGenerator(seed: 59)
        var p = PlanePoints()
        var radii: [Double] = []
        for _ in 0..<2000 {
            p.append(
                x: Double.random(in: 4...124, using: &rng), y: Double.random(in: 4...127, using: &rng),
                weight: Double.random(in: 0.5...2, using: &rng))
            radii.append(Double.random(in: 19...60, using: &rng))
        }
        let sortedBy = RadiusClasses(smallest: 19, largest: 60)
        let classes = sortedBy.refined(by: refinement)
        let order = Self.order(p, radii: radii, classes: sortedBy)
        let xAxis = GaussianAxis(origin: 0.5, step: 1, count: 128, sigma: 1, reach: 1)
        let yAxis = GaussianAxis(origin: 0.5, step: 1, count: 131, sigma: 1, reach: 1)
        func kernel(_ k: Int, _ i: Int, _ j: Int) -> Double {
            let rho = classes.radius(k), d2 = Double(i * i + j * j)
            return d2 <= rho * rho ? DensityKernel.quartic.shape(squaredDistanceRatio: d2 / (rho * rho)) : 0
        }
        for list in [Array(0..<classes.count), Array(0..<classes.count).filter { $0 != 2 }] {
            func sums(atOnce: Bool) throws -> [Double] {
                let convolution = try ClassConvolution(
                    xAxis: xAxis, yAxis: yAxis, reach: classes.support(list.last!), channels: 1)
                var runs: RadiusClassRuns? = nil
                var slot = [Int](repeating: -1, count: classes.count)
                for (s, k) in list.enumerated() { slot[k] = s }
                try slot.withUnsafeBufferPointer { slot in
                    try convolution.add(
                        list, support: classes.support, kernel: kernel, control: .none,
                        binAll: atOnce
                            ? { binning, stride in
                                let depositor = ClassStencilBinning(
                                    binning: binning, coordinate: order.coordinate, classes: classes,
                                    slot: slot.baseAddress!, stride: stride, scale: Double(refinement))
                                try RowBands.deposit(
                                    depositor, x: order.x, y: order.y, weight: order.weight, value: nil,
                                    count: order.count, rows: yAxis.count, columns: xAxis.count, control: .none,
                                    progress: nil)
                            } : nil,
                        bin: { k, binning in
                            if runs == nil {
                                runs = RadiusClassRuns(
                                    order: order, binning: binning, sortedBy: sortedBy, factor: refinement,
                                    rows: yAxis.count, columns: xAxis.count)
                            }
                            try runs!.bin(k, control: .none)
                        }, done: { _, _ in })
                }
                try convolution.sum.inverse(control: .none)
                let count = convolution.sum.rows * convolution.sum.columns
                return Array(UnsafeBufferPointer(start: convolution.sum.sumRe.base, count: count))
                    + Array(UnsafeBufferPointer(start: convolution.sum.sumIm.base, count: count))
            }
            let once = try sums(atOnce: true), apart = try sums(atOnce: false)
            let top = apart.map(abs).max()!
            #expect(top > 0)
            let off = zip(once, apart).map { abs($0 - $1) }.max()!
            #expect(off <= 1e-12 * top, "\(off / top)")
        }
    }
}
