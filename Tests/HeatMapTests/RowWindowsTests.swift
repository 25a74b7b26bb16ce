import Foundation
import Testing

@testable import HeatMapCore
@testable import HeatMapDensity

/// Points held together in tiles deposited with no sort (``RowWindows``):
/// taken only where the chunks' windows are short, and the grid they make
/// is the sorted points' grid to the splat's rounding.
@Suite struct RowWindowsTests {
    static let geometry = GridGeometry(columns: 120, rows: 300, x0: 0.5, y0: 0.5, dx: 1, dy: 1)
    static let box = PlaneBox(minX: 0, minY: 0, maxX: 121, maxY: 301)

    /// Two dense clusters on a sparse scatter, some points past the grid's
    /// edges (their discs reach it or miss it), a few of weight 0, each
    /// point a radius of its own; in input order.
    static func points(_ n: Int, seed: UInt64) -> PlanePoints {
        var rng = SplitMixGenerator(seed: seed)
        var p = PlanePoints()
        var radii: [Double] = []
        for i in 0..<n {
            let (x, y): (Double, Double)
            switch i % 4 {
            case 0: (x, y) = (Double.random(in: -8...130, using: &rng), Double.random(in: -8...310, using: &rng))
            case 1: (x, y) = (30 + Double.random(in: -3...3, using: &rng), 80 + Double.random(in: -3...3, using: &rng))
            case 2: (x, y) = (90 + Double.random(in: -6...6, using: &rng), 230 + Double.random(in: -2...2, using: &rng))
            default: (x, y) = (Double.random(in: 0...121, using: &rng), 150 + Double.random(in: -1...1, using: &rng))
            }
            p.append(x: x, y: y, weight: i % 97 == 0 ? 0 : exp(Double.random(in: -3...3, using: &rng)))
            radii.append(Double.random(in: 1.5...9, using: &rng))
        }
        p.radius = radii
        return p
    }

    static func tiled(_ p: PlanePoints) throws -> PlanePoints {
        try TileOrder(of: p, box: box, tile: 10, control: .none).apply(to: p, control: .none)
    }

    static func grid(
        _ p: PlanePoints, kernel: DensityKernel, radius: Double, method: DensityMethod, radii: Bool
    ) throws -> [Double] {
        var points = p
        if !radii { points.radius = nil }
        var accumulator = try DensityAccumulator(
            geometry: geometry, radius: radius, projection: KernelTests.planar, method: method, kernel: kernel,
            maximumRadius: radii ? p.radius!.max()! : nil)
        try accumulator.add(points)
        return try accumulator.finish().values
    }

    /// Tiled points get windows, of the finer chunks where they fit; the
    /// same points in input order (every chunk across the grid) and too
    /// few points (fewer chunks than ``RowWindows/leastChunks``) go to the
    /// sort.
    @Test func tiledPointsTakeWindowsAndScatteredOnesTheSort() throws {
        let xAxis = GaussianAxis(origin: 0.5, step: 1, count: 120, sigma: 2, reach: 6)
        let yAxis = GaussianAxis(origin: 0.5, step: 1, count: 300, sigma: 2, reach: 6)
        let density = UnsafeMutablePointer<Double>.allocate(capacity: 120 * 300)
        defer { density.deallocate() }
        let splat = BandSplat<BandEntry, QuarticPower>(
            xAxis: xAxis, yAxis: yAxis, maximumRadius: 4, normalisingRadius: 4, radii: nil, density: density)
        func windows(_ p: PlanePoints) throws -> RowWindows? {
            try RowWindows(
                x: p.x, y: p.y, weight: p.weight, count: p.count, rows: 300, rowWidth: 120, sorter: splat,
                control: .none)
        }
        let p = Self.points(80_000, seed: 5)
        let found = try #require(try windows(try Self.tiled(p)))
        // 80 000 points: chunks of the least size, 4 096 points (20 chunks).
        #expect(RowWindows.chunkSizes(count: 80_000) == [4096, 5000])
        #expect(found.chunkSize == 4096 && found.windows.count == 20)
        #expect(found.windows.reduce(0) { $0 + $1.count } <= RowWindows.rowsPerTargetRow * 300)
        // Every point's rows lie within its chunk's window.
        let tiled = try Self.tiled(p)
        for (k, window) in found.windows.enumerated() {
            for i in k * found.chunkSize..<min(tiled.count, (k + 1) * found.chunkSize) where tiled.weight[i] != 0 {
                guard let a = splat.anchor(x: tiled.x[i], y: tiled.y[i]) else { continue }
                #expect(window.contains(max(a.row - splat.reachRows, 0)))
                #expect(window.contains(min(a.row + splat.reachRows, 299)))
            }
        }
        #expect(
            found.largestMagnitude
                == (0..<tiled.count).filter {
                    tiled.weight[$0] != 0 && splat.anchor(x: tiled.x[$0], y: tiled.y[$0]) != nil
                }.map { tiled.weight[$0] }.max())
        #expect(try windows(p) == nil)
        #expect(try windows(try Self.tiled(Self.points(20_000, seed: 5))) == nil)
        // Discs 12 rows wide: 32 chunks' windows would hold more than three
        // times the grid's rows, 16 do not.
        let wide = BandSplat<BandEntry, QuarticPower>(
            xAxis: xAxis, yAxis: yAxis, maximumRadius: 12, normalisingRadius: 12, radii: nil, density: density)
        let many = try Self.tiled(Self.points(160_000, seed: 6))
        let coarse = try #require(
            try RowWindows(
                x: many.x, y: many.y, weight: many.weight, count: many.count, rows: 300, rowWidth: 120,
                sorter: wide, control: .none))
        #expect(RowWindows.chunkSizes(count: 160_000) == [5000, 10_000])
        #expect(coarse.chunkSize == 10_000 && coarse.windows.count == 16)
    }

    /// The splat of the powers of 1 − d²/r², one radius or each its own,
    /// and the quartic's Fourier convolution: the tiled points' grid (in
    /// windows) against the same points' in input order (sorted into
    /// bands), node by node, within the float splat's rounding (the
    /// convolution's points past its plane are splatted).
    @Test(arguments: [
        (DensityKernel.quartic, 4.0, DensityMethod.exact, false),
        (.quartic, 4.0, .exact, true),
        (.epanechnikov, 3.0, .exact, true),
        (.triweight, 6.0, .exact, false),
        (.quartic, 21.0, .binned, false)
    ])
    func windowsGiveTheSortedGrid(kernel: DensityKernel, radius: Double, method: DensityMethod, radii: Bool) throws {
        let p = Self.points(80_000, seed: 9)
        let sorted = try Self.grid(p, kernel: kernel, radius: radius, method: method, radii: radii)
        let windowed = try Self.grid(try Self.tiled(p), kernel: kernel, radius: radius, method: method, radii: radii)
        let largest = sorted.max()!
        let error = zip(sorted, windowed).map { abs($0 - $1) }.max()! / largest
        #expect(largest > 0)
        #expect(error < 2e-6, "\(kernel) \(method): \(error)")
    }
}
