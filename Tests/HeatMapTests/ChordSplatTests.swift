import Foundation
import Testing

@testable import HeatMapCore
@testable import HeatMapDensity

/// The uniform disc splatted by its chords (``ChordSplat``) against the
/// node-by-node splat (``DiscSplat``) it replaces: the same nodes, the
/// edge included, and the same sums to rounding, with exact zeros
/// outside every disc.
@Suite struct ChordSplatTests {
    static let xAxis = GaussianAxis(origin: 0.5, step: 1, count: 53, sigma: 1, reach: 1)
    static let yAxis = GaussianAxis(origin: -0.25, step: 0.75, count: 47, sigma: 1, reach: 1)

    /// The fill's splat of `p` and the node-by-node one (each point its
    /// radius in `radii`, or `radius` for all), normalised by `radius`
    /// unless raw.
    static func grids(
        _ p: PlanePoints, radius: Double, radii: [Double]?, raw: Bool = false, kernel: DensityKernel = .uniform
    ) throws -> (fill: [Double], nodes: [Double]) {
        let largest = radii?.max() ?? radius
        func splat(throughFill: Bool) throws -> [Double] {
            var out = [Double](repeating: 0, count: xAxis.count * yAxis.count)
            try out.withUnsafeMutableBufferPointer { out in
                try (radii ?? [0]).withUnsafeBufferPointer { r in
                    let fill = DiscFill(
                        kernel: kernel, xAxis: xAxis, yAxis: yAxis, radius: radius, maximumRadius: largest,
                        raw: raw, density: out.baseAddress!, weightedValue: nil,
                        radii: radii == nil ? nil : r.baseAddress)
                    if throughFill {
                        try fill.deposit(
                            x: p.x, y: p.y, weight: p.weight, value: nil, count: p.count, control: .none,
                            progress: { _ in })
                    } else {
                        try nodeByNode(fill, p)
                    }
                }
            }
            return out
        }
        return (try splat(throughFill: true), try splat(throughFill: false))
    }

    /// The node-by-node splat of the fill's kernel (the uniform disc or a
    /// triangular cone), as the fill made it before.
    static func nodeByNode(_ fill: DiscFill, _ p: PlanePoints) throws {
        func run<Shape: RadialShape, Entry: DiscPoint>(_ shape: Shape, _: Entry.Type) throws {
            let splat = DiscSplat<Shape, Entry>(
                shape: shape, xAxis: fill.xAxis, yAxis: fill.yAxis, maximumRadius: fill.maximumRadius,
                normalisingRadius: fill.raw ? nil : fill.radius, radii: fill.radii, radius: fill.radius,
                density: fill.density, weightedValue: nil)
            try RowBands<Entry>.deposit(
                splat, x: p.x, y: p.y, weight: p.weight, value: nil, count: p.count, rows: fill.yAxis.count,
                columns: fill.xAxis.count, control: .none, progress: nil)
        }
        func run<Shape: RadialShape>(_ shape: Shape) throws {
            if fill.radii == nil { try run(shape, DiscEntry.self) } else { try run(shape, SizedDiscEntry.self) }
        }
        if case .triangular(let decay) = fill.kernel {
            try run(TriangularShape(fall: 1 - decay))
        } else {
            try run(UniformShape())
        }
    }

    /// Points on nodes and between them, some beyond the grid's edges,
    /// weights from 0 to 10⁶.
    static func points(_ n: Int, seed: UInt64) -> PlanePoints {
        var rng = SplitMixGenerator(seed: seed)
        var p = PlanePoints()
        for k in 0..<n {
            // Every third point on a node: its disc's edge passes through nodes.
            let onNode = k % 3 == 0
            let x =
                onNode ? 0.5 + Double(Int.random(in: -3...56, using: &rng)) : Double.random(in: -4...57, using: &rng)
            let y =
                onNode
                ? -0.25 + 0.75 * Double(Int.random(in: -3...50, using: &rng)) : Double.random(in: -4...38, using: &rng)
            let w = k % 17 == 0 ? 0 : k % 29 == 0 ? 1e6 : Double.random(in: 0.1...3, using: &rng)
            p.append(x: x, y: y, weight: w)
        }
        return p
    }

    static func expectSame(
        _ grids: (fill: [Double], nodes: [Double]), _ label: String, tolerance: Double = 1e-12, zeros: Bool = true
    ) {
        let peak = grids.nodes.map(abs).max() ?? 0
        #expect(peak > 0, "\(label): nothing splatted")
        var worst = 0.0, zerosDiffer = 0
        for (a, b) in zip(grids.fill, grids.nodes) {
            worst = max(worst, abs(a - b))
            if (a == 0) != (b == 0) { zerosDiffer += 1 }
        }
        if zeros { #expect(zerosDiffer == 0, "\(label): \(zerosDiffer) nodes zero in one splat only") }
        #expect(worst <= tolerance * peak, "\(label): \(worst / peak) of the peak")
    }

    @Test(arguments: [0.75, 1.5, 3.0, 7.25, 20.0])
    func oneRadiusCoversTheSameNodesAsTheNodeByNodeSplat(radius: Double) throws {
        let p = Self.points(3000, seed: 7)
        Self.expectSame(try Self.grids(p, radius: radius, radii: nil), "radius \(radius)")
        Self.expectSame(try Self.grids(p, radius: radius, radii: nil, raw: true), "raw, radius \(radius)")
    }

    @Test func radiiOfTheirOwnCoverTheSameNodesAsTheNodeByNodeSplat() throws {
        let p = Self.points(4000, seed: 8)
        var rng = SplitMixGenerator(seed: 9)
        // Whole and half steps (edges through nodes) and radii between.
        let radii = (0..<p.count).map { k in
            k % 2 == 0 ? Double(Int.random(in: 1...12, using: &rng)) * 0.75 : Double.random(in: 0.3...15, using: &rng)
        }
        Self.expectSame(try Self.grids(p, radius: 4, radii: radii), "own radii")
    }

    /// The triangular kernel, splatted as its cone where δ = 0 (a shape
    /// that fades at the edge) and as the uniform disc's runs where δ = 1,
    /// is the node-by-node sum of 1 − (1 − δ) u: within the cone's rounding
    /// near its centre, and with a step's nodes the same (where δ > 0, no
    /// node is zero in one and not the other).
    @Test(arguments: [0.0, 0.3, 1.0])
    func theTriangularKernelIsItsConePlusItsStep(decay: Double) throws {
        let p = Self.points(3000, seed: 12)
        var rng = SplitMixGenerator(seed: 13)
        let radii = (0..<p.count).map { _ in Double.random(in: 0.5...9, using: &rng) }
        for (label, radii) in [("one radius", nil), ("own radii", radii)] {
            Self.expectSame(
                try Self.grids(p, radius: 3.75, radii: radii, kernel: .triangular(decay: decay)),
                "triangular \(decay), \(label)", tolerance: 1e-7, zeros: decay > 0)
        }
    }

    /// Discs thousands of nodes wide, their centres far outside the grid
    /// and their edges across it: the ends of their chords are walked to
    /// where the test changes, and land on the same nodes.
    @Test func discsThousandsOfNodesWideCoverTheSameNodes() throws {
        var rng = SplitMixGenerator(seed: 10)
        var p = PlanePoints()
        var radii: [Double] = []
        for k in 0..<300 {
            let angle = Double.random(in: 0..<(2 * .pi), using: &rng)
            let distance = Double.random(in: 1000...3000, using: &rng)
            p.append(x: 26 + distance * cos(angle), y: 17 + distance * sin(angle), weight: 1 + Double(k % 5))
            radii.append(distance + Double.random(in: -15...40, using: &rng))
        }
        Self.expectSame(try Self.grids(p, radius: 1000, radii: radii), "wide discs")
    }

    /// A point on a node with a radius of two steps covers the 13 nodes
    /// within two steps, the four at exactly two included; a row's run
    /// closes past the last column without writing outside the grid.
    @Test func aDiscCoversTheNodesWithinItsRadiusTheEdgeIncluded() throws {
        let axis = GaussianAxis(origin: 0, step: 1, count: 5, sigma: 1, reach: 1)
        var grid = [Double](repeating: 0, count: 25)
        var p = PlanePoints()
        p.append(x: 2, y: 2, weight: 3)
        p.append(x: 4, y: 0, weight: 1)
        try grid.withUnsafeMutableBufferPointer { out in
            let fill = DiscFill(
                kernel: .uniform, xAxis: axis, yAxis: axis, radius: 2, maximumRadius: 2, raw: true,
                density: out.baseAddress!, weightedValue: nil)
            try fill.deposit(
                x: p.x, y: p.y, weight: p.weight, value: nil, count: 2, control: .none, progress: { _ in })
        }
        for r in 0..<5 {
            for c in 0..<5 {
                let centre = (c - 2) * (c - 2) + (r - 2) * (r - 2) <= 4 ? 3.0 : 0
                let corner = (c - 4) * (c - 4) + r * r <= 4 ? 1.0 : 0
                #expect(grid[r * 5 + c] == centre + corner, "node (\(c), \(r))")
            }
        }
    }
}
