import Foundation
import HeatMapCore

/// The fill of the finite kernels, and of any kernel with a radius per
/// point: every point's ``DiscSplat`` added into the sums grid, the points
/// sorted into row bands (``RowBands``) so that no two tasks write one row.
/// Exact: the reference for these kernels, as ``DirectFill`` is for the
/// fixed Gaussian.
struct DiscFill: DensityFill {
    let kernel: DensityKernel
    let xAxis: GaussianAxis
    let yAxis: GaussianAxis
    /// The radius of every point without one of its own, and the radius
    /// the density is normalised by.
    let radius: Double
    /// The largest radius of any point (`radius` when there are no radii).
    let maximumRadius: Double
    /// Raw values: no normalisation carried in the weights.
    let raw: Bool
    /// Σ w shape, row-major.
    let density: UnsafeMutablePointer<Double>
    /// Σ v w shape (mean estimator), or nil.
    let weightedValue: UnsafeMutablePointer<Double>?
    /// The radius of each point of the slice being deposited, or nil.
    var radii: UnsafePointer<Double>? = nil

    func deposit(
        x: UnsafePointer<Double>, y: UnsafePointer<Double>, weight: UnsafePointer<Double>,
        value: UnsafePointer<Double>?, count n: Int, control: ComputeControl,
        progress: @escaping @Sendable (Int) -> Void
    ) throws {
        if value == nil, DiscFill.splatsByRuns(kernel) {
            return try runChords(x, y, weight, n, control, progress)
        }
        switch kernel {
        case .gaussian: try run(GaussianShape(), x, y, weight, value, n, control, progress)
        case .quartic where value == nil:
            try runBands(QuarticPower.self, x, y, weight, n, control, progress)
        case .quartic: try run(QuarticShape(), x, y, weight, value, n, control, progress)
        case .epanechnikov where value == nil:
            try runBands(EpanechnikovPower.self, x, y, weight, n, control, progress)
        case .epanechnikov: try run(EpanechnikovShape(), x, y, weight, value, n, control, progress)
        case .triweight where value == nil:
            try runBands(TriweightPower.self, x, y, weight, n, control, progress)
        case .triweight: try run(TriweightShape(), x, y, weight, value, n, control, progress)
        case .triangular(let decay) where value == nil && decay == 0:
            // The cone fades at the edge: no edge test.
            try run(ConeShape(), x, y, weight, nil, n, control, progress)
        case .triangular(let decay):
            try run(TriangularShape(fall: 1 - decay), x, y, weight, value, n, control, progress)
        case .uniform: try run(UniformShape(), x, y, weight, value, n, control, progress)
        }
    }

    /// Rough nanoseconds of CPU time per node a point reaches: the density
    /// of a power of 1 − d²/r² in single precision (``BandSplat``:
    /// the quartic, the Epanechnikov, the triweight) about 0.4 (the
    /// quartic's radius classes weighed against it on 10⁶ points,
    /// docs/performance.md), every other kernel and the mean about 1 per
    /// channel in double.
    static func nanosecondsPerNode(kernel: DensityKernel, channels: Int) -> Double {
        guard channels == 1 else { return Double(channels) }
        switch kernel {
        case .quartic, .epanechnikov, .triweight: return 0.4
        default: return 1
        }
    }

    private func run<S: RadialShape>(
        _ shape: S, _ x: UnsafePointer<Double>, _ y: UnsafePointer<Double>,
        _ weight: UnsafePointer<Double>, _ value: UnsafePointer<Double>?, _ n: Int,
        _ control: ComputeControl, _ progress: @escaping @Sendable (Int) -> Void
    ) throws {
        if value != nil {
            try run(shape, ValuedDiscEntry.self, x, y, weight, value, n, control, progress)
        } else if radii != nil {
            try run(shape, SizedDiscEntry.self, x, y, weight, nil, n, control, progress)
        } else {
            try run(shape, DiscEntry.self, x, y, weight, nil, n, control, progress)
        }
    }

    private func run<S: RadialShape, Entry: DiscPoint>(
        _ shape: S, _: Entry.Type, _ x: UnsafePointer<Double>, _ y: UnsafePointer<Double>,
        _ weight: UnsafePointer<Double>, _ value: UnsafePointer<Double>?, _ n: Int,
        _ control: ComputeControl, _ progress: @escaping @Sendable (Int) -> Void
    ) throws {
        let splat = DiscSplat<S, Entry>(
            shape: shape, xAxis: xAxis, yAxis: yAxis, maximumRadius: maximumRadius,
            normalisingRadius: raw ? nil : radius, radii: radii, radius: radius,
            density: density, weightedValue: value == nil ? nil : weightedValue)
        try RowBands<Entry>.deposit(
            splat, x: x, y: y, weight: weight, value: value, count: n,
            rows: yAxis.count, columns: xAxis.count, control: control,
            progress: progress)
    }

    /// Whether `kernel`'s density (one channel) is the uniform disc's,
    /// splatted by its runs of nodes (``ChordSplat``): 12 bytes more per
    /// node of the bands splatted at once, at most about one and a half
    /// times the grid's own (``DensityAccumulator/bytesNeeded(scheme:cells:channels:kernel:)``).
    static func splatsByRuns(_ kernel: DensityKernel) -> Bool {
        kernel == .uniform || kernel == .triangular(decay: 1)
    }

    /// The density of the uniform disc by its chords (``ChordSplat``).
    private func runChords(
        _ x: UnsafePointer<Double>, _ y: UnsafePointer<Double>, _ weight: UnsafePointer<Double>, _ n: Int,
        _ control: ComputeControl, _ progress: @escaping @Sendable (Int) -> Void
    ) throws {
        if radii != nil {
            try runChords(SizedDiscEntry.self, x, y, weight, n, control, progress)
        } else {
            try runChords(DiscEntry.self, x, y, weight, n, control, progress)
        }
    }

    private func runChords<Entry: DiscPoint>(
        _: Entry.Type, _ x: UnsafePointer<Double>, _ y: UnsafePointer<Double>, _ weight: UnsafePointer<Double>,
        _ n: Int, _ control: ComputeControl, _ progress: @escaping @Sendable (Int) -> Void
    ) throws {
        let splat = ChordSplat(
            disc: DiscSplat<UniformShape, Entry>(
                shape: UniformShape(), xAxis: xAxis, yAxis: yAxis, maximumRadius: maximumRadius,
                normalisingRadius: raw ? nil : radius, radii: radii, radius: radius, density: density,
                weightedValue: nil))
        let bands = try RowBands<Entry>(
            x: x, y: y, weight: weight, value: nil, count: n, rows: yAxis.count, columns: xAxis.count,
            sorter: splat.disc, control: control)
        try splat.run(bands, control: control, progress: progress)
    }

    /// The density of a power of 1 − d²/r² (`Power`): the single-precision
    /// band splat (``BandSplat``),
    /// with the slice's weights (each times its radius's normalisation)
    /// scaled so the largest is in [1, 2). Weights that are all zero add
    /// nothing; a largest weight too small for its scale to be a double
    /// takes the double splat.
    private func runBands<Power: BandPower>(
        _: Power.Type, _ x: UnsafePointer<Double>, _ y: UnsafePointer<Double>,
        _ weight: UnsafePointer<Double>, _ n: Int, _ control: ComputeControl,
        _ progress: @escaping @Sendable (Int) -> Void
    ) throws {
        // A grid too large for the placed entries' indices, or a radius
        // too wide for their single precision (never in practice), takes
        // the entries of a radius each placed in the splat.
        let frame = BandFrame(xAxis: xAxis, yAxis: yAxis, maximumRadius: maximumRadius)
        if radii == nil, BandEntry.fits(frame) {
            try runBands(BandEntry.self, Power.self, x, y, weight, n, control, progress)
        } else if PlacedBandEntry.fits(frame) {
            try runBands(PlacedBandEntry.self, Power.self, x, y, weight, n, control, progress)
        } else {
            try runBands(SizedBandEntry.self, Power.self, x, y, weight, n, control, progress)
        }
    }

    private func runBands<Entry: BandPoint, Power: BandPower>(
        _: Entry.Type, _: Power.Type, _ x: UnsafePointer<Double>, _ y: UnsafePointer<Double>,
        _ weight: UnsafePointer<Double>, _ n: Int, _ control: ComputeControl,
        _ progress: @escaping @Sendable (Int) -> Void
    ) throws {
        let splat = BandSplat<Entry, Power>(
            xAxis: xAxis, yAxis: yAxis, maximumRadius: maximumRadius, normalisingRadius: raw ? nil : radius,
            radii: radii, density: density)
        // Points held together (in tiles) are splatted in windows of the
        // grid's rows, with no sort; others sorted into row bands.
        let windows = try RowWindows(
            x: x, y: y, weight: weight, count: n, rows: yAxis.count, rowWidth: xAxis.count, sorter: splat,
            control: control)
        let bands =
            windows == nil
            ? try RowBands<Entry>(
                x: x, y: y, weight: weight, value: nil, count: n, rows: yAxis.count, columns: xAxis.count,
                sorter: splat, control: control) : nil
        let largest = windows?.largestMagnitude ?? bands?.largestMagnitude ?? 0
        guard largest.isNormal else {
            if largest != 0 { try run(Power.shape, x, y, weight, nil, n, control, progress) }
            return
        }
        if let windows {
            try splat.run(windows, x: x, y: y, weight: weight, control: control, progress: progress)
        } else if let bands {
            try splat.run(
                bands, scale: BandSplat<Entry, Power>.scale(forLargest: largest), control: control,
                progress: progress)
        }
    }

    func finish(
        control: ComputeControl, progress: @escaping @Sendable (Double) -> Void,
        emit: (Int, UnsafePointer<Double>?) -> Void
    ) throws {
        try emitGridRows(yAxis.count, control: control, emit: emit)
    }
}
