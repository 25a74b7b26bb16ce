import Foundation
import Testing

@testable import HeatMapCore
@testable import HeatMapDensity

/// The tile order of the adaptive bandwidth's points (``TileOrder``): a
/// stable counting sort by square tiles, row by row.
@Suite struct TileOrderTests {
    /// Clustered points with duplicates, points on the box's edges and
    /// corners, and values and radii of their own.
    static func points(_ n: Int, seed: UInt64) -> PlanePoints {
        var rng = SplitMixGenerator(seed: seed)
        var p = PlanePoints(value: [])
        var radii: [Double] = []
        for i in 0..<n {
            let (x, y): (Double, Double)
            switch i % 5 {
            case 0: (x, y) = (Double.random(in: 0...100, using: &rng), Double.random(in: 0...60, using: &rng))
            case 1: (x, y) = (40 + Double.random(in: 0...2, using: &rng), 30 + Double.random(in: 0...2, using: &rng))
            case 2: (x, y) = (Double(i % 3) * 50, Double(i % 4) * 20)
            case 3: (x, y) = (p.x.last!, p.y.last!)
            default: (x, y) = (100, 60)
            }
            p.append(x: x, y: y, weight: Double(i % 7), value: Double(i))
            radii.append(1 + Double(i % 11))
        }
        p.radius = radii
        return p
    }

    static let box = PlaneBox(minX: 0, minY: 0, maxX: 100, maxY: 60)

    /// Every point once, tiles row by row, each tile's points in input
    /// order; the arrays move together, and restored values are the input's.
    @Test(arguments: [0, 1, 7, 5000, 150_000])
    func pointsComeOnceByTileInInputOrderWithinOne(count: Int) throws {
        let p = Self.points(count, seed: 3)
        let tile = 7.5
        let order = try TileOrder(of: p, box: Self.box, tile: tile, control: .none)
        let sorted = try order.apply(to: p, control: .none)
        // The sorted place of every point, and the point at every place.
        let place = try order.restore(sorted.weight.indices.map(Double.init), control: .none).map { Int($0) }
        var index = [Int](repeating: -1, count: count)
        for (i, k) in place.enumerated() { index[k] = i }
        #expect(sorted.count == count && place.count == count)
        #expect(Set(place).count == count && !index.contains(-1))
        let columns = Int(Self.box.width / tile) + 1
        func key(_ i: Int) -> Int {
            let c = min(Int(p.x[i] / tile), columns - 1), r = min(Int(p.y[i] / tile), Int(Self.box.height / tile))
            return r * columns + c
        }
        for k in 0..<count {
            let i = index[k]
            #expect(sorted.x[k] == p.x[i] && sorted.y[k] == p.y[i] && sorted.weight[k] == p.weight[i])
            #expect(sorted.value![k] == p.value![i] && sorted.radius![k] == p.radius![i])
            if k > 0 {
                let (a, b) = (key(index[k - 1]), key(i))
                #expect(a < b || (a == b && index[k - 1] < i))
            }
        }
        let back = try order.restore(sorted.value!, control: .none)
        #expect(back == p.value!)
    }

    /// A box far wider than its tiles takes wider tiles (at most
    /// ``TileOrder/tileLimit``), and points outside the box take its edge's.
    @Test func wideBoxesTakeWiderTilesAndStrayPointsTheEdgesTiles() throws {
        var p = PlanePoints()
        for (x, y) in [(-5.0, 3.0), (1e9, 2e9), (5e8, 1e9), (1e9 + 1, -1), (3, 3)] { p.append(x: x, y: y, weight: 1) }
        let box = PlaneBox(minX: 0, minY: 0, maxX: 1e9, maxY: 2e9)
        let order = try TileOrder(of: p, box: box, tile: 1e-3, control: .none)
        let place = try order.restore((0..<p.count).map(Double.init), control: .none).map { Int($0) }
        var index = [Int](repeating: -1, count: p.count)
        for (i, k) in place.enumerated() { index[k] = i }
        #expect(index.sorted() == Array(0..<p.count))
        // (−5, 3), (3, 3) and (1e9 + 1, −1) share the first row of tiles,
        // the two at the left edge one tile, before the far ones.
        #expect(Array(index.prefix(3)) == [0, 4, 3])
    }

    /// The adaptive radii handed to other consumers come back in the
    /// points' own order though the pilot runs in tiles: each point's is
    /// the one the pilot gives it over the points as they are (to the
    /// rounding of sums taken in another order).
    @Test func adaptiveRadiiComeBackInThePointsOwnOrder() throws {
        let p = KernelTests.points(3000, seed: 12)
        var c = KernelTests.configuration(.quartic, radius: 0.8)
        c.bandwidth = .adaptive()
        let radii = try #require(
            try AdaptiveRadii.radii(of: p, projection: KernelTests.planar, configuration: c, control: .none))
        let direct = try AdaptivePilot.radii(
            of: p, kernel: .quartic, radius: 0.8, rule: AdaptiveBandwidth(), budgeted: true, control: .none
        ).radii
        #expect(radii.count == p.count)
        for i in 0..<p.count { #expect(abs(radii[i] - direct[i]) <= 1e-6 * direct[i], "point \(i)") }
        #expect(Set(radii.map { ($0 * 1e6).rounded() }).count > 100)
    }
}
