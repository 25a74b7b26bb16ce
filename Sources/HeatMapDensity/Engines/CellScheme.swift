import Foundation
import HeatMapCore

/// What the per-node sums of a cells table (see ``CellTable``) hold, chosen
/// from σ in cells so that the grid finished from them is within the
/// accuracy bound of docs/density-model.md wherever the sums were taken (an engine, another
/// machine).
///
/// A finite kernel (every kernel but the Gaussian) takes one of two:
/// - `.disc`: each point adds w × shape((d / r)²) to every node of its
///   disc (d ≤ r), the exact sum the tool's own splat makes, one sum per
///   node and channel; about π (r/δ)² rows per point in the engine before
///   they are grouped.
/// - `.cubic`, for the density of a kernel wide enough in cells that the
///   tool's own binning and convolution keep it within the accuracy bound
///   (``DensityPlan/convolutionRadiusInCells(_:)``: the quartic from 19
///   cells, the triweight from 10), where the tool's planner would bin the
///   same points (enough of them to repay the transforms): each point's
///   cubic Lagrange weights at
///   the 4 × 4 nodes round its cell (``CubicBinning``), summed per cell,
///   16 sums per node and channel, sum b·4 + a for node (a − 1, b − 1)
///   from the cell's corner; one row per point whatever the radius, and
///   the tool convolves them as it does its own binned points.
///
/// For the Gaussian every point goes to its nearest node; u = (p − node) / δ
/// per axis (|u| ≤ ½), s = uδ/σ. Both of its kinds keep 49 sums per node
/// and channel:
/// - `.splat` (σ < 0.85 cells): the exact kernel factors at the nodes
///   around, Σ w e^(−((jₓ − uₓ)δₓ)²/2σ²) e^(−((j_y − u_y)δ_y)²/2σ²), sum
///   k = (j_y + 3)·7 + jₓ + 3, for |jₓ|, |j_y| up to the half-widths of
///   ``splatReach(geometry:radius:)`` (at most 3 there): the square the
///   points' own exact splat covers, so the grid has the same zeros.
/// - `.taylor(order:)`: the moments of ``MomentBinning``,
///   Σ w e^(−|s|²/2) sₓᵐ s_yⁿ, for m + n ≤ 8, ordered by n then m; the
///   order used (the first planes kept) falls with σ. Measured worst error
///   of a lone point relative to its peak: ≤ 2.9e−4 at every threshold.
package enum CellScheme: Sendable, Hashable {
    case splat
    case taylor(order: Int)
    case disc
    case cubic

    /// Sums per node and channel of the Gaussian's schemes.
    static let sumCount = 49

    /// Sums per node and channel in a table of this scheme.
    var sumsPerChannel: Int {
        switch self {
        case .splat, .taylor: return CellScheme.sumCount
        case .disc: return 1
        case .cubic: return 16
        }
    }

    /// Sum columns per channel of a finite kernel's table, whichever its
    /// scheme (the statement picks it in the engine).
    static let finiteSumCount = 16
    /// Half-width of the splat's block of nodes.
    static let splatHalf = 3
    /// The highest Taylor order a table carries.
    static let maximumOrder = 8
    /// Below this σ in cells the sums are a splat.
    static let splatBelow = 0.85
    /// (σ in cells at least, Taylor order), widest kernels first.
    static let taylorOrders: [(sigmaInCells: Double, order: Int)] =
        [(3, 3), (2, 4), (1.5, 5), (1.25, 6), (1, 7), (splatBelow, 8)]

    /// Whether a table of this scheme suits `kernel` of `radius` on cells
    /// `dx` × `dy` for `estimator`: for the Gaussian, the scheme
    /// ``choose(sigmaInCells:)`` gives; for a finite kernel the disc always,
    /// and the cubic sums for a density where the tool's own binning keeps
    /// the kernel within the accuracy bound (the statement takes them
    /// where the tool's planner would bin the same points,
    /// ``DensityPlan/discScheme(method:kernel:radius:xAxis:yAxis:channels:pointCount:)``;
    /// a mean never).
    package func suits(
        kernel: DensityKernel, radius: Double, dx: Double, dy: Double, estimator: DensityEstimator
    ) -> Bool {
        guard kernel.isFinite else { return self == CellScheme.choose(sigmaInCells: radius / 3 / max(dx, dy)) }
        switch self {
        case .disc: return true
        case .cubic:
            guard estimator == .density, let fewest = DensityPlan.convolutionRadiusInCells(kernel) else { return false }
            return min(radius / dx, radius / dy) >= fewest
        case .splat, .taylor: return false
        }
    }

    /// The Gaussian's scheme for a kernel of `sigmaInCells` (σ over the larger cell side).
    package static func choose(sigmaInCells s: Double) -> CellScheme {
        for (least, order) in taylorOrders where s >= least { return .taylor(order: order) }
        return .splat
    }

    /// The splat's half-widths in nodes (x, y): those of the accumulator's
    /// exact splat for the automatic method (4σ widened by half a cell
    /// diagonal), at most ``splatHalf``.
    static func splatReach(geometry: GridGeometry, radius: Double) -> (x: Int, y: Int) {
        let (x, y) = DensityAccumulator.axes(
            geometry: geometry, radius: radius,
            reachInSigmas: DensityPlan.automaticReachInSigmas)
        return (min(GaussianTable.half(of: x), splatHalf), min(GaussianTable.half(of: y), splatHalf))
    }

    /// Its name in a cells table.
    package var name: String {
        switch self {
        case .splat: return "splat"
        case .taylor: return "taylor"
        case .disc: return "disc"
        case .cubic: return "cubic"
        }
    }

    /// The index among the 49 sums of moment (m, n) (m + n ≤ 8).
    static func momentIndex(m: Int, n: Int) -> Int {
        var k = 0
        for i in 0..<n { k += maximumOrder - i + 1 }
        return k + m
    }
}
