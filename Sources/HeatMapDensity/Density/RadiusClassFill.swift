import Foundation
import HeatMapCore

/// The fill of points of many radii (``DensityScheme/radiusClasses(_:)``):
/// the points at least the smallest class radius wide are kept, sorted by
/// class as they come (``RadiusClassOrder``), and when the grid is
/// finished binned once into a plane per class (``ClassStencilBinning``;
/// one class at a time into one plane where those would be too many),
/// each class convolved with its kernel and the convolutions summed by one
/// inverse transform (``ClassConvolution``): the classes twice the
/// narrowest's radius or wider on a grid of twice the step (``CoarseGrid``),
/// the widest of those on one of four times the step as far as a bound on
/// their error allows, the others on the grid's own, whose transform then
/// reaches only them;
/// the narrower points (and any the
/// binning cannot place) take the exact splat (``DiscFill``) into the
/// exact-splat grid as they come.
///
/// Cost O(N + K · G log G) for N points, K classes and G nodes, where the
/// exact splat of every point costs O(Σ rᵢ²/δ²): an adaptive bandwidth's
/// wide radii cost no more than its narrow ones. Memory: the wide points
/// (40 bytes each) and the classes' planes, at most 64 MiB or one plane.
struct RadiusClassFill: DensityFill {
    let kernel: DensityKernel
    let xAxis: GaussianAxis
    let yAxis: GaussianAxis
    /// The radius the density is normalised by (the pilot's).
    let radius: Double
    /// The largest radius of any point.
    let maximumRadius: Double
    /// Raw values: no normalisation carried in the weights.
    let raw: Bool
    let classes: RadiusClasses
    /// 1, or 2 for the mean estimator.
    let channels: Int
    /// One flag per class: whether any point uses it.
    let flags: UnsafeMutablePointer<Double>
    /// The wide points, kept until the grid is finished.
    let points: RadiusClassPoints
    /// The exact splat's sums, Σ w shape and (mean) Σ v w shape.
    let density: UnsafeMutablePointer<Double>
    let weightedValue: UnsafeMutablePointer<Double>?
    /// Whether the wide points take the exact splat where the classes the
    /// bound asks for (``RadiusClassBound``) would cost more (`.automatic`);
    /// else (`.binned`) only where no refinement is fine enough.
    var splatsWhenCheaper = true
    /// The radius of each point of the slice being deposited.
    var radii: UnsafePointer<Double>? = nil

    func deposit(
        x: UnsafePointer<Double>, y: UnsafePointer<Double>, weight: UnsafePointer<Double>,
        value: UnsafePointer<Double>?, count n: Int, control: ComputeControl,
        progress: @escaping @Sendable (Int) -> Void
    ) throws {
        guard let radii else {
            throw HeatMapError.invalidConfiguration("radius classes need a radius per point")
        }
        // The points split into the binned and the splatted, in input
        // order, by blocks on all cores: a count, then each block's copy.
        let flags = self.flags
        let smallest = classes.smallest, largest = classes.largest, classCount = classes.count
        let coarseFrom = CoarseSplat.smallestRadius(kernel: kernel, xAxis: xAxis, yAxis: yAxis, channels: channels)
        // Each point's class coordinate, found once by the count and read
        // by the copy: −1 for a point splatted, −3 for one splatted on the
        // coarse grid when the grid is finished (``CoarseSplat``), −2 for
        // one of weight 0.
        let coordinates = UnsafeMutablePointer<Double>.allocate(capacity: max(n, 1))
        defer { coordinates.deallocate() }
        // The wide points sorted by first class as they are copied (a
        // stable counting sort: each block's count per class, then its copy).
        let blocks = Parallel.blocks(of: n)
        let counted = try Parallel.map(blocks.count, control: control) {
            b -> (wide: [Int], narrow: Int, coarse: Int, used: [Bool]) in
            var wide = [Int](repeating: 0, count: classCount), narrow = 0, coarse = 0
            var used = [Bool](repeating: false, count: classCount)
            // The first classes of points whose whole stencil takes a share,
            // marked used once after the loop; a point on a class's radius,
            // whose neighbours may take none, is marked by its shares.
            var stencils = [Bool](repeating: false, count: classCount)
            // Counted through pointers: an array mutated in the loop is
            // checked for uniqueness at every point.
            wide.withUnsafeMutableBufferPointer { wide in
                stencils.withUnsafeMutableBufferPointer { stencils in
                    for i in blocks[b] {
                        let r = radii[i]
                        guard weight[i] != 0 else {
                            coordinates[i] = -2
                            continue
                        }
                        guard r >= smallest && r <= largest,
                            CubicBinning.contains(x: x[i], y: y[i], xAxis: xAxis, yAxis: yAxis)
                        else {
                            if r >= coarseFrom {
                                coordinates[i] = -3
                                coarse += 1
                            } else {
                                coordinates[i] = -1
                                narrow += 1
                            }
                            continue
                        }
                        let t = classes.coordinate(of: r), first = classes.firstClass(at: t)
                        coordinates[i] = t
                        wide[first] += 1
                        if classes.sharesEveryClass(at: t) {
                            stencils[first] = true
                        } else {
                            for k in first..<min(first + 3, classCount) where classes.share(of: k, at: t) != 0 {
                                used[k] = true
                            }
                        }
                    }
                }
            }
            for first in 0..<classCount where stencils[first] {
                for k in first..<min(first + 3, classCount) { used[k] = true }
            }
            return (wide, narrow, coarse, used)
        }
        var classStart = [Int](repeating: 0, count: classCount + 1), narrowStart = [0], coarseStart = [0]
        for part in counted {
            for k in 0..<classCount { classStart[k + 1] += part.wide[k] }
            narrowStart.append(narrowStart.last! + part.narrow)
            coarseStart.append(coarseStart.last! + part.coarse)
            for k in 0..<classCount where part.used[k] { flags[k] = 1 }
        }
        for k in 0..<classCount { classStart[k + 1] += classStart[k] }
        // Where each block's points of each class go: after the earlier blocks'.
        var next = Array(classStart.dropLast())
        var wideStart: [[Int]] = []
        for part in counted {
            wideStart.append(next)
            for k in 0..<classCount { next[k] += part.wide[k] }
        }
        let wide = RadiusClassOrder(starts: classStart), narrow = RadiusClassSlice(count: narrowStart.last!)
        let coarse = RadiusClassSlice(count: coarseStart.last!)
        // Each block's copy, and the widest of its splatted points.
        let widest = try Parallel.map(blocks.count, control: control) { b -> Double in
            var at = wideStart[b], m = narrowStart[b], mc = coarseStart[b], widest = 0.0
            at.withUnsafeMutableBufferPointer { at in
                for i in blocks[b] {
                    let t = coordinates[i]
                    // A value only for the mean: the density's stay unwritten.
                    if t >= 0 {
                        let first = classes.firstClass(at: t)
                        wide.sorted.set(at[first], x[i], y[i], weight[i], value?[i], t)
                        at[first] += 1
                    } else if t == -1 {
                        narrow.set(m, x[i], y[i], weight[i], value?[i], radii[i])
                        widest = max(widest, radii[i])
                        m += 1
                    } else if t == -3 {
                        coarse.set(mc, x[i], y[i], weight[i], nil, radii[i])
                        mc += 1
                    }
                }
            }
            return widest
        }
        if wide.count > 0 { points.slices.append(wide) }
        if coarse.count > 0 { points.coarse.append(coarse) }
        progress(n - narrow.count)
        guard narrow.count > 0 else { return }
        // The splat's bands and tiles are as tall and wide as its widest
        // point reaches: the narrow points' own widest, mostly below the
        // classes' narrowest, not the widest of all (at 20 cells of pilot
        // radius, 21 cells against 81: 5 bands for two cores, and tiles
        // beyond the first-level cache).
        var fill = DiscFill(
            kernel: kernel, xAxis: xAxis, yAxis: yAxis, radius: radius,
            maximumRadius: min(widest.max() ?? maximumRadius, maximumRadius),
            raw: raw, density: density, weightedValue: weightedValue)
        fill.radii = UnsafePointer(narrow.radius)
        try fill.deposit(
            x: narrow.x, y: narrow.y, weight: narrow.weight,
            value: value == nil ? nil : UnsafePointer(narrow.value),
            count: narrow.count, control: control, progress: progress)
    }

    func finish(
        control: ComputeControl, progress: @escaping @Sendable (Double) -> Void,
        emit: (Int, UnsafePointer<Double>?) -> Void
    ) throws {
        try splatCoarsePoints(control: control)
        let sortedBy = classes
        let marked = (0..<sortedBy.count).filter { flags[$0] != 0 }
        guard let lowest = marked.first, let highest = marked.last, !points.slices.isEmpty else {
            try emitGridRows(yAxis.count, control: control, emit: emit)
            return
        }
        let columns = xAxis.count, rows = yAxis.count
        let mean = channels == 2
        // Classes as fine as the points at hand need (``RadiusClassBound``),
        // or, finer than it allows, every wide point's exact splat. (The
        // mean never takes classes, ``DensityAccumulator``'s radius scheme.)
        var refinement = 1
        var splatMaximum = 0.0
        if !mean {
            splatMaximum = LargestValue.of(UnsafeBufferPointer(start: density, count: rows * columns))
            let found = RadiusClassBound.refinement(
                of: sortedBy, points: points.slices, kernel: kernel, radius: radius, xAxis: xAxis, yAxis: yAxis,
                splatMaximum: splatMaximum)
            guard let found, found == 1 || !splatsWhenCheaper || refinedCost(found) < splatCost() else {
                try splatWidePoints(control: control)
                try emitGridRows(yAxis.count, control: control, emit: emit)
                progress(1)
                return
            }
            refinement = found
        }
        let classes = sortedBy.refined(by: refinement)
        // The classes refined from the marked ones and their neighbours (a
        // refined class between two marked may take points of either).
        let used = Array(max((lowest - 1) * refinement, 0)...min((highest + 1) * refinement, classes.count - 1))
            .filter { refinement > 1 || flags[$0] != 0 }
        // The classes twice the narrowest in use wide or more go through the
        // grid of twice the step (``CoarseGrid``): their peak is a quarter
        // of a narrower point's, which takes a class of the grid's own step
        // (not of the narrowest class, which may hold no point); and the
        // narrower ones too as far as a bound on their error there allows
        // (``RadiusClassBound/coarseStart(used:current:classes:scale:points:runs:kernel:radius:raw:xAxis:yAxis:maximum:factor:)``),
        // the grid's maximum being at least the exact splat's. The one channel only.
        let narrowestUsed = used.first.map { classes.radius($0) } ?? classes.smallest
        // The first of `list` the bound lets onto the grid of `factor` times the step.
        func coarseStart(of list: [Int], current: Int, factor: Double) -> Int {
            RadiusClassBound.coarseStart(
                used: list, current: current, classes: classes, scale: Double(refinement),
                points: points.slices, runs: { sortedBy.runs(sharing: $0, refinedBy: refinement) }, kernel: kernel,
                radius: radius, raw: raw, xAxis: xAxis, yAxis: yAxis, maximum: splatMaximum, factor: factor)
        }
        var coarse = mean ? [] : used.filter { classes.radius($0) >= 2 * narrowestUsed }
        if coarse.count == used.count { coarse = [] }
        if !mean { coarse = Array(used[coarseStart(of: used, current: used.count - coarse.count, factor: 2)...]) }
        // The widest of those on the grid of four times the step, as far
        // as the same bound allows there (the sums read back through both
        // coarse grids); one at least stays on the coarse grid, whose
        // rows take theirs.
        var coarser: [Int] = []
        if !mean, coarse.count > 1 {
            coarser = Array(coarse[max(coarseStart(of: coarse, current: coarse.count, factor: 4), 1)...])
            coarse.removeLast(coarser.count)
        }
        let fine = Array(used.dropLast(coarse.count + coarser.count))
        let shape = kernel
        // Class k's kernel at node offset (i, j) of a grid of steps dx, dy:
        // the shape of radius ρₖ, times (R / ρₖ)² for densities (each
        // point's weight carries no normalisation here).
        func kernelValue(_ k: Int, _ i: Int, _ j: Int, dx: Double, dy: Double) -> Double {
            let rho = classes.radius(k)
            let x = Double(i) * dx, y = Double(j) * dy
            let d2 = x * x + y * y, rr = rho * rho
            guard d2 <= rr * classes.reach * classes.reach else { return 0 }
            let factor = raw ? 1 : (radius / rho) * (radius / rho)
            return factor * shape.shape(squaredDistanceRatio: d2 / rr)
        }
        // Class k's plane: its points' shares binned into the plane, which
        // is zero (as allocated, and as each term's transform leaves it),
        // one deposit's points after another.
        func bin(_ k: Int, _ binning: CubicBinning, rows: Int, columns: Int) throws {
            for sorted in points.slices {
                let range = sorted.runs(sortedBy.runs(sharing: k, refinedBy: refinement))
                guard !range.isEmpty else { continue }
                let depositor = ClassShareBinning(
                    binning: binning, coordinate: sorted.coordinate + range.lowerBound, classes: classes, target: k,
                    scale: Double(refinement))
                try RowBands.deposit(
                    depositor, x: sorted.x + range.lowerBound, y: sorted.y + range.lowerBound,
                    weight: sorted.weight + range.lowerBound,
                    value: mean ? UnsafePointer(sorted.value + range.lowerBound) : nil,
                    count: range.count, rows: rows, columns: columns, control: control, progress: nil)
            }
        }
        var total = 0.0
        var done = 0
        // Σ |binned| of class k's parts: the weights, both parts or (mean) the real one.
        func tally(_ k: Int, _ magnitude: (re: Double, im: Double)) {
            let factor = raw ? 1 : max(1, (radius / classes.radius(k)) * (radius / classes.radius(k)))
            total += (mean ? magnitude.re : magnitude.re + magnitude.im) * factor
            done += 1
            progress(0.9 * Double(done) / Double(used.count))
        }
        func convolve(_ list: [Int], on convolution: ClassConvolution) throws {
            let dx = convolution.xAxis.step, dy = convolution.yAxis.step
            let binRows = convolution.yAxis.count, binColumns = convolution.xAxis.count
            // The weights alone: every class's plane binned in one pass
            // over the points that share any of them (each deposit's
            // points sorted once for this grid), or where their planes
            // are too many, class by class (each deposit's runs sorted
            // once for this grid).
            func binAll(_ binning: CubicBinning, stride: Int) throws {
                var slot = [Int](repeating: -1, count: classes.count)
                for (s, k) in list.enumerated() { slot[k] = s }
                let firsts =
                    sortedBy.runs(sharing: list.first!, refinedBy: refinement)
                    .lowerBound...sortedBy.runs(sharing: list.last!, refinedBy: refinement).upperBound
                try slot.withUnsafeBufferPointer { slot in
                    for sorted in points.slices {
                        let range = sorted.runs(firsts)
                        guard !range.isEmpty else { continue }
                        let depositor = ClassStencilBinning(
                            binning: binning, coordinate: sorted.coordinate + range.lowerBound, classes: classes,
                            slot: slot.baseAddress!, stride: stride, scale: Double(refinement))
                        try RowBands.deposit(
                            depositor, x: sorted.x + range.lowerBound, y: sorted.y + range.lowerBound,
                            weight: sorted.weight + range.lowerBound, value: nil, count: range.count, rows: binRows,
                            columns: binColumns, control: control, progress: nil)
                    }
                }
            }
            var runs: [RadiusClassRuns] = []
            try convolution.add(
                list, support: classes.support, kernel: { kernelValue($0, $1, $2, dx: dx, dy: dy) }, control: control,
                binAll: mean ? nil : binAll,
                bin: { k, binning in
                    guard !mean else { return try bin(k, binning, rows: binRows, columns: binColumns) }
                    if runs.isEmpty {
                        runs = points.slices.map {
                            RadiusClassRuns(
                                order: $0, binning: binning, sortedBy: sortedBy, factor: refinement, rows: binRows,
                                columns: binColumns)
                        }
                    }
                    for run in runs { try run.bin(k, control: control) }
                }, done: tally)
            try convolution.sum.inverse(control: control)
        }
        // The classes of `list` convolved on the grid of twice the step of
        // one over `overX` and `overY`, with the sums of `within` (wider
        // classes) on the grid of twice its step again read into its rows;
        // returned expanded along x (its rows, `overX`'s nodes a row), to
        // be read along y (``CoarseGrid/blend(row:of:count:into:)``).
        func coarseSums(
            _ list: [Int], over overX: GaussianAxis, _ overY: GaussianAxis, within: [Int]
        ) throws -> UnsafeMutablePointer<Double> {
            let coarseX = CoarseGrid.axis(over: overX), coarseY = CoarseGrid.axis(over: overY)
            let inner = try within.isEmpty ? nil : coarseSums(within, over: coarseX, coarseY, within: [])
            defer { inner?.deallocate() }
            let convolution = try ClassConvolution(
                xAxis: coarseX, yAxis: coarseY, reach: classes.support(list.last!), channels: channels)
            try convolve(list, on: convolution)
            let grid = UnsafeMutablePointer<Double>.allocate(capacity: coarseY.count * overX.count)
            do {
                try convolution.transform.emitRows(
                    re: convolution.sum.sumRe.base, im: convolution.sum.sumIm.base, rows: coarseY.count,
                    columns: coarseX.count, floor: -.infinity, control: control,
                    adding: inner.map { inner in
                        { r, row in CoarseGrid.blend(row: r, of: inner, count: coarseX.count, into: row) }
                    }
                ) { r, sums in
                    CoarseGrid.expand(sums!, into: grid + r * overX.count, count: overX.count)
                }
            } catch {
                grid.deallocate()
                throw error
            }
            return grid
        }
        // The coarse classes first, their sums expanded along x into
        // `expanded` (the coarse grid's rows, the grid's columns), read
        // along y as the grid's rows are handed out.
        let expanded = try coarse.isEmpty ? nil : coarseSums(coarse, over: xAxis, yAxis, within: coarser)
        defer { expanded?.deallocate() }
        guard let narrowWidest = fine.last else {
            // Every class on the coarse grid: its sums read back alone.
            let floor = 1e-13 * total
            let grid = expanded!
            try Parallel.forEachRange(of: rows, size: 16, control: control) { block in
                let sums = UnsafeMutablePointer<Double>.allocate(capacity: columns)
                defer { sums.deallocate() }
                for r in block {
                    CoarseGrid.blend(row: r, of: grid, count: columns, into: sums)
                    for c in 0..<columns where sums[c] < floor { sums[c] = 0 }
                    emit(r, sums)
                }
            }
            progress(1)
            return
        }
        let convolution = try ClassConvolution(
            xAxis: xAxis, yAxis: yAxis, reach: classes.support(narrowWidest), channels: channels)
        try convolve(fine, on: convolution)
        // Below this a sum is the transforms' rounding.
        let floor = 1e-13 * total
        let adding = expanded.map { grid in
            { (r: Int, row: UnsafeMutablePointer<Double>) in
                CoarseGrid.blend(row: r, of: grid, count: columns, into: row)
            }
        }
        try convolution.transform.emitRows(
            re: convolution.sum.sumRe.base, im: convolution.sum.sumIm.base, rows: rows, columns: columns,
            floor: floor, control: control, adding: adding, emit: emit)
        progress(1)
    }

    /// Rough nanoseconds of the classes refined by `factor`
    /// (``RadiusClasses/cost(points:xAxis:yAxis:channels:)``).
    private func refinedCost(_ factor: Int) -> Double {
        let n = points.slices.reduce(0) { $0 + $1.count }
        return classes.refined(by: factor).cost(points: Double(n), xAxis: xAxis, yAxis: yAxis, channels: channels)
    }

    /// Rough nanoseconds of every wide point's exact splat, as the planner
    /// costs it (``RadiusClasses/splatCost(points:squares:kernel:channels:xAxis:yAxis:)``).
    private func splatCost() -> Double {
        var count = 0, squares = 0.0
        for sorted in points.slices {
            count += sorted.count
            for i in 0..<sorted.count {
                let r = classes.radius(at: sorted.coordinate[i])
                squares += r * r
            }
        }
        return RadiusClasses.splatCost(
            points: Double(count), squares: squares, kernel: kernel, channels: channels, xAxis: xAxis, yAxis: yAxis)
    }

    /// The splatted points kept for the coarse grid added into the
    /// exact-splat grid: through the coarse grid where ``CoarseSplat``'s
    /// bound allows against the largest node so far (the other splatted
    /// points'), else each point's exact splat (``DiscFill``).
    private func splatCoarsePoints(control: ComputeControl) throws {
        let kept = points.coarse.filter { $0.count > 0 }
        guard !kept.isEmpty else { return }
        var widest = 0.0
        for slice in kept { for i in 0..<slice.count { widest = max(widest, slice.radius[i]) } }
        widest = min(widest, maximumRadius)
        let maximum = LargestValue.of(UnsafeBufferPointer(start: density, count: xAxis.count * yAxis.count))
        let (coarse, fine) = CoarseSplat.parted(
            kept, widest: widest, kernel: kernel, radius: radius, raw: raw, xAxis: xAxis, yAxis: yAxis,
            maximum: maximum)
        if coarse.count > 0 {
            try CoarseSplat.add(
                coarse, kernel: kernel, radius: radius, maximumRadius: widest, raw: raw, xAxis: xAxis, yAxis: yAxis,
                into: density, control: control)
        }
        guard fine.count > 0 else { return }
        try DiscFill(
            kernel: kernel, xAxis: xAxis, yAxis: yAxis, radius: radius, maximumRadius: widest, raw: raw,
            density: density, weightedValue: nil
        ).deposit(fine, control: control)
    }

    /// Every wide point's exact splat (``DiscFill``) into the exact-splat
    /// grid, its radius from its class coordinate.
    private func splatWidePoints(control: ComputeControl) throws {
        var fill = DiscFill(
            kernel: kernel, xAxis: xAxis, yAxis: yAxis, radius: radius, maximumRadius: maximumRadius,
            raw: raw, density: density, weightedValue: weightedValue)
        for sorted in points.slices where sorted.count > 0 {
            let radii = UnsafeMutablePointer<Double>.allocate(capacity: sorted.count)
            defer { radii.deallocate() }
            for i in 0..<sorted.count { radii[i] = classes.radius(at: sorted.coordinate[i]) }
            fill.radii = UnsafePointer(radii)
            try fill.deposit(
                x: sorted.x, y: sorted.y, weight: sorted.weight,
                value: channels == 2 ? UnsafePointer(sorted.value) : nil, count: sorted.count, control: control,
                progress: { _ in })
        }
    }
}

/// The wide points of a ``RadiusClassFill``, sorted by class, one run per
/// deposit, and the splatted ones wide enough for the coarse grid, kept
/// until the grid is finished. A copy of the storage shares the runs
/// (never written once kept) in lists of its own.
final class RadiusClassPoints: @unchecked Sendable {
    var slices: [RadiusClassOrder]
    /// The splatted points wide enough for the coarse grid (``CoarseSplat``),
    /// one slice per deposit, splatted when the grid is finished.
    var coarse: [RadiusClassSlice]

    init(slices: [RadiusClassOrder] = [], coarse: [RadiusClassSlice] = []) {
        self.slices = slices
        self.coarse = coarse
    }

    func copy() -> RadiusClassPoints { RadiusClassPoints(slices: slices, coarse: coarse) }
}

extension DiscFill {
    /// The exact splat of `points`, each of its own radius, into the
    /// density alone (their values unread).
    func deposit(_ points: RadiusClassSlice, control: ComputeControl) throws {
        var fill = self
        fill.radii = UnsafePointer(points.radius)
        try fill.deposit(
            x: points.x, y: points.y, weight: points.weight, value: nil, count: points.count, control: control,
            progress: { _ in })
    }
}

/// Points gathered from a slice: coordinates, weights, values and radii,
/// five runs of `count` doubles in one block, which blocks of the slice on
/// all cores fill at disjoint points. The values are set only where the
/// points have them (the mean's), and read only then.
final class RadiusClassSlice: @unchecked Sendable {
    let count: Int
    private let storage: UnsafeMutablePointer<Double>

    /// Room for `count` points, each to be set once before it is read
    /// (not cleared first: the fill sets every one, and doubles need no
    /// initialising).
    init(count: Int) {
        self.count = count
        storage = .allocate(capacity: 5 * max(count, 1))
    }

    deinit { storage.deallocate() }

    var x: UnsafeMutablePointer<Double> { storage }
    var y: UnsafeMutablePointer<Double> { storage + count }
    var weight: UnsafeMutablePointer<Double> { storage + 2 * count }
    var value: UnsafeMutablePointer<Double> { storage + 3 * count }
    var radius: UnsafeMutablePointer<Double> { storage + 4 * count }

    @inline(__always) func set(_ i: Int, _ px: Double, _ py: Double, _ w: Double, _ v: Double?, _ r: Double) {
        x[i] = px
        y[i] = py
        weight[i] = w
        if let v { value[i] = v }
        radius[i] = r
    }
}
