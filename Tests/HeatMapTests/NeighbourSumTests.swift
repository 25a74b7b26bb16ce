import Foundation
import Testing

@testable import HeatMapCore
@testable import HeatMapDensity

/// The adaptive pilot's exact sums (``NeighbourSums``) against the sum over
/// every pair written from the kernel's definition, and the budgeted pilot
/// (exact for the sparse buckets, read from a grid for the dense ones).
@Suite struct NeighbourSumTests {
    /// Σⱼ wⱼ shape(|pᵢ − pⱼ|² / R²) over all j, in double.
    static func bruteForce(_ p: PlanePoints, kernel: DensityKernel, radius: Double) -> [Double] {
        (0..<p.count).map { i in
            var sum = 0.0
            for j in 0..<p.count {
                let dx = p.x[j] - p.x[i], dy = p.y[j] - p.y[i]
                let d2 = (dx * dx + dy * dy) / (radius * radius)
                let shape = kernel.shape(squaredDistanceRatio: d2)
                // The Gaussian's sums stop at 5σ.
                if kernel != .gaussian || d2 <= 25.0 / 9 { sum += p.weight[j] * shape }
            }
            return sum
        }
    }

    static func sums(
        _ p: PlanePoints, kernel: DensityKernel, radius: Double, control: ComputeControl = .none
    ) throws -> [Double] {
        let sums = NeighbourSums(points: p, kernel: kernel, radius: radius)
        var out = [Double](repeating: .nan, count: p.count)
        try out.withUnsafeMutableBufferPointer { out in
            try sums.sums(of: Array(0..<sums.bucketCount), into: out.baseAddress!, control: control)
        }
        return out
    }

    @Test(arguments: DensityKernel.all + [.triangular(decay: 0.4)])
    func theSumsEqualEveryPairsSum(kernel: DensityKernel) throws {
        // A dense cluster, a scatter, and a far point that widens the box.
        var p = KernelTests.points(700, seed: 41)
        p.append(x: 1e4, y: -3e3, weight: 1)
        let radius = 0.9
        let exact = Self.bruteForce(p, kernel: kernel, radius: radius)
        let sums = try Self.sums(p, kernel: kernel, radius: radius)
        // Float coordinates and runs: within 1e-5 of each point's sum (the
        // point's own term is at least its weight, so the sum is > 0).
        for i in 0..<p.count {
            #expect(abs(sums[i] - exact[i]) <= 1e-5 * exact[i], "point \(i): \(sums[i]) vs \(exact[i])")
        }
    }

    @Test func hugeAndTinyWeightsNeitherOverflowNorVanish() throws {
        // Floats hold at most about 3e38: the weights are scaled per bucket.
        for scale in [1e300, 1e-300] {
            var p = KernelTests.points(200, seed: 43)
            p.weight = p.weight.map { $0 * scale }
            let exact = Self.bruteForce(p, kernel: .quartic, radius: 1.1)
            let sums = try Self.sums(p, kernel: .quartic, radius: 1.1)
            for i in 0..<p.count { #expect(abs(sums[i] - exact[i]) <= 1e-5 * exact[i]) }
        }
    }

    @Test func aBudgetKeepsTheSparseBucketsExactAndReadsTheDenseOnes() throws {
        // 300 points on 0.5 × 0.5 and 60 over 100 × 100: with a budget below
        // the cluster's pairs, the scatter stays exact and the cluster is read.
        var rng = SplitMixGenerator(seed: 47)
        var p = PlanePoints()
        for _ in 0..<300 {
            p.append(
                x: 50 + Double.random(in: 0...0.5, using: &rng), y: 50 + Double.random(in: 0...0.5, using: &rng),
                weight: 1)
        }
        for _ in 0..<60 {
            p.append(x: Double.random(in: 0...100, using: &rng), y: Double.random(in: 0...100, using: &rng), weight: 1)
        }
        let radius = 2.0
        let exact = Self.bruteForce(p, kernel: .quartic, radius: radius)
        let budgeted = try AdaptivePilot.density(of: p, kernel: .quartic, radius: radius, budget: 5000, control: .none)
        var read = 0
        for i in 0..<p.count {
            if i >= 300, abs(p.x[i] - 50) > 3 || abs(p.y[i] - 50) > 3 {
                // A lone point far from the cluster: its own bucket, exact.
                #expect(abs(budgeted[i] - exact[i]) <= 1e-5 * exact[i], "point \(i)")
            } else {
                #expect(abs(budgeted[i] - exact[i]) <= 1e-3 * exact[i], "point \(i)")
                if budgeted[i] != exact[i] { read += 1 }
            }
        }
        // The cluster's 300 × 300 pairs are over budget: it was read from the grid.
        #expect(read > 0)
        let whole = try AdaptivePilot.density(of: p, kernel: .quartic, radius: radius, control: .none)
        for i in 0..<p.count { #expect(abs(whole[i] - exact[i]) <= 1e-5 * exact[i]) }
    }

    /// A triangular pilot over a cluster of duplicates past the budget:
    /// the duplicates are summed once per position, so the pilot is the
    /// exact sum (a grid reading blurs the cone's corner, which every
    /// duplicate has at the reading's own point, by a few per cent, and an
    /// adaptive radius with it). A quartic's is read as before. The
    /// cluster is dense enough (2 500 at one place) that its points are
    /// read unless merged: sparser ones are summed exactly anyway
    /// (``AdaptivePilot/fewestNeighboursRead(_:)``).
    @Test(arguments: [DensityKernel.triangular(decay: 0.4), .triangular(decay: 0)])
    func duplicatesOfACornerKernelAreSummedOnce(kernel: DensityKernel) throws {
        var rng = SplitMixGenerator(seed: 53)
        var p = PlanePoints()
        for _ in 0..<2500 { p.append(x: 40, y: 60, weight: 1) }
        for _ in 0..<300 {
            p.append(x: Double.random(in: 0...100, using: &rng), y: Double.random(in: 0...100, using: &rng), weight: 2)
        }
        let radius = 8.0
        let exact = Self.bruteForce(p, kernel: kernel, radius: radius)
        // A budget under the cluster's 2 500 × 2 500 pairs, over the merged ones.
        let budget = 20_000
        #expect(budget * AdaptivePilot.budgetFactor(kernel) < 2500 * 2500)
        let pilot = try AdaptivePilot.density(of: p, kernel: kernel, radius: radius, budget: budget, control: .none)
        for i in 0..<p.count { #expect(abs(pilot[i] - exact[i]) <= 1e-12 * exact[i], "point \(i)") }
        let unmerged = try AdaptivePilot.density(
            of: p, kernel: kernel, radius: radius, budget: budget, control: .none, merging: false)
        #expect((0..<2500).contains { abs(unmerged[$0] - exact[$0]) > 1e-4 * exact[$0] })
    }

    /// Points with few neighbours each are summed exactly however small
    /// the budget (a grid's reading would err by a good part of a
    /// neighbour's share at the support's edge), and denser ones read.
    @Test(arguments: [DensityKernel.quartic, .epanechnikov, .gaussian])
    func sparsePointsAreSummedWhateverTheBudget(kernel: DensityKernel) throws {
        var rng = SplitMixGenerator(seed: 59)
        var p = PlanePoints()
        // About 7.5 neighbours within 4 of each point over the square.
        for _ in 0..<1500 {
            p.append(x: Double.random(in: 0...100, using: &rng), y: Double.random(in: 0...100, using: &rng), weight: 1)
        }
        let exact = Self.bruteForce(p, kernel: kernel, radius: 4)
        let pilot = try AdaptivePilot.density(of: p, kernel: kernel, radius: 4, budget: 0, control: .none)
        for i in 0..<p.count { #expect(abs(pilot[i] - exact[i]) <= 1e-6 * exact[i], "point \(i)") }
        // The same points, each 64 times over: read where they have the
        // neighbours the kernel's reading asks (the quartic's and
        // Gaussian's 64, not the Epanechnikov's 1024).
        var dense = PlanePoints()
        for i in 0..<p.count { for _ in 0..<64 { dense.append(x: p.x[i], y: p.y[i], weight: 1) } }
        let read = try AdaptivePilot.density(of: dense, kernel: kernel, radius: 4, budget: 0, control: .none)
        let reads = (0..<p.count).contains { abs(read[64 * $0] - 64 * exact[$0]) > 1e-6 * 64 * exact[$0] }
        let reach = NeighbourSums.reach(kernel: kernel, radius: 4)
        let neighbours = 64 * Double(p.count) / (100 * 100) * Double.pi * reach * reach
        #expect(reads == (AdaptivePilot.fewestNeighboursRead(kernel) < neighbours))
    }

    @Test func theSumsStopWhenCancelled() throws {
        let p = KernelTests.points(2000, seed: 53)
        let flag = CancellationFlag()
        flag.cancel()
        let control = ComputeControl(cancellation: flag)
        #expect(throws: CancellationError.self) {
            _ = try Self.sums(p, kernel: .quartic, radius: 1, control: control)
        }
        #expect(throws: CancellationError.self) {
            _ = try AdaptivePilot.density(of: p, kernel: .quartic, radius: 1, control: control)
        }
    }
}
