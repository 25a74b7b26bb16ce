import Foundation
import HeatMapCore

/// Radius classes for points of many radii (an adaptive bandwidth, a
/// radius per point) under a kernel the Fourier convolution keeps exact
/// enough (``DensityPlan/convolutionRadiusInCells(_:)``): class radii ρₖ
/// evenly spaced in 1/ρ from ``smallest`` to ``largest``, and a point of
/// radius r shared among the three classes nearest it in 1/ρ by the
/// quadratic Lagrange weights in 1/r (``share(of:at:)``), so its kernel
/// is approximated by the mix Σₖ sₖ K_ρₖ (two classes share linearly,
/// one takes every point). Each class is then one fixed-radius
/// convolution (``RadiusClassFill``).
///
/// The shares sum to 1, so the mix keeps the mass (each K integrates to 1;
/// raw values mix the raw shapes), and they follow 1/r and 1/r² (a
/// density kernel's peak) exactly. The mix's error, for a lone point
/// relative to its own peak, grows as the square of the classes' ratio
/// h = ln(ρₖ₊₁/ρₖ): the support's edge, where the quartic's second
/// derivative jumps, moves between the classes, and no polynomial in 1/r
/// follows that jump to a higher order. The rest of the kernel is smooth
/// in 1/r, and there three classes do much better than two shared
/// linearly: at the same spacing the grids' error fell 4 to 10 times
/// (docs/density-model.md). Even spacing in 1/ρ makes h grow with ρ (to
/// about 0.5 at the widest of 10 classes), so the classes start no
/// narrower than the narrowest point: classes from below it meet the
/// points where they are spaced wide (63-cell adaptive radii of 20 000
/// points met classes from 13 cells, h = 0.34 to 0.51 where they were, and
/// erred by 1.7e−3 of the maximum, 4e−3 for the Gaussian). Where the
/// points are spread, the errors of neighbours at different distances
/// from a node cancel, and with h at most 0.1 at the narrowest class the
/// measured error stays within 2.5e−4 of the grid's maximum. Nothing makes
/// them spread: points bunched within h·r of one another (all the data
/// within one kernel, a cluster much narrower than its points' radii) add
/// their errors alike, up to the lone point's, 4.4e−3 of its peak at
/// h = 0.1. So the fill bounds the error for the points at hand
/// (``RadiusClassBound``) and refines the classes (``refined(by:)``), or
/// splats the wide points exactly, where the bound asks.
///
/// The widest class is the largest radius itself (when the classes reach
/// it): the points an adaptive bandwidth trims all have that radius, and
/// they take that one class whole, with no mix. One class alone holds
/// points of that one radius only.
struct RadiusClasses: Sendable, Hashable {
    /// ρ₀: points of a smaller radius take the exact splat.
    let smallest: Double
    /// 1/ρₖ − 1/ρₖ₊₁, the same for every k.
    let inverseStep: Double
    /// Classes (at least 1).
    let count: Int
    /// The widest class's radius, as given (not worked out from the
    /// spacing), so the points of exactly that radius take it unmixed.
    let largest: Double
    /// How far a class's kernel reaches, in its radii: 1 for the finite
    /// kernels (their support), 5/3 for the Gaussian (5σ,
    /// ``NeighbourSums/reach(kernel:radius:)``).
    let reach: Double

    /// ln(ρ₁ / ρ₀) of the classes the planner makes at most: the ratio at
    /// the narrowest class (wider classes are spaced wider, see the type).
    static let standardLogStep = 0.1

    /// Classes from `smallest` up to `largest`, the narrowest two at most
    /// `logStep` apart in ln ρ, where that is under 1 / `logStep` ×
    /// `smallest` (beyond, the classes end near that radius, spaced by
    /// `logStep` at the narrowest, and wider points take the exact splat).
    /// One class when `largest` is `smallest`.
    init(smallest: Double, largest: Double, logStep: Double = RadiusClasses.standardLogStep, reach: Double = 1) {
        self.smallest = smallest
        self.reach = reach
        // ρ₁ = ρ₀ e^logStep.
        let widest = (1 - exp(-logStep)) / smallest
        let span = max(1 / smallest - 1 / largest, 0)
        let most = Int((1 / smallest / widest).rounded(.down))
        let steps = Int((span / widest).rounded(.up))
        if steps < most {
            // Whole steps from the smallest to the largest, each at most `widest`.
            inverseStep = steps > 0 ? span / Double(steps) : widest
            count = steps + 1
            self.largest = steps > 0 ? largest : smallest
        } else {
            inverseStep = widest
            count = max(2, most)
            self.largest = 1 / (1 / smallest - Double(count - 1) * widest)
        }
    }

    private init(smallest: Double, inverseStep: Double, count: Int, largest: Double, reach: Double) {
        self.smallest = smallest
        self.inverseStep = inverseStep
        self.count = count
        self.largest = largest
        self.reach = reach
    }

    /// The same range with `factor` classes for each step of these
    /// (`factor` − 1 more between each two neighbours, evenly in 1/ρ): a
    /// point's coordinate t here is `factor` × its coordinate in these,
    /// and every class ρₖ here is class `factor` × k of the result.
    func refined(by factor: Int) -> RadiusClasses {
        guard factor > 1, count > 1 else { return self }
        return RadiusClasses(
            smallest: smallest, inverseStep: inverseStep / Double(factor), count: (count - 1) * factor + 1,
            largest: largest, reach: reach)
    }

    /// ln(ρₖ / ρₖ₋₁), for k from 1 to count − 1 (it grows with k).
    func logStep(below k: Int) -> Double { log(radius(k) / radius(k - 1)) }

    /// The radius of a point at class coordinate t (``coordinate(of:)``),
    /// to the rounding of 1/r.
    func radius(at t: Double) -> Double {
        t >= Double(count - 1) ? largest : 1 / (1 / smallest - t * inverseStep)
    }

    /// 1 / ``radius(at:)``, with no division (1/ρ is what the coordinate
    /// is even in).
    @inline(__always) func inverseRadius(at t: Double) -> Double {
        t >= Double(count - 1) ? 1 / largest : 1 / smallest - t * inverseStep
    }

    /// ρₖ.
    func radius(_ k: Int) -> Double { k == count - 1 ? largest : 1 / (1 / smallest - Double(k) * inverseStep) }

    /// How far class k's kernel reaches: ρₖ × ``reach``.
    func support(_ k: Int) -> Double { radius(k) * reach }

    /// The class coordinate t of radius r in ``smallest``…``largest``:
    /// (1/ρ₀ − 1/r) / (1/ρₖ − 1/ρₖ₊₁), k at ρₖ, clamped to 0…count − 1
    /// (0 when there is one class; count − 1 at ``largest``).
    @inline(__always) func coordinate(of r: Double) -> Double {
        guard count > 1 else { return 0 }
        if r >= largest { return Double(count - 1) }
        return min(max((1 / smallest - 1 / r) / inverseStep, 0), Double(count - 1))
    }

    /// The middle of the three classes a point at coordinate t (≥ 0) shares:
    /// the nearest class, kept off the ends.
    @inline(__always) private func middle(_ t: Double) -> Int { min(max(Int(t + 0.5), 1), count - 2) }

    /// The first of the classes a point at coordinate t shares (up to
    /// three consecutive ones, ``share(of:at:)``).
    @inline(__always) func firstClass(at t: Double) -> Int { count < 3 ? 0 : middle(t) - 1 }

    /// The first classes (of these) of the points that take a share of
    /// class k of these refined by `factor` (``refined(by:)``): k − 2
    /// through k unrefined, else those of the coordinates whose refined
    /// stencil may hold k (within 2 of it), and perhaps a few more.
    func runs(sharing k: Int, refinedBy factor: Int) -> ClosedRange<Int> {
        guard factor > 1 else { return max(k - 2, 0)...min(k, count - 1) }
        let f = Double(factor), last = Double(count - 1)
        return firstClass(at: min(max(Double(k - 2) / f, 0), last))...firstClass(at: min(Double(k + 2) / f, last))
    }

    /// Whether every class of the stencil of a point at coordinate t
    /// (``firstClass(at:)`` and up to two after it) takes a share of it
    /// other than 0 (``share(of:at:)``): all but points on a class's own
    /// radius, or within a rounding of it, whose neighbours take none.
    @inline(__always) func sharesEveryClass(at t: Double) -> Bool {
        switch count {
        case 1: return true
        case 2: return t != 0 && t != 1
        default:
            let u = t - Double(middle(t))
            return u != 0 && abs(u) != 1
        }
    }

    /// Class k's share of a point at coordinate t: the quadratic Lagrange
    /// weight of node k among the three nearest t (linear between two
    /// classes, 1 for one class alone), 0 for a class not among them. The
    /// shares of a point sum to 1; at a class's own radius (t a whole
    /// number) that class takes it whole. A share may be negative (at
    /// most an eighth of the weight, on the farther neighbour).
    @inline(__always) func share(of k: Int, at t: Double) -> Double {
        switch count {
        case 1: return 1
        case 2: return k == 0 ? 1 - t : t
        default:
            let m = middle(t), u = t - Double(m)
            switch k - m {
            case -1: return 0.5 * u * (u - 1)
            case 0: return (1 - u) * (1 + u)
            case 1: return 0.5 * u * (u + 1)
            default: return 0
            }
        }
    }

    /// Classes for points of radii up to `maximumRadius` under `kernel`
    /// on these axes, or nil where the exact splat is the better choice:
    /// `.exact` asked for, a kernel no convolution keeps within 1e−3, no
    /// radius wide enough, or (`.automatic`) too few points to repay the
    /// transforms.
    ///
    /// With a `profile` of the radii, the classes start where the cost is
    /// least: each start from the narrowest the convolution allows (or the
    /// narrowest point, if wider) upward
    /// (steps of ``standardLogStep``) is costed as the exact splat of the
    /// points narrower than it, and wider than the classes reach, plus the
    /// classes of the rest; so a few points of middling radius are
    /// splatted rather than given classes of their own. Without one, the
    /// classes start at the narrowest, costed as if every point had that
    /// radius.
    static func plan(
        method: DensityMethod, kernel: DensityKernel, maximumRadius: Double, xAxis: GaussianAxis,
        yAxis: GaussianAxis, channels: Int, pointCount: Int?, profile: RadiusProfile? = nil
    ) -> RadiusClasses? {
        guard method != .exact, let fewest = DensityPlan.classRadiusInCells(kernel) else { return nil }
        let narrowest = fewest * max(xAxis.step, yAxis.step)
        guard maximumRadius >= narrowest else { return nil }
        let reach = NeighbourSums.reach(kernel: kernel, radius: 1)
        func startingAt(_ smallest: Double) -> RadiusClasses {
            RadiusClasses(smallest: smallest, largest: maximumRadius, reach: reach)
        }
        // Classes narrower than every point only widen the spacing where the
        // points are (even in 1/ρ, it grows as ρ/ρ₀), and the mix's error
        // with its square: they start no narrower than the narrowest point.
        let lowest = max(narrowest, profile?.smallest ?? 0)
        if method == .binned { return startingAt(lowest) }
        let cells = Double(xAxis.count) * Double(yAxis.count)
        let n = Double(pointCount ?? Int(cells))
        guard let profile else {
            let classes = startingAt(narrowest)
            let splat = n * (80 + Double.pi * fewest * fewest * reach * reach * Double(channels))
            return classes.cost(points: n, transformNodes: cells, channels: Double(channels)) < splat ? classes : nil
        }
        func splat(points: Double, squares: Double) -> Double {
            splatCost(points: points, squares: squares, kernel: kernel, channels: channels, xAxis: xAxis, yAxis: yAxis)
        }
        // The exact splat of the points of radius in [a, b).
        func splat(from a: Double, below b: Double = .infinity) -> Double {
            splat(points: n * profile.share(from: a, below: b), squares: n * profile.meanSquare(from: a, below: b))
        }
        var best: (cost: Double, classes: RadiusClasses?) = (splat(from: narrowest), nil)
        func consider(_ classes: RadiusClasses, binning binned: Double, splatting splatted: Double) {
            let cost = splatted + classes.cost(points: binned, xAxis: xAxis, yAxis: yAxis, channels: channels)
            if cost < best.cost { best = (cost, classes) }
        }
        var start = lowest
        while start <= maximumRadius {
            let classes = startingAt(start)
            consider(
                classes, binning: n * profile.share(from: start, below: classes.largest.nextUp),
                splatting: splat(from: narrowest, below: start) + splat(from: classes.largest.nextUp))
            start *= exp(standardLogStep)
        }
        // The points trimmed to the largest radius alone in one class, all
        // others splatted: the profile's bins hold them with their
        // neighbours, so their splat is taken out of the bins' by hand.
        if profile.largest == maximumRadius, profile.shareAtLargest > 0 {
            let share = profile.shareAtLargest
            let theirs = splat(points: n * share, squares: n * share * maximumRadius * maximumRadius)
            consider(
                RadiusClasses(smallest: maximumRadius, largest: maximumRadius, reach: reach), binning: n * share,
                splatting: max(splat(from: narrowest) - theirs, 0))
        }
        return best.classes
    }

    /// Rough nanoseconds of CPU time of the exact splat (``DiscFill``) of
    /// `points` points whose radii's squares sum to `squares`: a set-up
    /// each, and each node of the discs their kernel reaches, π r² reach²
    /// / (δx δy) for radius r. What the classes are weighed against, by the
    /// planner and by the fill when its bound asks for finer classes.
    static func splatCost(
        points: Double, squares: Double, kernel: DensityKernel, channels: Int, xAxis: GaussianAxis,
        yAxis: GaussianAxis
    ) -> Double {
        let reach = NeighbourSums.reach(kernel: kernel, radius: 1)
        let perNode = DiscFill.nanosecondsPerNode(kernel: kernel, channels: channels) / (xAxis.step * yAxis.step)
        return 80 * points + Double.pi * squares * reach * reach * perNode
    }

    /// ``cost(points:transformNodes:channels:)`` of `n` points on these
    /// axes: transforms of ``transformLayout(xAxis:yAxis:channels:)``'s size.
    func cost(points n: Double, xAxis: GaussianAxis, yAxis: GaussianAxis, channels: Int) -> Double {
        let layout = transformLayout(xAxis: xAxis, yAxis: yAxis, channels: channels)
        return cost(
            points: n, transformNodes: 2 * Double(layout.rows) * Double(layout.columns), channels: Double(channels))
    }

    /// Rough nanoseconds of CPU time of the classes' fill (the splat it is
    /// weighed against costs about 1 ns per node in double precision,
    /// ``DiscFill/nanosecondsPerNode(kernel:channels:)``): binning per point
    /// into three classes, per class a forward transform and a quarter of one
    /// for its kernel (two kernels share a transform of half the columns,
    /// ``SpectralSum``), one inverse; a transform of G real values (the
    /// transform's complex nodes twice: ``transformLayout(xAxis:yAxis:channels:)``,
    /// about the grid's when only that is known) about 0.6 G log₂ G ns
    /// (measured on 1024 × 884 grids). An upper bound: the classes twice the
    /// narrowest's radius or wider take a quarter of that on a coarse grid
    /// (``CoarseGrid``), and the rest a transform reaching only them.
    func cost(points n: Double, transformNodes: Double, channels: Double) -> Double {
        let transform = transformNodes * (log2(max(transformNodes, 2)) + 1) * 0.6
        return n * (60 + 60 * channels) + (1.25 * Double(count) + 1) * transform
    }

    /// The Fourier transform's layout of every class: one shape for all,
    /// wide enough for the widest class's kernel.
    func transformLayout(xAxis: GaussianAxis, yAxis: GaussianAxis, channels: Int) -> DiscConvolutionLayout {
        DiscConvolutionLayout(xAxis: xAxis, yAxis: yAxis, radius: largest * reach, channels: channels)
    }

    /// The plane each class is binned into before its transform: the
    /// transform's layout packed (``DiscConvolutionLayout/init(packing:)``),
    /// about the grid's doubles rather than the transform's.
    func layout(xAxis: GaussianAxis, yAxis: GaussianAxis, channels: Int) -> DiscConvolutionLayout {
        DiscConvolutionLayout(packing: transformLayout(xAxis: xAxis, yAxis: yAxis, channels: channels))
    }
}

/// The wide points of one deposit sorted by the first class each shares
/// (``RadiusClasses/firstClass(at:)``), in input order within one, with
/// each point's class coordinate: so the points that class k bins, those
/// of first class k − 2, k − 1 and k, lie in one run. Made by
/// ``RadiusClassFill`` as it splits a slice (a stable counting sort, by
/// blocks on all cores), kept until the grid is finished.
final class RadiusClassOrder: @unchecked Sendable {
    /// The points in class order; the run of radii holds each point's
    /// class coordinate t instead (``RadiusClasses/coordinate(of:)``).
    let sorted: RadiusClassSlice
    /// Points of first class k are `starts[k] ..< starts[k + 1]`.
    private let starts: [Int]

    /// Room for points of first class k in `starts[k] ..< starts[k + 1]`,
    /// each to be set once (``RadiusClassSlice/set(_:_:_:_:_:_:)``, the
    /// coordinate in place of the radius).
    init(starts: [Int]) {
        self.starts = starts
        sorted = RadiusClassSlice(count: starts.last ?? 0)
    }

    var count: Int { sorted.count }
    var x: UnsafeMutablePointer<Double> { sorted.x }
    var y: UnsafeMutablePointer<Double> { sorted.y }
    var weight: UnsafeMutablePointer<Double> { sorted.weight }
    var value: UnsafeMutablePointer<Double> { sorted.value }
    /// The class coordinate t of each point.
    var coordinate: UnsafeMutablePointer<Double> { sorted.radius }

    /// The points of first classes `firsts`.
    func runs(_ firsts: ClosedRange<Int>) -> Range<Int> { starts[firsts.lowerBound]..<starts[firsts.upperBound + 1] }

    /// The points of first class `f`.
    func run(of f: Int) -> Range<Int> { starts[f]..<starts[f + 1] }
}

/// A depositor that bins a class's share of its points by cubic weights:
/// the rows, tiles and scratch of its ``CubicBinning``.
protocol ClassBinning: RowSorter {
    var binning: CubicBinning { get }
}

/// A class binning of points sorted into row bands once for several
/// classes: each entry (x, y, weight, t) holds the point's class
/// coordinate t (``RadiusClasses/coordinate(of:)``), read from `coordinate`
/// for the run being sorted, and its shares are taken as it is binned.
protocol ClassCoordinateBinning: ClassBinning where Entry == SIMD4<Double> {
    /// The class coordinate t of each point of the run being sorted.
    var coordinate: UnsafePointer<Double> { get }
}

extension ClassCoordinateBinning {
    @inline(__always) func entry(x: Double, y: Double, weight: Double, value: Double) -> SIMD4<Double> {
        SIMD4(x, y, weight, 0)
    }

    @inline(__always) func entry(at i: Int, x: Double, y: Double, weight: Double, value: Double) -> SIMD4<Double> {
        SIMD4(x, y, weight, coordinate[i])
    }
}

extension ClassBinning {
    var scratchCount: Int { binning.scratchCount }
    var pollInterval: Int { binning.pollInterval }
    var reachRows: Int { binning.reachRows }
    var tileWidth: Int { binning.tileWidth }

    @inline(__always) func anchor(x: Double, y: Double) -> (row: Int, column: Int)? {
        binning.anchor(x: x, y: y)
    }
}

/// Bins class `target`'s share of points sorted into row bands once for
/// every class they share (``RadiusClassRuns``): each entry holds the
/// point's weight and class coordinate t, and its share of the class is
/// taken as it is binned (``RadiusClasses/share(of:at:)``).
struct ClassRunBinning: RowDepositor, ClassCoordinateBinning {
    let binning: CubicBinning
    let coordinate: UnsafePointer<Double>
    let classes: RadiusClasses
    let target: Int
    /// What the coordinates are multiplied by for `classes` (the factor
    /// they were refined by since the points were sorted).
    var scale: Double = 1

    @inline(__always) func deposit(_ p: SIMD4<Double>, scratch: UnsafeMutablePointer<Double>) {
        binning.deposit(
            x: p[0], y: p[1], weight: p[2] * classes.share(of: target, at: p[3] * scale), value: 0, scratch: scratch)
    }
}

/// The runs of a ``RadiusClassOrder`` (the points of one first class
/// each) sorted into row bands for one grid's binning, each once for the
/// three classes that bin it, as the classes are binned in order: a run
/// is sorted when the first class needing it is binned and dropped after
/// the last. So a point is sorted once per grid, not once per class it
/// shares. One channel (the weights) only.
final class RadiusClassRuns {
    let order: RadiusClassOrder
    let binning: CubicBinning
    /// The classes the points were sorted by.
    let sortedBy: RadiusClasses
    /// The classes binned: `sortedBy` refined by `factor` (``RadiusClasses/refined(by:)``).
    let classes: RadiusClasses
    let factor: Int
    let rows: Int
    let columns: Int
    private var sorted: [Int: RowBands<SIMD4<Double>>] = [:]

    init(
        order: RadiusClassOrder, binning: CubicBinning, sortedBy: RadiusClasses, factor: Int = 1, rows: Int,
        columns: Int
    ) {
        self.order = order
        self.binning = binning
        self.sortedBy = sortedBy
        self.factor = factor
        classes = sortedBy.refined(by: factor)
        self.rows = rows
        self.columns = columns
    }

    /// Bins class k's shares of its points (``RadiusClasses/runs(sharing:refinedBy:)``),
    /// run by run. Classes must come in increasing order.
    func bin(_ k: Int, control: ComputeControl) throws {
        let runs = sortedBy.runs(sharing: k, refinedBy: factor)
        for f in sorted.keys where f < runs.lowerBound { sorted[f] = nil }
        for f in runs {
            let range = order.run(of: f)
            guard !range.isEmpty else { continue }
            let bands: RowBands<SIMD4<Double>>
            if let done = sorted[f] {
                bands = done
            } else {
                let sorter = ClassRunBinning(
                    binning: binning, coordinate: order.coordinate + range.lowerBound, classes: classes, target: k)
                bands = try RowBands(
                    x: order.x + range.lowerBound, y: order.y + range.lowerBound,
                    weight: order.weight + range.lowerBound, value: nil, count: range.count, rows: rows,
                    columns: columns, sorter: sorter, control: control)
                sorted[f] = bands
            }
            let depositor = ClassRunBinning(
                binning: binning, coordinate: order.coordinate, classes: classes, target: k, scale: Double(factor))
            try bands.run(depositor, control: control)
        }
    }
}

/// Bins the shares of points sorted into row bands once for the grid into
/// the planes of every class at once (``CubicBinning/deposit(x:y:shares:slots:stride:)``):
/// entries as ``ClassRunBinning``'s, each point's up to three classes
/// (``RadiusClasses/firstClass(at:)``) binned into plane `slot[k]` of
/// class k, none where that is below 0.
struct ClassStencilBinning: RowDepositor, ClassCoordinateBinning {
    let binning: CubicBinning
    let coordinate: UnsafePointer<Double>
    let classes: RadiusClasses
    /// The plane of each class of `classes`, or −1.
    let slot: UnsafePointer<Int>
    /// Doubles from one plane to the next.
    let stride: Int
    /// What the coordinates are multiplied by for `classes` (``ClassRunBinning/scale``).
    var scale: Double = 1

    @inline(__always) func deposit(_ p: SIMD4<Double>, scratch: UnsafeMutablePointer<Double>) {
        let t = p[3] * scale, first = classes.firstClass(at: t), count = classes.count
        var shares = SIMD3<Double>(), slots = SIMD3<Int>(repeating: -1)
        for j in 0..<min(3, count - first) {
            shares[j] = p[2] * classes.share(of: first + j, at: t)
            slots[j] = slot[first + j]
        }
        binning.deposit(x: p[0], y: p[1], shares: shares, slots: slots, stride: stride)
    }
}

/// Bins class `target`'s part of its points (``RadiusClasses/runs(sharing:refinedBy:)``)
/// by cubic weights (``CubicBinning``): each point its share of the class
/// (``RadiusClasses/share(of:at:)``) of its weight.
struct ClassShareBinning: PointDepositor, ClassBinning {
    let binning: CubicBinning
    /// The class coordinate t of each point of the run.
    let coordinate: UnsafePointer<Double>
    let classes: RadiusClasses
    let target: Int
    /// What the coordinates are multiplied by for `classes` (``ClassRunBinning/scale``).
    var scale: Double = 1

    @inline(__always) func entry(at i: Int, x: Double, y: Double, weight: Double, value: Double) -> SIMD4<Double> {
        SIMD4(x, y, weight * classes.share(of: target, at: coordinate[i] * scale), value)
    }

    @inline(__always)
    func deposit(x: Double, y: Double, weight: Double, value: Double, scratch: UnsafeMutablePointer<Double>) {
        binning.deposit(x: x, y: y, weight: weight, value: value, scratch: scratch)
    }
}
