import Foundation
import HeatMapCore
import Synchronization

/// Builds a density grid from points that arrive in batches, in memory
/// O(grid) whatever the number of points (docs/density-model.md, docs/faults.md).
///
/// ```swift
/// var estimator = BandwidthEstimator()               // pass 1: bounds and spread
/// for batch in reader { estimator.add(batch) }
/// let radius = estimator.radius(for: .scott, fixed: 500, projection: projection)
/// let geometry = GridGeometry.fitting(box: estimator.bounds, radius: radius,
///                                     paddingFactor: 1.5, resolution: 512)
/// var accumulator = try DensityAccumulator(geometry: geometry, radius: radius,
///                                          projection: projection,
///                                          expectedCount: estimator.count)
/// for batch in reader { try accumulator.add(batch) } // pass 2
/// let grid = try accumulator.finish()
/// ```
///
/// The kernel is K(d) = exp(−d²/2σ²)/(2πσ²) with σ = radius/3, truncated at
/// 5σ by the exact method asked for by name and at 4σ otherwise; values
/// are Σ wᵢK in weight per square unit × `projection.areaUnitScale`
/// (per km² for geographic planes), or for ``DensityEstimator/mean`` the
/// kernel-weighted mean Σ vᵢwᵢK / Σ wᵢK, NaN where the support Σ wᵢK·2πσ²
/// is below 0.05. Every node is within 1e−3 × (grid maximum) of the exact
/// untruncated sum, whichever method runs.
///
/// Results are the same bit for bit on every run with the same batches,
/// whatever the number of cores: every node adds its points' terms in a
/// fixed order. Other batch splits sum the same terms in another order
/// (equal to rounding). A value type: copies made before ``finish(control:)`` are independent
/// (the buffers are copied on the first write to a shared one).
struct DensityAccumulator: Sendable {
    /// Where the nodes are.
    package let geometry: GridGeometry
    /// The kernel radius (plane units); σ = radius / 3.
    package let radius: Double
    /// The projection the points were mapped with (sets the area unit).
    package let projection: PlaneProjection
    /// Density or kernel-weighted mean.
    package let estimator: DensityEstimator
    /// The method asked for.
    let requestedMethod: DensityMethod
    /// The kernel (docs/density-model.md#kernels).
    let kernel: DensityKernel
    /// Density or raw kernel sums.
    let kernelValues: KernelValues
    /// The largest radius of a point that brings its own (nil: every point
    /// takes `radius`).
    let maximumRadius: Double?
    /// Whether the disc splat runs (``DiscFill``): for the finite kernels
    /// and for radii per point (alone, or for the narrow points of
    /// ``RadiusClassFill``).
    var usesDisc: Bool { kernel != .gaussian || maximumRadius != nil }
    /// The method that runs: `.exact` or `.binned` (never `.automatic`).
    var method: DensityMethod { scheme == .direct ? .exact : .binned }
    /// Points added so far.
    package private(set) var count = 0
    /// Σ w of the points added so far.
    private(set) var totalWeight = 0.0

    let scheme: DensityScheme
    let xAxis: GaussianAxis
    let yAxis: GaussianAxis
    private let expectedCount: Int?
    private var storage: DensityStorage

    /// Points handled per bucketing pass: bounds the index arrays.
    static let sliceSize = 1 << 20

    /// Prepares an empty grid.
    ///
    /// - Parameters:
    ///   - geometry: the nodes; points anywhere (also outside) are accepted.
    ///   - radius: kernel radius in plane units, finite and > 0.
    ///   - method: `.automatic` picks the fastest accurate method for the
    ///     kernel width in cells and `expectedCount`.
    ///   - expectedCount: how many points will come, if known (for the
    ///     method choice and progress).
    /// - Throws: ``HeatMapError/invalidConfiguration(_:)`` for a bad radius or
    ///   geometry, or when the grid does not fit in memory.
    ///   - kernel, kernelValues: the kernel and whether values are its
    ///     density or raw sums.
    ///   - maximumRadius: for points that bring their own radius
    ///     (``PlanePoints/radius``), the largest of them; `radius` is then
    ///     the one the density is normalised by.
    ///   - radiusProfile: how those radii spread, if known (for the choice
    ///     of radius classes).
    package init(
        geometry: GridGeometry, radius: Double, projection: PlaneProjection,
        estimator: DensityEstimator = .density, method: DensityMethod = .automatic,
        kernel: DensityKernel = .gaussian, kernelValues: KernelValues = .density,
        maximumRadius: Double? = nil, radiusProfile: RadiusProfile? = nil, expectedCount: Int? = nil
    ) throws {
        try self.init(
            geometry: geometry, radius: radius, projection: projection, estimator: estimator,
            method: method, kernel: kernel, kernelValues: kernelValues, maximumRadius: maximumRadius,
            radiusProfile: radiusProfile, expectedCount: expectedCount, scheme: nil)
    }

    /// An accumulator running the given scheme (tests and benchmarks).
    package init(
        geometry: GridGeometry, radius: Double, projection: PlaneProjection,
        estimator: DensityEstimator = .density, scheme: DensityScheme
    ) throws {
        try self.init(
            geometry: geometry, radius: radius, projection: projection, estimator: estimator,
            method: scheme == .direct ? .exact : .binned, kernel: .gaussian, kernelValues: .density,
            maximumRadius: nil, radiusProfile: nil, expectedCount: nil, scheme: scheme)
    }

    /// An accumulator of every setting, running `forced` when it is not
    /// nil (a grid whose maker knows better than the plan: the adaptive
    /// pilot's fine grid, ``PilotGrid``), else the planned scheme.
    init(
        geometry: GridGeometry, radius: Double, projection: PlaneProjection, estimator: DensityEstimator,
        method: DensityMethod, kernel: DensityKernel, kernelValues: KernelValues, maximumRadius: Double?,
        radiusProfile: RadiusProfile?, expectedCount: Int?, scheme forced: DensityScheme?
    ) throws {
        guard radius.isFinite, radius > 0 else {
            throw HeatMapError.invalidConfiguration("kernel radius must be finite and > 0, not \(radius)")
        }
        if let maximumRadius, !(maximumRadius.isFinite && maximumRadius > 0) {
            throw HeatMapError.invalidConfiguration(
                "the largest point radius must be finite and > 0, not \(maximumRadius)")
        }
        try kernel.validate()
        guard !geometry.dx.isInfinite, !geometry.dy.isInfinite else {
            throw HeatMapError.invalidConfiguration(
                "the points span more than the largest number (about 1.8e308) across: no grid can cover them")
        }
        guard geometry.columns >= 1, geometry.rows >= 1,
            geometry.dx.isFinite, geometry.dx > 0, geometry.dy.isFinite, geometry.dy > 0,
            geometry.x0.isFinite, geometry.y0.isFinite
        else {
            throw HeatMapError.invalidConfiguration("grid geometry \(geometry) has no area")
        }
        let (cells, overflow) = geometry.columns.multipliedReportingOverflow(by: geometry.rows)
        guard !overflow, cells <= Int.max / 64 else {
            throw HeatMapError.invalidConfiguration("grid of \(geometry.columns) × \(geometry.rows) nodes is too large")
        }
        self.geometry = geometry
        self.radius = radius
        self.projection = projection
        self.estimator = estimator
        self.requestedMethod = method
        self.kernel = kernel
        self.kernelValues = kernelValues
        self.maximumRadius = maximumRadius
        self.expectedCount = expectedCount
        func axes(reachInSigmas: Double) -> (GaussianAxis, GaussianAxis) {
            DensityAccumulator.axes(geometry: geometry, radius: radius, reachInSigmas: reachInSigmas)
        }
        let channels = estimator == .mean ? 2 : 1
        let (x, y) = axes(reachInSigmas: DensityPlan.reachInSigmas)
        // Radii per point take radius classes or the exact disc splat; a
        // finite kernel of one radius the splat or a convolution, as the
        // plan says.
        scheme =
            forced
            ?? (maximumRadius != nil
                ? (estimator == .mean || kernelValues == .raw
                    ? .direct
                    : DensityAccumulator.radiusScheme(
                        method: method, kernel: kernel, maximumRadius: maximumRadius!, xAxis: x, yAxis: y,
                        channels: channels, cells: cells, pointCount: expectedCount, profile: radiusProfile))
                : kernel.isFinite
                    ? DensityPlan.discScheme(
                        method: method, kernel: kernel, radius: radius, xAxis: x, yAxis: y,
                        channels: channels, pointCount: expectedCount)
                    : DensityPlan.scheme(
                        method: method, xAxis: x, yAxis: y, channels: channels,
                        pointCount: expectedCount))
        (xAxis, yAxis) = axes(reachInSigmas: DensityPlan.reach(of: scheme, method: method))
        try MemoryBudget.reserve(
            DensityAccumulator.bytesNeeded(scheme: scheme, cells: cells, channels: channels, kernel: kernel),
            for: "the density grid of \(geometry.columns) × \(geometry.rows) nodes")
        switch scheme {
        case .direct:
            storage = try DensityStorage(planeCount: nil, cells: cells, channels: channels)
        case .rowMoments(let order):
            let layout = RowMomentLayout(xAxis: xAxis, rows: geometry.rows, order: order, channels: channels)
            storage = try DensityStorage(
                planeCount: layout.count, zeroed: layout.flagsOffset..<layout.count,
                cells: cells, channels: channels)
        case .discConvolution:
            storage = try DensityStorage(
                planeCount: DiscConvolutionLayout(xAxis: xAxis, yAxis: yAxis, radius: radius, channels: channels)
                    .count,
                cells: cells, channels: channels)
        case .radiusClasses(let classes):
            // One flag per class (whether any point uses it); the classes'
            // planes are made when the grid is finished.
            storage = try DensityStorage(
                planeCount: classes.count, cells: cells, channels: channels, keepingClassPoints: true)
            // The narrow points' exact splat.
            try storage.ensureDirect(cells: cells, channels: channels)
        case .linearBinning, .taylorBinning:
            let perNode = scheme.valuesPerNode * channels
            guard cells <= Int.max / perNode - SeparableConvolution.slack else {
                throw HeatMapError.invalidConfiguration(
                    "grid of \(geometry.columns) × \(geometry.rows) nodes is too large")
            }
            storage = try DensityStorage(
                planeCount: cells * perNode + SeparableConvolution.slack, cells: cells,
                channels: channels)
        }
    }

    private var channels: Int { estimator == .mean ? 2 : 1 }

    /// The scheme for the density of points with radii up to
    /// `maximumRadius` (raw values and the mean always take the exact
    /// splat: without the 1/r² of the density the wide points weigh as much
    /// as the narrow ones, and the classes' error with them): radius
    /// classes where ``RadiusClasses/plan(method:kernel:maximumRadius:xAxis:yAxis:channels:pointCount:profile:)``
    /// gives them and their plane fits in ``DensityPlan/planeMemoryLimit``,
    /// else the exact disc splat.
    private static func radiusScheme(
        method: DensityMethod, kernel: DensityKernel, maximumRadius: Double, xAxis: GaussianAxis,
        yAxis: GaussianAxis, channels: Int, cells: Int, pointCount: Int?, profile: RadiusProfile?
    ) -> DensityScheme {
        guard
            let classes = RadiusClasses.plan(
                method: method, kernel: kernel, maximumRadius: maximumRadius, xAxis: xAxis, yAxis: yAxis,
                channels: channels, pointCount: pointCount, profile: profile),
            Double(classes.layout(xAxis: xAxis, yAxis: yAxis, channels: channels).count) * 8
                <= Double(DensityPlan.planeMemoryLimit)
        else { return .direct }
        return .radiusClasses(classes)
    }

    /// The kernel's axes on `geometry`: σ = radius / 3 and a reach of
    /// `reachInSigmas` σ widened by half a cell diagonal, so a dropped node
    /// holds at most e^(−reach²/2) of the point's largest node value, even
    /// for a kernel narrower than a cell.
    static func axes(geometry: GridGeometry, radius: Double, reachInSigmas: Double) -> (GaussianAxis, GaussianAxis) {
        let sigma = radius / 3
        let r = reachInSigmas * sigma
        let reach = (r * r + (geometry.dx * geometry.dx + geometry.dy * geometry.dy) / 4).squareRoot()
        return (
            GaussianAxis(origin: geometry.x0, step: geometry.dx, count: geometry.columns, sigma: sigma, reach: reach),
            GaussianAxis(origin: geometry.y0, step: geometry.dy, count: geometry.rows, sigma: sigma, reach: reach)
        )
    }

    /// The bytes a grid of `cells` nodes takes from start to finish: the
    /// scheme's planes (or exact-splat sums), and the finished values with
    /// one working copy; for the uniform disc's runs
    /// (``DiscFill/splatsByRuns(_:)``), their steps and counts.
    package static func bytesNeeded(
        scheme: DensityScheme, cells: Int, channels: Int, kernel: DensityKernel
    ) -> Int {
        let perNode: Int
        switch scheme {
        case .direct: perNode = channels + (channels == 1 && DiscFill.splatsByRuns(kernel) ? 2 : 0)
        case .rowMoments: perNode = 2 * channels
        case .linearBinning, .taylorBinning: perNode = scheme.valuesPerNode * channels
        // The transform's buffers, which hold the binned planes, and the
        // kernel's spectrum (with its working copy): each about the grid,
        // or half of it, plus the kernel's reach; with a margin.
        case .discConvolution: perNode = channels + 4
        // The exact splat's sums, the one class plane, and the spectral
        // sum's six buffers (the sum, a working term and two kernels'
        // spectra, real and imaginary parts, each about half the grid's
        // nodes with the kernel's margins): about three grids, five with a
        // margin; and a plane per class while they fit
        // (``ClassConvolution/allPlanesLimit``). (The wide points kept
        // until the end are counted with the points.)
        case .radiusClasses: perNode = channels * 2 + 5
        }
        var planes = 0
        if case .radiusClasses(let classes) = scheme {
            planes = 8 * min(MemoryBudget.product(classes.count, cells), ClassConvolution.allPlanesLimit)
        }
        let grids = MemoryBudget.product(cells, 8 * (perNode + 2))
        return grids > Int.max - planes ? Int.max : grids + planes
    }

    /// Adds a batch of points. O(batch · work per point), on all cores:
    /// about (reach/δ)² multiply-adds per point for the exact method, a few
    /// additions for the binned ones.
    ///
    /// For the mean estimator, `batch.value` holds the measured values; a
    /// batch without values maps the mean of its weights (each point then
    /// has kernel weight 1), as ``HeatMapContours`` does for plain points.
    ///
    /// - Throws: ``HeatMapError/invalidPoint(index:reason:)`` (index counted
    ///   over all batches) for a non-finite coordinate, weight or value or a
    ///   negative weight — nothing of the batch is added then;
    ///   `CancellationError` when `control` is cancelled (the accumulator is
    ///   then partly filled and should be dropped).
    package mutating func add(_ batch: PlanePoints, control: ComputeControl = .none) throws {
        let n = batch.count
        guard n > 0 else { return }
        try control.checkCancellation()
        let mean = estimator == .mean
        // Mean of plain weights: kernel weight 1, value = weight.
        let ones: [Double]? = mean && batch.value == nil ? [Double](repeating: 1, count: n) : nil
        let kernelWeights = ones ?? batch.weight
        let values: [Double]? = mean ? (batch.value ?? batch.weight) : nil

        let check = try BatchCheck.run(
            x: batch.x, y: batch.y, weight: kernelWeights, value: values,
            binning: scheme.isBinned ? binnability : nil, control: control)
        if let bad = check.firstProblem {
            throw HeatMapError.invalidPoint(index: count + bad.index, reason: bad.reason)
        }
        let radii = usesDisc ? batch.radius : nil
        if let radii {
            guard let maximumRadius else {
                throw HeatMapError.invalidConfiguration(
                    "points bring their own radius, but the accumulator was made without a largest radius")
            }
            // The first bad radius, by blocks on all cores.
            let blocks = Parallel.blocks(of: n)
            let bad = try Parallel.map(blocks.count, control: control) { b in
                blocks[b].first { !(radii[$0].isFinite && radii[$0] > 0 && radii[$0] <= maximumRadius) }
            }
            if let i = bad.lazy.compactMap({ $0 }).first {
                let reason =
                    radii[i] > maximumRadius && radii[i].isFinite
                    ? "radius \(radii[i]) is above the largest planned (\(maximumRadius))"
                    : "radius \(radii[i]) is not finite and > 0"
                throw HeatMapError.invalidPoint(index: count + i, reason: reason)
            }
        } else if maximumRadius != nil {
            throw HeatMapError.invalidConfiguration("the points carry no radius, but a radius per point was planned")
        }
        if !isKnownUniquelyReferenced(&storage) {
            guard let copy = storage.copy() else { throw DensityStorage.outOfMemory }
            storage = copy
        }
        if check.needsDirectGrid { try storage.ensureDirect(cells: geometry.count, channels: channels) }
        try storage.prefault(control: control)

        let before = count
        let expected = expectedCount
        let share = scheme.isBinned ? 0.3 : 0.97
        let done = ProgressCounter(total: max(expected ?? n, before + n)) { f in
            control.report(.density, share * f)
        }
        if before > 0 { done.add(before) }
        try batch.x.withUnsafeBufferPointer { xs in
            try batch.y.withUnsafeBufferPointer { ys in
                try kernelWeights.withUnsafeBufferPointer { ws in
                    try withOptionalBuffer(values) { vs in
                        try withOptionalBuffer(radii) { rs in
                            var start = 0
                            while start < n {
                                let m = min(n - start, DensityAccumulator.sliceSize)
                                try deposit(
                                    x: xs.baseAddress! + start, y: ys.baseAddress! + start,
                                    weight: ws.baseAddress! + start, value: vs.map { $0 + start },
                                    radii: rs.map { $0 + start }, count: m, offGrid: check.needsDirectGrid,
                                    control: control, progress: done)
                                start += m
                            }
                        }
                    }
                }
            }
        }
        count += n
        totalWeight += check.totalWeight
    }

    /// The chosen scheme's fill over the buffers as they are now (made per
    /// call: a copy on write may have moved them). The one place a scheme
    /// becomes code; the fills are concrete types, so only this call is
    /// dynamic, never a point's deposit.
    private func fill(radii: UnsafePointer<Double>? = nil) -> any DensityFill {
        if case .radiusClasses(let classes) = scheme {
            return RadiusClassFill(
                kernel: kernel, xAxis: xAxis, yAxis: yAxis, radius: radius,
                maximumRadius: maximumRadius ?? radius, raw: kernelValues == .raw, classes: classes,
                channels: channels, flags: storage.planes!.base, points: storage.classPoints!,
                density: storage.direct!.base,
                weightedValue: storage.directValue?.base, splatsWhenCheaper: requestedMethod != .binned,
                radii: radii)
        }
        if usesDisc, scheme == .direct {
            return DiscFill(
                kernel: kernel, xAxis: xAxis, yAxis: yAxis, radius: radius,
                maximumRadius: maximumRadius ?? radius, raw: kernelValues == .raw,
                density: storage.direct!.base, weightedValue: storage.directValue?.base, radii: radii)
        }
        switch scheme {
        case .direct, .radiusClasses:
            return DirectFill(
                xAxis: xAxis, yAxis: yAxis, density: storage.direct!.base,
                weightedValue: storage.directValue?.base)
        case .rowMoments(let order):
            return RowMomentFill(
                xAxis: xAxis, yAxis: yAxis, layout: rowMomentLayout(order: order),
                moments: storage.planes!.base)
        case .linearBinning, .taylorBinning:
            return MomentPlaneFill(
                xAxis: xAxis, yAxis: yAxis, order: scheme.order, channels: channels,
                planes: storage.planes!.base)
        case .discConvolution:
            return DiscConvolutionFill(
                kernel: kernel, xAxis: xAxis, yAxis: yAxis, radius: radius, channels: channels,
                planes: storage.planes!.base)
        }
    }

    /// Deposits one slice with the scheme's fill; points a binned scheme
    /// cannot bin (off its nodes) are then splatted exactly, in input
    /// order, when `offGrid` says there are any.
    private func deposit(
        x: UnsafePointer<Double>, y: UnsafePointer<Double>, weight: UnsafePointer<Double>,
        value: UnsafePointer<Double>?, radii: UnsafePointer<Double>?, count n: Int, offGrid: Bool,
        control: ComputeControl, progress: ProgressCounter
    ) throws {
        try fill(radii: radii).deposit(
            x: x, y: y, weight: weight, value: value, count: n, control: control,
            progress: { progress.add($0) })
        // Radius classes splat the points they cannot bin themselves.
        guard scheme.isBinned, offGrid else { return }
        if case .radiusClasses = scheme { return }
        let binnability = self.binnability
        if kernel.isFinite {
            try splatOffGrid(
                x: x, y: y, weight: weight, value: value, count: n, binnability: binnability, control: control)
            return
        }
        let direct = DirectSplat(
            xAxis: xAxis, yAxis: yAxis, columns: geometry.columns,
            density: storage.direct?.base,
            weightedValue: value == nil ? nil : storage.directValue?.base)
        let scratch = UnsafeMutablePointer<Double>.allocate(capacity: max(direct.scratchCount, 1))
        defer { scratch.deallocate() }
        let poll = direct.pollInterval
        for i in 0..<n where weight[i] != 0 && !binnability.contains(x: x[i], y: y[i]) {
            if i % poll == 0 { try control.checkCancellation() }
            direct.deposit(x: x[i], y: y[i], weight: weight[i], value: value?[i] ?? 0, scratch: scratch)
        }
    }

    /// The exact disc splat of a finite kernel's points that its binning
    /// leaves out, into the exact-splat grid.
    private func splatOffGrid(
        x: UnsafePointer<Double>, y: UnsafePointer<Double>, weight: UnsafePointer<Double>,
        value: UnsafePointer<Double>?, count n: Int, binnability: Binnability, control: ComputeControl
    ) throws {
        var points = PlanePoints()
        var values: [Double] = []
        for i in 0..<n where weight[i] != 0 && !binnability.contains(x: x[i], y: y[i]) {
            points.x.append(x[i])
            points.y.append(y[i])
            points.weight.append(weight[i])
            if let value { values.append(value[i]) }
        }
        guard !points.x.isEmpty else { return }
        let splat = DiscFill(
            kernel: kernel, xAxis: xAxis, yAxis: yAxis, radius: radius, maximumRadius: radius,
            raw: kernelValues == .raw, density: storage.direct!.base,
            weightedValue: value == nil ? nil : storage.directValue?.base)
        try points.x.withUnsafeBufferPointer { xs in
            try points.y.withUnsafeBufferPointer { ys in
                try points.weight.withUnsafeBufferPointer { ws in
                    try values.withUnsafeBufferPointer { vs in
                        try splat.deposit(
                            x: xs.baseAddress!, y: ys.baseAddress!, weight: ws.baseAddress!,
                            value: value == nil ? nil : vs.baseAddress!, count: points.x.count,
                            control: control, progress: { _ in })
                    }
                }
            }
        }
    }

    /// A node's value from its unnormalised sums Σ w e^(−d²/2σ²) and
    /// Σ v w e^(−d²/2σ²): the density `sum × scale` (scale = area unit /
    /// 2πσ²), or the mean, NaN where the support Σ w K · 2πσ² (the sum
    /// itself) is below 0.05.
    /// Whether `count` values from `values` on are all finite: their
    /// exponent bits, or-ed together (an all-ones exponent, ±∞ or NaN,
    /// carries into the sign bit when one is added), so the loop is plain
    /// integer work the compiler runs several lanes at a time.
    @inline(__always)
    static func allFinite(_ values: UnsafePointer<Double>, count: Int) -> Bool {
        let exponent: UInt64 = 0x7FF0_0000_0000_0000, one: UInt64 = 0x0010_0000_0000_0000
        var carried: UInt64 = 0
        for c in 0..<count { carried |= (values[c].bitPattern & exponent) &+ one }
        return carried & (1 << 63) == 0
    }

    /// What a node's Σ w × shape is multiplied by: 1 for raw values, else
    /// the reciprocal of the kernel's integral (c / πr², or 1 / 2πσ² for
    /// the Gaussian) in the projection's area unit.
    /// - Throws: ``HeatMapError/invalidConfiguration(_:)`` when that is not
    ///   a positive double (planar coordinates near the ends of its range).
    static func scale(
        kernel: DensityKernel, values: KernelValues, radius: Double, projection: PlaneProjection
    ) throws -> Double {
        let sigma = radius / 3
        let scale: Double
        switch (values, kernel) {
        case (.raw, _): scale = 1
        case (.density, .gaussian): scale = projection.areaUnitScale / (2 * Double.pi * sigma * sigma)
        case (.density, _): scale = projection.areaUnitScale * kernel.normalization / (Double.pi * radius * radius)
        }
        guard scale.isFinite, scale > 0 else {
            throw HeatMapError.invalidConfiguration(
                "the radius \(radius) is too \(scale > 0 ? "small" : "large") for the kernel's area to be a double; "
                    + "express the coordinates in a unit that brings them nearer 1")
        }
        return scale
    }

    @inline(__always)
    static func nodeValue(sum: Double, valueSum: Double, mean: Bool, scale: Double) -> Double {
        guard mean else { return sum * scale }
        return sum < 0.05 ? .nan : valueSum / sum
    }

    /// Where the row-moment scheme of this order keeps its moments.
    private func rowMomentLayout(order: Int) -> RowMomentLayout {
        RowMomentLayout(xAxis: xAxis, rows: geometry.rows, order: order, channels: channels)
    }

    /// Which points the scheme bins (the others are splatted exactly).
    var binnability: Binnability { Binnability(scheme: scheme, xAxis: xAxis, yAxis: yAxis) }

    /// The grid of everything added. O(cells) for the exact method,
    /// O(cells · planes · kernel width in cells) for the binned ones, on
    /// all cores; cancellation is polled every few rows.
    package consuming func finish(control: ComputeControl = .none) throws -> DensityGrid {
        try control.checkCancellation()
        // Only the 2-D binned schemes convolve in place; the others read.
        if scheme.convolvesInPlace, !isKnownUniquelyReferenced(&storage) {
            guard let copy = storage.copy() else { throw DensityStorage.outOfMemory }
            storage = copy
        }
        let cells = geometry.count
        let columns = geometry.columns
        let scale = try DensityAccumulator.scale(
            kernel: kernel, values: kernelValues, radius: radius, projection: projection)
        let mean = estimator == .mean
        let share = scheme.isBinned ? 0.3 : 0.97
        // The fill points into the buffers: they live until the end.
        let storage = self.storage
        defer { withExtendedLifetime(storage) {} }
        let fill = self.fill()
        // Rows that came out with a value past the largest double: the
        // weights are too large for the sums (a density is never infinite
        // or undefined otherwise; a mean is undefined only where its support
        // is too thin, which its own sums decide).
        let overflowed = Atomic<Bool>(false)

        var values = try [Double](unsafeUninitializedCapacity: cells) { out, initialized in
            let out = out.baseAddress!
            let direct = storage.direct?.base, directValue = storage.directValue?.base
            // Writes output row r from its unnormalised sums Σ w e^(…) (and
            // Σ v w e^(…)): the fill's, plus the exact splat's where it has
            // a grid. The density's two common cases get loops of their own
            // (the fill calls this through a closure, so the optimiser
            // cannot split the loop by case for us).
            func emit(_ r: Int, _ sums: UnsafePointer<Double>?) {
                let base = r * columns
                let row = out + base
                if !mean {
                    @inline(__always) func density(_ sum: Double) -> Double {
                        DensityAccumulator.nodeValue(sum: sum, valueSum: 0, mean: false, scale: scale)
                    }
                    switch (sums, direct.map { $0 + base }) {
                    case let (sums?, direct?): for c in 0..<columns { row[c] = density(sums[c] + direct[c]) }
                    case let (sums?, nil): for c in 0..<columns { row[c] = density(sums[c]) }
                    case let (nil, direct?): for c in 0..<columns { row[c] = density(0 + direct[c]) }
                    case (nil, nil): for c in 0..<columns { row[c] = density(0) }
                    }
                    if !DensityAccumulator.allFinite(UnsafePointer(row), count: columns) {
                        overflowed.store(true, ordering: .relaxed)
                    }
                    return
                }
                var sumsFinite = true
                for c in 0..<columns {
                    var den = sums?[c] ?? 0
                    if let direct { den += direct[base + c] }
                    var num = 0.0
                    if mean {
                        num = sums?[columns + c] ?? 0
                        if let directValue { num += directValue[base + c] }
                    }
                    sumsFinite = sumsFinite && den.isFinite && num.isFinite
                    row[c] = DensityAccumulator.nodeValue(sum: den, valueSum: num, mean: mean, scale: scale)
                }
                if !sumsFinite { overflowed.store(true, ordering: .relaxed) }
            }
            try fill.finish(
                control: control, progress: { f in control.report(.density, share + (1 - share) * f) },
                emit: emit)
            initialized = cells
        }
        if overflowed.load(ordering: .relaxed) {
            throw HeatMapError.sumsOverflow(values: mean)
        }
        SphereRim.mark(mean ? .nan : 0, beyondIn: &values, geometry: geometry, projection: projection)
        control.report(.density, 1)
        let units = mean || kernelValues == .raw ? "" : projection.densityUnits
        return DensityGrid(
            geometry: geometry, values: values, projection: projection, radius: radius,
            estimator: estimator, units: units, kernel: kernel, kernelValues: kernelValues)
    }
}
