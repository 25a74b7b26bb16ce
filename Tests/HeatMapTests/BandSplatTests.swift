import Foundation
import Testing

@testable import HeatMapCore
@testable import HeatMapDensity

/// The single-precision splat of the powers of 1 − d²/r² (the quartic,
/// the Epanechnikov and the triweight: ``BandSplat``) against the
/// exact sums of ``KernelTests``, where float rounding would show:
/// thousands of terms on the same nodes, and weights far apart.
@Suite struct BandSplatTests {
    /// The kernels the band splat serves.
    static let kernels: [DensityKernel] = [.quartic, .epanechnikov, .triweight]

    /// The grid of `p` on 48 × 45 unit cells, radius `r` cells, exact method.
    static func grid(_ p: PlanePoints, radius r: Double, kernel: DensityKernel = .quartic) throws -> DensityGrid {
        let geometry = GridGeometry(columns: 48, rows: 45, x0: 0.5, y0: 0.5, dx: 1, dy: 1)
        var accumulator = try DensityAccumulator(
            geometry: geometry, radius: r, projection: KernelTests.planar, method: .exact, kernel: kernel)
        try accumulator.add(p)
        return try accumulator.finish()
    }

    @Test(arguments: kernels, [1.5, 6.0, 11.3])
    func thousandsOfTermsOnOneNodeStayWithinTheFloatBound(kernel: DensityKernel, radius: Double) throws {
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
            try Self.grid(p, radius: radius, kernel: kernel), p, radii: [Double](repeating: radius, count: p.count),
            kernel: kernel, raw: false)
        // 1024 float additions per flush: within 1024 × 2⁻²⁴ ≈ 6.1e−5.
        #expect(error < 7e-5, "\(kernel) r \(radius): \(error)")
    }

    /// A band holding most of the points (a cluster narrower than the
    /// band's least height) is splatted in pieces side by side, each past
    /// the first into a copy of the band's rows: the sums are the exact
    /// ones within the float bound, and a second run gives the same bits.
    @Test(arguments: kernels)
    func aBandOfMostPointsIsSplattedInPiecesWithinTheFloatBound(kernel: DensityKernel) throws {
        var rng = SplitMixGenerator(seed: 5)
        var p = PlanePoints()
        for k in 0..<25_000 {
            // 24 000 points in a cell's square, the rest spread.
            let spread = k >= 24_000
            p.append(
                x: spread ? Double.random(in: 2...46, using: &rng) : 20 + Double.random(in: 0...1, using: &rng),
                y: spread ? Double.random(in: 2...43, using: &rng) : 22 + Double.random(in: 0...1, using: &rng),
                weight: Double.random(in: 0.5...2, using: &rng))
        }
        // The cluster's band holds more than a piece's share: two pieces at least.
        #expect(
            BandSplat<BandEntry, QuarticPower>.pieces(
                of: 24_000, total: 25_000, nodes: .pi * 36, rows: 17, spareRows: 45) >= 2)
        let grid = try Self.grid(p, radius: 6, kernel: kernel)
        let error = KernelTests.error(
            grid, p, radii: [Double](repeating: 6, count: p.count), kernel: kernel, raw: false)
        #expect(error < 7e-5, "\(kernel): \(error)")
        #expect(try Self.grid(p, radius: 6, kernel: kernel).values == grid.values)
    }

    /// A band is cut into a piece per 32nd of the points, of 2²¹ nodes'
    /// work at least (16 384 points of 128 nodes, 742 of a 30-cell disc's
    /// 2 827), as far as copies of its rows fit the spare rows.
    @Test func theBandsPiecesFollowTheirShareTheirWorkAndTheSpareRows() {
        typealias Splat = BandSplat<BandEntry, QuarticPower>
        #expect(Splat.pieces(of: 10_000, total: 10_000, nodes: 128, rows: 20, spareRows: 1000) == 1)
        #expect(Splat.pieces(of: 40_000, total: 40_000, nodes: 128, rows: 20, spareRows: 1000) == 3)
        #expect(Splat.pieces(of: 2_000, total: 2_000, nodes: 2_827, rows: 60, spareRows: 1000) == 3)
        #expect(Splat.pieces(of: 500_000, total: 1_000_000, nodes: 128, rows: 20, spareRows: 1000) == 16)
        #expect(Splat.pieces(of: 500_000, total: 1_000_000, nodes: 128, rows: 20, spareRows: 100) == 6)
        #expect(Splat.pieces(of: 500_000, total: 1_000_000, nodes: 128, rows: 20, spareRows: 0) == 1)
        #expect(Splat.pieces(of: 0, total: 0, nodes: 0, rows: 0, spareRows: 0) == 1)
    }

    /// The sort into row bands finds the largest weight of the points it
    /// keeps (each with its radius's normalisation) in its first pass, and
    /// each entry holds the roots of its weight scaled by the power of two
    /// that brings that largest to [1, 2); points whose discs miss the grid
    /// make no entry and do not count; a sorter that names no magnitude
    /// gives 0.
    @Test func theSortFindsTheLargestWeightAndScalesTheEntriesByIt() throws {
        let xAxis = GaussianAxis(origin: 0, step: 1, count: 40, sigma: 2, reach: 6)
        let yAxis = GaussianAxis(origin: 0, step: 1, count: 30, sigma: 2, reach: 6)
        var rng = SplitMixGenerator(seed: 11)
        let n = 5000
        var x = (0..<n).map { _ in Double.random(in: 0...39, using: &rng) }
        let y = (0..<n).map { _ in Double.random(in: 0...29, using: &rng) }
        var weight = (0..<n).map { _ in Double.random(in: 0...3, using: &rng) }
        let radii = (0..<n).map { _ in Double.random(in: 1...6, using: &rng) }
        // The heaviest point lies far off the grid: no entry of its own.
        x[17] = 500
        weight[17] = 100
        let density = UnsafeMutablePointer<Double>.allocate(capacity: 40 * 30)
        defer { density.deallocate() }
        try radii.withUnsafeBufferPointer { radii in
            let splat = BandSplat<SizedBandEntry, QuarticPower>(
                xAxis: xAxis, yAxis: yAxis, maximumRadius: 6, normalisingRadius: 3, radii: radii.baseAddress,
                density: density)
            let bands = try RowBands<SizedBandEntry>(
                x: x, y: y, weight: weight, value: nil, count: n, rows: 30, columns: 40, sorter: splat,
                control: .none)
            var expected = 0.0
            var roots: Set<Float> = [0]
            for i in 0..<n where i != 17 {
                let normalisation: Double = (3 / radii[i]) * (3 / radii[i])
                expected = max(expected, weight[i] * normalisation)
            }
            let scale = Double(sign: .plus, exponent: -expected.exponent, significand: 1)
            #expect(expected * scale >= 1 && expected * scale < 2)
            for i in 0..<n where i != 17 && weight[i] > 0 {
                let w = weight[i] * ((3 / radii[i]) * (3 / radii[i])) * scale
                roots.insert(Float(w.squareRoot().squareRoot()))
            }
            #expect(bands.entries.count == n - 1)
            #expect(bands.largestMagnitude == expected)
            // Each entry keeps w^¼ of its scaled weight only (the splat squares it).
            #expect(bands.entries.allSatisfy { roots.contains($0.root) })
            let largestRoot = bands.entries.map(\.root).max() ?? 0
            #expect(largestRoot == Float((expected * scale).squareRoot().squareRoot()))
            #expect(Set(bands.entries.map(\.radius)).isSubset(of: Set(radii)))

            let plain = DiscSplat<QuarticShape, SizedDiscEntry>(
                shape: QuarticShape(), xAxis: xAxis, yAxis: yAxis, maximumRadius: 6, normalisingRadius: 3,
                radii: radii.baseAddress, radius: 3, density: density, weightedValue: nil)
            let unsized = try RowBands<SizedDiscEntry>(
                x: x, y: y, weight: weight, value: nil, count: n, rows: 30, columns: 40, sorter: plain,
                control: .none)
            #expect(unsized.largestMagnitude == 0)
            #expect(unsized.entries.count == n - 1)
        }
    }

    @Test(arguments: kernels)
    func weightsFarApartAndTinyOnesKeepTheirSums(kernel: DensityKernel) throws {
        let r = 6.0
        var p = KernelTests.points(200, seed: 8)
        p = PlanePoints(x: p.x.map { $0 * 4 }, y: p.y.map { $0 * 4 }, weight: p.weight)
        // A weight 1e200 times the others: they vanish below the grid's
        // maximum, as in double precision.
        var heavy = p
        heavy.append(x: 10, y: 30, weight: 1e200)
        let radii = [Double](repeating: r, count: heavy.count)
        #expect(
            KernelTests.error(
                try Self.grid(heavy, radius: r, kernel: kernel), heavy, radii: radii, kernel: kernel, raw: false)
                < 1e-6)
        // All weights tiny: scaled up before the float splat, not lost.
        let tiny = PlanePoints(x: p.x, y: p.y, weight: p.weight.map { $0 * 1e-300 })
        let grid = try Self.grid(tiny, radius: r, kernel: kernel)
        let error = KernelTests.error(
            grid, tiny, radii: [Double](repeating: r, count: p.count), kernel: kernel, raw: false)
        #expect(error < 1e-6, "\(error)")
        #expect(grid.values.contains { $0 > 0 })
    }

    @Test(arguments: kernels, [0.7, 1.5, 6.0, 7.3, 9.4, 11.3, 13.2, 16.6])
    func aLonePointIsItsKernelAtEveryNodeWhereverItFalls(kernel: DensityKernel, radius: Double) throws {
        // One group of sixteen lanes (r ≤ 6.5 cells) or several: wider
        // spans take four steps of four at a time and then the one, two or
        // three left (9.4, 16.6; 11.3; 13.2 cells); the point
        // at each of the four column offsets from a multiple of four, off
        // node and on one, and past each edge of the grid so that its
        // disc is clipped (its lanes run into the rows' padding).
        let xs = [20.0, 21.0, 22.37, 23.61, 0.9, -0.3 - radius / 2, 47.2, 49 + radius / 2]
        let ys = [20.0, 22.45, 0.6, 44.9, -0.2 - radius / 2, 45.5 + radius / 2]
        for x in xs {
            for y in ys {
                var p = PlanePoints()
                p.append(x: x, y: y, weight: 1.7)
                let grid = try Self.grid(p, radius: radius, kernel: kernel)
                let g = grid.geometry
                // Relative to the kernel's peak (w × its normalisation over
                // π r²), since a clipped disc's largest node may be far below it.
                let peak = KernelTests.exact(p, radii: [radius], kernel: kernel, raw: false, x: x, y: y)
                var worst = 0.0, outside = 0.0
                for r in 0..<g.rows {
                    for c in 0..<g.columns {
                        let node = g.node(column: c, row: r)
                        let e = KernelTests.exact(
                            p, radii: [radius], kernel: kernel, raw: false, x: node.x, y: node.y)
                        let v = grid.values[r * g.columns + c]
                        worst = max(worst, abs(v - e))
                        if e == 0 { outside = max(outside, abs(v)) }
                    }
                }
                #expect(worst / peak < 2e-6, "\(kernel) r \(radius) at (\(x), \(y)): \(worst / peak)")
                #expect(outside == 0, "\(kernel) r \(radius) at (\(x), \(y)): \(outside) outside the disc")
            }
        }
    }

    @Test(arguments: kernels)
    func massIsKeptByTheFloatSums(kernel: DensityKernel) throws {
        // 5000 points well inside the grid: the grid's sum × cell area is
        // the weights' sum to the kernel's discretisation (a few 1e−4 at 6
        // cells), and the float sums add nothing to that.
        var rng = SplitMixGenerator(seed: 12)
        var p = PlanePoints()
        for _ in 0..<5000 {
            p.append(
                x: Double.random(in: 12...36, using: &rng), y: Double.random(in: 12...33, using: &rng),
                weight: Double.random(in: 0.1...3, using: &rng))
        }
        let grid = try Self.grid(p, radius: 6, kernel: kernel)
        let mass = grid.values.reduce(0, +), weights = p.weight.reduce(0, +)
        #expect(abs(mass / weights - 1) < 2e-3, "\(kernel): \(mass) against \(weights)")
        var exact = 0.0
        for r in 0..<grid.geometry.rows {
            for c in 0..<grid.geometry.columns {
                let node = grid.geometry.node(column: c, row: r)
                exact += KernelTests.exact(
                    p, radii: [Double](repeating: 6, count: p.count), kernel: kernel, raw: false, x: node.x,
                    y: node.y)
            }
        }
        #expect(abs(mass / exact - 1) < 2e-6, "\(kernel): \(mass) against the exact sums' \(exact)")
    }

    @Test(arguments: kernels)
    func pointsOfTheirOwnRadiiStayWithinTheFloatBound(kernel: DensityKernel) throws {
        // Radii from under a cell to 14 cells (spans of one to eight lane
        // groups), many on the same nodes, weights 1e4 apart.
        var rng = SplitMixGenerator(seed: 21)
        var p = PlanePoints()
        var radii: [Double] = []
        for i in 0..<3000 {
            let near = i % 2 == 0
            p.append(
                x: near ? 24 + Double.random(in: -2...2, using: &rng) : Double.random(in: -3...51, using: &rng),
                y: near ? 22 + Double.random(in: -2...2, using: &rng) : Double.random(in: -3...48, using: &rng),
                weight: exp(Double.random(in: -4.6...4.6, using: &rng)))
            radii.append(Double.random(in: 0.6...14, using: &rng))
        }
        let geometry = GridGeometry(columns: 48, rows: 45, x0: 0.5, y0: 0.5, dx: 1, dy: 1)
        for raw in [false, true] {
            var accumulator = try DensityAccumulator(
                geometry: geometry, radius: 5, projection: KernelTests.planar, method: .exact, kernel: kernel,
                kernelValues: raw ? .raw : .density, maximumRadius: radii.max()!)
            var points = p
            points.radius = radii
            try accumulator.add(points)
            let error = KernelTests.error(try accumulator.finish(), p, radii: radii, kernel: kernel, raw: raw)
            #expect(error < 7e-5, "\(kernel) raw \(raw): \(error)")
        }
    }
}
