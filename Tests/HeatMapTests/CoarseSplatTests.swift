import Foundation
import Testing

@testable import HeatMapCore
@testable import HeatMapDensity

/// The wider splatted points on the grid of twice the step, read back at
/// the grid's nodes, against their exact splat.
@Suite struct CoarseSplatTests {
    static let xAxis = GaussianAxis(origin: 0.5, step: 1, count: 96, sigma: 1, reach: 3)
    static let yAxis = GaussianAxis(origin: 0.5, step: 1, count: 90, sigma: 1, reach: 3)

    static func slice(_ p: PlanePoints, radii: [Double]) -> RadiusClassSlice {
        let slice = RadiusClassSlice(count: p.count)
        for i in 0..<p.count { slice.set(i, p.x[i], p.y[i], p.weight[i], nil, radii[i]) }
        return slice
    }

    /// Raw values (Σ w shape) of `p` on the test's grid: through the
    /// coarse grid, or each point's exact splat.
    static func grid(_ p: PlanePoints, radii: [Double], kernel: DensityKernel, coarse: Bool) throws -> [Double] {
        var values = [Double](repeating: 0, count: xAxis.count * yAxis.count)
        try values.withUnsafeMutableBufferPointer { out in
            if coarse {
                try CoarseSplat.add(
                    slice(p, radii: radii), kernel: kernel, radius: 10, maximumRadius: radii.max()!, raw: true,
                    xAxis: xAxis, yAxis: yAxis, into: out.baseAddress!, control: .none)
            } else {
                try DiscFill(
                    kernel: kernel, xAxis: xAxis, yAxis: yAxis, radius: 10, maximumRadius: radii.max()!, raw: true,
                    density: out.baseAddress!, weightedValue: nil
                ).deposit(slice(p, radii: radii), control: .none)
            }
        }
        return values
    }

    /// A lone point at several offsets from the nodes and radii from the
    /// least the coarse grid takes up: every node within the stated error
    /// of its peak, none below zero, and the mass kept.
    @Test(arguments: [DensityKernel.quartic, .triweight])
    func aLonePointComesBackWithinItsError(kernel: DensityKernel) throws {
        let least = CoarseSplat.smallestRadius(kernel: kernel, xAxis: Self.xAxis, yAxis: Self.yAxis, channels: 1)
        #expect(least == 12)
        var rng = SplitMixGenerator(seed: 5)
        for radius in [12.0, 15.3, 21.7] {
            for _ in 0..<4 {
                var p = PlanePoints()
                p.append(
                    x: 48 + Double.random(in: 0..<2, using: &rng), y: 45 + Double.random(in: 0..<2, using: &rng),
                    weight: 3)
                let coarse = try Self.grid(p, radii: [radius], kernel: kernel, coarse: true)
                let exact = try Self.grid(p, radii: [radius], kernel: kernel, coarse: false)
                let worst = zip(coarse, exact).map { abs($0 - $1) }.max()! / 3
                let bound = try #require(CoarseSplat.error(kernel: kernel, cells: radius / 2))
                #expect(worst <= bound, "\(kernel) r \(radius): \(worst) against \(bound)")
                #expect(worst > bound / 20, "the reading errs near the support's edge: \(worst)")
                #expect(coarse.allSatisfy { $0 >= 0 })
                // Both sample the kernel, the coarse grid at twice the
                // step (for these lone points 1e-3 to 1.8e-3 apart).
                let mass = coarse.reduce(0, +) / exact.reduce(0, +)
                #expect(abs(mass - 1) < 3e-3, "mass \(mass)")
            }
        }
        // Narrower than the least, or a kernel with a corner at its edge: none.
        #expect(CoarseSplat.error(kernel: kernel, cells: 5.9) == nil)
        #expect(CoarseSplat.error(kernel: .epanechnikov, cells: 10) == nil)
        #expect(
            CoarseSplat.smallestRadius(kernel: .quartic, xAxis: Self.xAxis, yAxis: Self.yAxis, channels: 2)
                == .infinity)
    }

    /// Points bunched in one cell add their errors alike: against a
    /// small maximum they keep the grid's step, against a large one they
    /// go coarse; a lone point far from them goes coarse whatever the
    /// bunch does.
    @Test func bunchedPointsKeepTheGridStepWhereTheirErrorsWouldAdd() {
        var p = PlanePoints()
        var radii: [Double] = []
        for i in 0..<200 {
            p.append(x: 20 + Double(i % 10) * 0.01, y: 20 + Double(i / 10) * 0.01, weight: 1)
            radii.append(14)
        }
        p.append(x: 80, y: 75, weight: 1)
        radii.append(14)
        let points = [Self.slice(p, radii: radii)]
        // Each point's worst: 0.35 / 7² of its peak, 1 here (raw).
        let each = CoarseSplat.error(kernel: .quartic, cells: 7)!
        func parted(maximum: Double) -> (coarse: Int, fine: Int) {
            let (coarse, fine) = CoarseSplat.parted(
                points, widest: 14, kernel: .quartic, radius: 10, raw: true, xAxis: Self.xAxis, yAxis: Self.yAxis,
                maximum: maximum)
            return (coarse.count, fine.count)
        }
        // The bunch's summed worst at a node is 200 × each.
        #expect(parted(maximum: 200 * each / CoarseSplat.tolerance * 1.01) == (201, 0))
        #expect(parted(maximum: 200 * each / CoarseSplat.tolerance * 0.99) == (1, 200))
        // No maximum to measure against: every point keeps the step.
        #expect(parted(maximum: 0) == (0, 201))
    }

    /// Through the density accumulator: narrow points of an adaptive
    /// bandwidth wider than the coarse grid's least radius, beside a dense
    /// cluster, keep every node within the check's 1e−3 of the exact sum
    /// and the mass. (The quartic: binned, the triweight's classes start
    /// at 10 cells, below the coarse grid's least radius.)
    @Test func narrowPointsWideEnoughKeepTheExactSum() throws {
        let kernel = DensityKernel.quartic
        let (p, radii) = RadiusClassTests.points(seed: 19, count: 900, cluster: 55...70, narrow: 3...8, wide: 12...40)
        let (grid, scheme) = try RadiusClassTests.grid(p, radii: radii, kernel: kernel, method: .binned)
        guard case .radiusClasses(let classes) = scheme else {
            Issue.record("expected radius classes, got \(scheme)")
            return
        }
        // Some splatted points are wide enough for the coarse grid.
        #expect(radii.contains { $0 >= 12 && $0 < classes.smallest }, "classes from \(classes.smallest)")
        let error = KernelTests.error(grid, p, radii: radii, kernel: kernel, raw: false)
        #expect(error < 1e-3, "\(kernel): \(error)")
        let (exact, _) = try RadiusClassTests.grid(p, radii: radii, kernel: kernel, method: .exact)
        let mass = grid.values.reduce(0, +) / exact.values.reduce(0, +)
        #expect(abs(mass - 1) < 1e-3, "mass \(mass)")
        #expect(grid.values.allSatisfy { $0 >= 0 })
    }
}
