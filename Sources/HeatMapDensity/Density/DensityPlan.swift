import Foundation
import HeatMapCore

/// Which algorithm fills a grid, chosen from σ in cells, the number of
/// points and the memory the moment planes would take.
///
/// Every scheme keeps each node within 1e−3 × (grid maximum) of the exact
/// untruncated sum. The worst case is a lone point (dense data averages the
/// errors down); its error, relative to its own peak, measured over offsets
/// within a cell:
///
/// | scheme                      | values per node | usable from σ/δ | worst error there |
/// |-----------------------------|-----------------|-----------------|-------------------|
/// | exact splat (5σ; 4σ when automatic) | –       | any             | < 1e−5 (3.4e−4 at 4σ) |
/// | row moments, order 5        | 6               | 1 (along y)     | 2.0e−4            |
/// | row moments, order 4        | 5               | 1.25 (along y)  | 4.2e−4            |
/// | row moments, order 3        | 4               | 2 (along y)     | 3.8e−4            |
/// | linear binning              | 1               | 24              | 4.2e−4            |
/// | Taylor, order 2             | 6               | 6               | 3.3e−4            |
/// | Taylor, order 3             | 10              | 3               | 3.0e−4            |
/// | Taylor, order 4             | 15              | 2               | 2.4e−4            |
enum DensityScheme: Sendable, Hashable {
    /// Exact separable splat.
    case direct
    /// Exact along x, Taylor moments of this order along y (``RowMomentBinning``).
    case rowMoments(order: Int)
    /// Linear binning plus separable convolution.
    case linearBinning
    /// Nearest-node Taylor moments of this order plus separable convolution.
    case taylorBinning(order: Int)
    /// A finite kernel: cubic binning plus one 2-D convolution by the
    /// Fourier transform (``DiscConvolutionFill``).
    case discConvolution
    /// Points of many radii: the wide ones binned into radius classes and
    /// convolved class by class, the narrow ones splatted exactly
    /// (``RadiusClassFill``).
    case radiusClasses(RadiusClasses)

    /// The Taylor order for ``MomentBinning``, nil for linear binning.
    package var order: Int? {
        switch self {
        case .taylorBinning(let m), .rowMoments(let m): return m
        default: return nil
        }
    }

    var isBinned: Bool { self != .direct }

    /// Whether finishing overwrites the moments (the 2-D binned schemes, and
    /// the disc convolution, which transforms its planes in place).
    var convolvesInPlace: Bool {
        switch self {
        case .linearBinning, .taylorBinning, .discConvolution: return true
        case .direct, .rowMoments, .radiusClasses: return false
        }
    }

    /// Doubles stored per node and channel (besides the exact-splat grid).
    var valuesPerNode: Int {
        switch self {
        case .direct: return 0
        case .rowMoments(let m): return m + 1
        case .linearBinning, .taylorBinning: return MomentBinning.planeCount(order: order)
        case .discConvolution: return 1
        case .radiusClasses: return 1
        }
    }
}

enum DensityPlan {
    /// Kernel truncation radius in σ of the exact splat (and of the
    /// costing that picks a scheme).
    static let reachInSigmas = 5.0

    /// Truncation radius in σ of every scheme the automatic method picks:
    /// 4σ drops at most e^−8 ≈ 3.4e−4 of a lone point's peak (and, over
    /// dense data, the 1.3e−4 of the kernel's mass outside the ±4σ
    /// square), which with the binned schemes' Taylor error (≤ 4.2e−4,
    /// largest at the peak, not at the cut) stays inside the 1e−3 bound.
    /// It saves a fifth of the rows each point writes and of the taps of
    /// each convolution, a third of the nodes of an exact splat.
    static let automaticReachInSigmas = 4.0

    /// The truncation radius in σ that `scheme` runs with: 5σ when the
    /// exact method was asked for by name, else 4σ.
    package static func reach(of scheme: DensityScheme, method: DensityMethod) -> Double {
        scheme == .direct && method == .exact ? reachInSigmas : automaticReachInSigmas
    }

    /// Moment planes may use at most this many bytes; beyond, the exact
    /// splat (memory one grid) is used.
    static let planeMemoryLimit = 160 << 20

    /// The cheapest 2-D binning that is accurate at this σ (in cells, the
    /// smaller of the two axes), or nil below 2 cells.
    static func binning(sigmaInCells s: Double) -> DensityScheme? {
        if s >= 24 { return .linearBinning }
        if s >= 6 { return .taylorBinning(order: 2) }
        if s >= 3 { return .taylorBinning(order: 3) }
        if s >= 2 { return .taylorBinning(order: 4) }
        return nil
    }

    /// The row-moment scheme accurate at this σ in y cells, or nil below 1
    /// cell (and for kernels so wide in x cells that its table of column
    /// weights would be large; binning is cheaper there anyway).
    static func rowMoments(sigmaInCells s: Double, xAxis: GaussianAxis) -> DensityScheme? {
        guard GaussianTable.fits(xAxis) else { return nil }
        if s >= 2 { return .rowMoments(order: 3) }
        if s >= 1.25 { return .rowMoments(order: 4) }
        if s >= 1 { return .rowMoments(order: 5) }
        return nil
    }

    /// The scheme for a request: the one place the choice is made (the
    /// accumulator runs what this returns, through its ``DensityFill``).
    ///
    /// 1. `.exact` asked for by name: the exact splat (``DirectFill``), to 5σ.
    /// 2. Else the candidates, each only where its Taylor error stays inside
    ///    the accuracy bound (the σ thresholds of the table on
    ///    ``DensityScheme``): the cheapest 2-D binning for σ in cells of the
    ///    narrower axis (``binning(sigmaInCells:)``, from 2 cells) and the row
    ///    moments for σ in y cells (``rowMoments(sigmaInCells:xAxis:)``, from
    ///    1 cell, while the x kernel is narrow enough to tabulate).
    ///    Candidates whose planes would take more than
    ///    ``planeMemoryLimit`` are dropped.
    /// 3. The cheaper candidate by ``cost(_:points:sx:sy:cells:channels:)``
    ///    (per point: taps or moments written; per node: the convolutions);
    ///    none left means the exact splat.
    /// 4. `.binned` takes that candidate; `.automatic` takes the exact splat
    ///    instead when it costs no more (few points, or kernels of a cell or
    ///    two), so a binned scheme runs only where it saves time. The
    ///    automatic choices then truncate at 4σ (``reach(of:method:)``).
    ///
    /// `pointCount` nil means unknown (streamed input), costed as one point
    /// per node. The choice depends on the request and the grid alone,
    /// never on the machine, so the same input gives the same bits anywhere.
    static func scheme(
        method: DensityMethod, xAxis: GaussianAxis, yAxis: GaussianAxis, channels: Int,
        pointCount: Int?
    ) -> DensityScheme {
        guard method != .exact else { return .direct }
        let sx = xAxis.sigma / xAxis.step, sy = yAxis.sigma / yAxis.step
        let cells = Double(xAxis.count) * Double(yAxis.count)
        let fits = { (scheme: DensityScheme) in
            Double(scheme.valuesPerNode * channels) * cells * 8 <= Double(planeMemoryLimit)
        }
        let candidates = [binning(sigmaInCells: min(sx, sy)), rowMoments(sigmaInCells: sy, xAxis: xAxis)]
            .compactMap { $0 }.filter(fits)
        let n = Double(pointCount ?? Int(cells))
        let cost = { (scheme: DensityScheme) in
            self.cost(scheme, points: n, sx: sx, sy: sy, cells: cells, channels: Double(channels))
        }
        guard let binned = candidates.min(by: { cost($0) < cost($1) }) else { return .direct }
        if method == .binned { return binned }
        return cost(.direct) <= cost(binned) ? .direct : binned
    }

    /// Rough cost in nanoseconds of CPU time, fitted to measurements on a
    /// 2021 x86-64 (only the ratios matter).
    package static func cost(
        _ scheme: DensityScheme, points n: Double, sx: Double, sy: Double, cells: Double,
        channels: Double
    ) -> Double {
        let r = reachInSigmas
        let xTaps = 2 * (r * sx + 1) + 1, yTaps = 2 * (r * sy + 1) + 1
        switch scheme {
        case .direct:
            let taps = Double.pi * r * sx * r * sy
            return n * (80 + 3 * taps * channels)
        case .rowMoments(let m):
            let k = Double(m + 1)
            return n * (30 + xTaps * k * 1.2 * channels) + cells * k * channels * (2 + yTaps * 0.25)
        case .linearBinning, .taylorBinning:
            let planes = Double(scheme.valuesPerNode)
            let m = Double(scheme.order ?? 0)
            return n * (40 + 6 * planes * channels) + cells * channels * (planes * xTaps + (m + 1) * yTaps) * 0.5
        case .discConvolution:
            return discConvolutionCost(points: n, cells: cells, channels: channels)
        case .radiusClasses(let classes):
            return classes.cost(points: n, transformNodes: cells, channels: channels)
        }
    }

    /// The scheme of a finite kernel of one radius for every point (radii
    /// per point: ``RadiusClasses/plan(method:kernel:maximumRadius:xAxis:yAxis:channels:pointCount:profile:)``): the exact splat
    /// (``DiscFill``), or binning and a convolution by the Fourier transform
    /// (``DiscConvolutionFill``) where that is both accurate and cheaper.
    ///
    /// The convolution's error is that of cubic interpolation across the
    /// kernel's edge (``CubicBinning``); for a lone point, relative to its
    /// peak, with r/δ the radius in cells of the coarser axis:
    ///
    /// | kernel | r/δ = 10 | 15 | 19 | 20 | 30 | usable from r/δ |
    /// |---|---|---|---|---|---|---|
    /// | quartic (C¹ at the edge) | 3.1e−3 | 1.3e−3 | 8.3e−4 | 7.5e−4 | 3.3e−4 | 19 |
    /// | triweight (C²) | 6.8e−4 | 2.4e−4 | 1.3e−4 | 1.1e−4 | 3.6e−5 | 10 |
    /// | Epanechnikov (C⁰) | 3.5e−2 | 2.4e−2 | 1.9e−2 | 1.8e−2 | 1.2e−2 | never |
    ///
    /// The uniform and triangular kernels step at the edge: no binning
    /// comes near, they always take the exact splat. `.exact` asked for by
    /// name takes it too; `.binned` takes the convolution wherever it is
    /// accurate; `.automatic` where it is also the cheaper by
    /// ``cost(_:points:sx:sy:cells:channels:)``, and never for the mean
    /// estimator (two channels): the mean divides by the density, whose
    /// error is bounded against the grid's peak, not against itself, so at
    /// the support's fringe, where the density is a small part of one
    /// point's peak, the mean's error grows past the bound (1.4e−3 of the
    /// mean's range measured at a node of density 0.05 for the quartic at
    /// 43 cells).
    static func discScheme(
        method: DensityMethod, kernel: DensityKernel, radius: Double, xAxis: GaussianAxis, yAxis: GaussianAxis,
        channels: Int, pointCount: Int?
    ) -> DensityScheme {
        guard method != .exact, let fewest = convolutionRadiusInCells(kernel) else { return .direct }
        let rx = radius / xAxis.step, ry = radius / yAxis.step
        guard min(rx, ry) >= fewest else { return .direct }
        if method == .binned { return .discConvolution }
        guard channels == 1 else { return .direct }
        let cells = Double(xAxis.count) * Double(yAxis.count)
        let n = Double(pointCount ?? Int(cells))
        let splat = n * (80 + 1.0 * Double.pi * rx * ry * Double(channels))
        return discConvolutionCost(points: n, cells: cells, channels: Double(channels)) < splat
            ? .discConvolution : .direct
    }

    /// The radius in cells from which ``DensityScheme/discConvolution`` keeps
    /// `kernel` within 1e−3 of the exact sum (the table on
    /// ``discScheme(method:kernel:radius:xAxis:yAxis:channels:pointCount:)``,
    /// with a margin), or nil if it never does.
    static func convolutionRadiusInCells(_ kernel: DensityKernel) -> Double? {
        switch kernel {
        case .quartic: return 19
        case .triweight: return 10
        case .gaussian, .epanechnikov, .triangular, .uniform: return nil
        }
    }

    /// The narrowest radius class, in cells, that keeps `kernel` within
    /// 1e−3 of the exact sum (``RadiusClasses``), or nil if none does: the
    /// finite kernels' ``convolutionRadiusInCells(_:)``, and the Gaussian
    /// (smooth everywhere, so its cubic binning's error falls as (δ/σ)⁴)
    /// from 12 cells, σ = 4 cells: a lone point errs there by 5.1e−4 of its
    /// peak, at 9 cells by 1.5e−3, at 24 by 3.4e−5 (RadiusClassTests). A
    /// fixed-radius Gaussian never needs classes: its own schemes serve it.
    static func classRadiusInCells(_ kernel: DensityKernel) -> Double? {
        kernel == .gaussian ? gaussianClassRadiusInCells : convolutionRadiusInCells(kernel)
    }

    private static let gaussianClassRadiusInCells = 12.0

    /// Rough nanoseconds of ``DensityScheme/discConvolution``: binning per
    /// point, three 2-D transforms of about the grid's size.
    static func discConvolutionCost(points n: Double, cells: Double, channels: Double) -> Double {
        n * (40 + 20 * channels) + 3 * cells * (log2(max(cells, 2)) + 1) * 6
    }
}
