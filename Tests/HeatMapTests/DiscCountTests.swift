import Foundation
import Testing

@testable import HeatMapCore
@testable import HeatMapDensity

/// The exact weight within a radius (``DiscCounts``) and the pilot of the
/// kernels with a step at their edge, against sums written from the
/// definition.
@Suite struct DiscCountTests {
    /// A cluster, a scatter and points on a lattice (so some lie exactly
    /// at the radius from a query).
    static func points(seed: UInt64) -> PlanePoints {
        var rng = SplitMixGenerator(seed: seed)
        var p = PlanePoints()
        for _ in 0..<1500 {
            p.append(
                x: 10 + Double.random(in: -1...1, using: &rng), y: 10 + Double.random(in: -1...1, using: &rng),
                weight: Double.random(in: 0.5...2, using: &rng))
        }
        for _ in 0..<1500 {
            p.append(
                x: Double.random(in: 0...20, using: &rng), y: Double.random(in: 0...20, using: &rng),
                weight: Double.random(in: 0.5...2, using: &rng))
        }
        for i in 0..<20 { for j in 0..<20 { p.append(x: Double(i), y: Double(j), weight: 1) } }
        return p
    }

    @Test(arguments: [0.3, 2.0, 7.5])
    func theCountsEqualEveryPointsWeightWithinTheRadius(radius: Double) throws {
        let p = Self.points(seed: 61)
        let counts = try DiscCounts(
            points: p, radius: radius, box: p.bounds, neighbours: Double(p.count) * radius * radius / 400,
            control: .none)
        // Queries on the points, on the lattice (the edge exactly at lattice
        // points for integer radii) and past the box.
        var qx = p.x, qy = p.y
        qx += [3, 5, -4, 25, 10]
        qy += [4, 5, 10, -3, 26]
        let found = try counts.sums(atX: qx, y: qy, control: .none)
        for k in qx.indices {
            var exact = 0.0
            for j in 0..<p.count {
                let dx = p.x[j] - qx[k], dy = p.y[j] - qy[k]
                if dx * dx + dy * dy <= radius * radius { exact += p.weight[j] }
            }
            #expect(abs(found[k] - exact) <= 1e-9 * max(exact, 1), "query \(k): \(found[k]) vs \(exact)")
        }
    }

    @Test(arguments: [1.0, 0.4])
    func aStepAtTheEdgeIsCountedExactlyWhereTheGridIsRead(decay: Double) throws {
        // A budget far below the pairs: most points are read from the grid,
        // which blurs a step by a good part of every neighbour near it. The
        // uniform disc (decay 1) is then exact; a cone with a step is the
        // cone of decay 0, read as before, plus the step counted exactly.
        let p = Self.points(seed: 67)
        let radius = 1.5
        let pilot = try AdaptivePilot.density(
            of: p, kernel: .triangular(decay: decay), radius: radius, budget: 20_000, control: .none)
        let cone = try AdaptivePilot.density(
            of: p, kernel: .triangular(decay: 0), radius: radius, budget: 20_000, control: .none)
        let counts = NeighbourSumTests.bruteForce(p, kernel: .uniform, radius: radius)
        for i in 0..<p.count {
            let expected = decay * counts[i] + (1 - decay) * cone[i]
            #expect(abs(pilot[i] - expected) <= 1e-9 * expected, "point \(i): \(pilot[i]) vs \(expected)")
        }
        #expect(
            try AdaptivePilot.density(of: p, kernel: .uniform, radius: radius, budget: 20_000, control: .none)
                .elementsEqual(
                    try AdaptivePilot.density(
                        of: p, kernel: .triangular(decay: 1), radius: radius, budget: 20_000, control: .none)))
    }
}
