import Foundation
import Testing

@testable import HeatMapCore
@testable import HeatMapDensity

/// The single-precision splat of the quartic of one radius
/// (``QuarticBandSplat``) against the exact sums of ``KernelTests``, where
/// float rounding would show: thousands of terms on the same nodes, and
/// weights far apart.
@Suite struct QuarticBandSplatTests {
    /// The grid of `p` on 48 × 45 unit cells, radius `r` cells, exact method.
    static func grid(_ p: PlanePoints, radius r: Double) throws -> DensityGrid {
        let geometry = GridGeometry(columns: 48, rows: 45, x0: 0.5, y0: 0.5, dx: 1, dy: 1)
        var accumulator = try DensityAccumulator(
            geometry: geometry, radius: r, projection: KernelTests.planar, method: .exact, kernel: .quartic)
        try accumulator.add(p)
        return try accumulator.finish()
    }

    @Test(arguments: [1.5, 6.0, 11.3])
    func thousandsOfTermsOnOneNodeStayWithinTheFloatBound(radius: Double) throws {
        // 6000 points within a fifth of a cell: every node near them sums
        // 6000 terms, several flushes' worth.
        var rng = SplitMixGenerator(seed: 3)
        var p = PlanePoints()
        for _ in 0..<6000 {
            p.append(
                x: 24.3 + Double.random(in: 0...0.2, using: &rng), y: 20.1 + Double.random(in: 0...0.2, using: &rng),
                weight: Double.random(in: 0.5...2, using: &rng))
        }
        let error = KernelTests.error(
            try Self.grid(p, radius: radius), p, radii: [Double](repeating: radius, count: p.count),
            kernel: .quartic, raw: false)
        // 1024 float additions per flush: within 1024 × 2⁻²⁴ ≈ 6.1e−5.
        #expect(error < 7e-5, "r \(radius): \(error)")
    }

    @Test func weightsFarApartAndTinyOnesKeepTheirSums() throws {
        let r = 6.0
        var p = KernelTests.points(200, seed: 8)
        p = PlanePoints(x: p.x.map { $0 * 4 }, y: p.y.map { $0 * 4 }, weight: p.weight)
        // A weight 1e200 times the others: they vanish below the grid's
        // maximum, as in double precision.
        var heavy = p
        heavy.append(x: 10, y: 30, weight: 1e200)
        let radii = [Double](repeating: r, count: heavy.count)
        #expect(
            KernelTests.error(try Self.grid(heavy, radius: r), heavy, radii: radii, kernel: .quartic, raw: false) < 1e-6
        )
        // All weights tiny: scaled up before the float splat, not lost.
        let tiny = PlanePoints(x: p.x, y: p.y, weight: p.weight.map { $0 * 1e-300 })
        let grid = try Self.grid(tiny, radius: r)
        let error = KernelTests.error(
            grid, tiny, radii: [Double](repeating: r, count: p.count), kernel: .quartic, raw: false)
        #expect(error < 1e-6, "\(error)")
        #expect(grid.values.contains { $0 > 0 })
    }
}
