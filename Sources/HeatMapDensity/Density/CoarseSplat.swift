import Foundation
import HeatMapCore

/// The exact splat of the wider points a ``RadiusClassFill`` splats
/// rather than bins, made on the grid of twice the step (``CoarseGrid``)
/// and read back onto the grid's nodes by its cubic interpolation, where
/// a bound on that reading's error allows.
///
/// An adaptive bandwidth's splatted points are those too narrow for the
/// radius classes; the widest of them, a few times the pilot radius in
/// sparse parts of the data, cost most: a point of radius r reaches
/// π r²/δ² nodes of step δ. On the grid of twice the step it reaches a
/// quarter as many, and at ``leastCells`` coarse cells of radius or more
/// its kernel is still sampled as finely as a fixed grid of 6 cells.
/// The splat is exact at the coarse nodes; the reading back errs near the
/// support's edge, whose kink the cubic cannot follow, by at most
/// ``error(kernel:cells:)`` of the point's peak. A point of radius 2r₀
/// or wider has a quarter of the peak of one of r₀ or less, and the
/// points that go coarse lie where the data are sparse, so the finished
/// grid moves by far less than the bound: on 10⁶ clustered points at 6
/// and 20 cells of pilot radius, by 3e-6 to 3e-5 of its maximum, for
/// about 14 ms less CPU of 240 (docs/performance.md).
///
/// The bound, as ``RadiusClassBound`` takes it: each point's worst error
/// summed over every point that may reach a node (its support and the
/// reading's taps), as if all were at their worst there, against the
/// largest node of the exact splat of the other points, a lower bound of
/// the grid's maximum (the weights are never negative). Where a node's
/// sum would pass ``tolerance``, the points of the cells that add most
/// to it take the exact splat on the grid's own step
/// (``parted(_:widest:kernel:radius:raw:xAxis:yAxis:maximum:)``).
///
/// Cost O(n + 49 C) for n points and C cells to bound them; the splat O(Σ rᵢ²/(2δ)²)
/// and the reading O(G) for G nodes, on all cores; memory the points kept
/// until the grid is finished (40 bytes each, once more while parted), a
/// quarter of the grid, and half of it while it is read back.
enum CoarseSplat {
    /// The cells of the bound across the widest point's reach.
    static let cellsPerReach = 3

    /// The fewest coarse cells of radius a point goes coarse at.
    static let leastCells = 6.0

    /// What the coarse points may add at most, relative to the grid's
    /// maximum: with the radius classes' ``RadiusClassBound/tolerance``
    /// and their coarse grids' ``RadiusClassBound/coarseTolerance``, the
    /// sum stays within the check's 1e−3.
    static let tolerance = 1e-4

    /// The largest error of a lone point's kernel splatted on the coarse
    /// grid and read back, at `cells` coarse cells of radius, relative to
    /// the kernel's peak: c / cells², c above the worst of lone points at
    /// eight offsets from the nodes, from 4 to 20 cells (the quartic's c
    /// measured 0.30–0.34, the triweight's, smooth at its edge to a higher
    /// order, 0.05–0.20). Nil below ``leastCells`` and for the other
    /// kernels: the Epanechnikov's and the triangular's corner at the edge
    /// errs as 1/cells, not 1/cells², and the Gaussian was not measured.
    static func error(kernel: DensityKernel, cells: Double) -> Double? {
        guard cells >= leastCells else { return nil }
        switch kernel {
        case .quartic: return 0.35 / (cells * cells)
        case .triweight: return 0.2 / (cells * cells)
        default: return nil
        }
    }

    /// The least radius that goes coarse on a grid of these axes: that of
    /// ``leastCells`` coarse cells along the wider step; infinity for a
    /// kernel ``error(kernel:cells:)`` does not serve and for the mean
    /// (two channels).
    static func smallestRadius(kernel: DensityKernel, xAxis: GaussianAxis, yAxis: GaussianAxis, channels: Int)
        -> Double
    {
        guard channels == 1, error(kernel: kernel, cells: leastCells) != nil else { return .infinity }
        return 2 * leastCells * max(xAxis.step, yAxis.step)
    }

    /// `points` (none wider than `widest`) parted into those that go
    /// coarse and those that keep the grid's own step, by cells a third
    /// of the widest reach: the cells whose points' summed worst errors
    /// (in the densities' units: w (R/r)² of the peak, w for raw values)
    /// would take a node past ``tolerance`` of `maximum` keep theirs fine,
    /// the largest of each such node's first. Every point that reaches a
    /// node lies in the 7 × 7 cells about the node's (a square 2⅓ reaches
    /// wide; cells a whole reach wide would sum 3 × 3 of them, more points
    /// that cannot reach it). O(n + 49 C) for C cells, the passes over the
    /// points on all cores.
    static func parted(
        _ points: [RadiusClassSlice], widest: Double, kernel: DensityKernel, radius: Double, raw: Bool,
        xAxis: GaussianAxis, yAxis: GaussianAxis, maximum: Double
    ) -> (coarse: RadiusClassSlice, fine: RadiusClassSlice) {
        let coarseStep = 2 * max(xAxis.step, yAxis.step)
        // The reach: the support and the reading's two coarse nodes either side.
        let width = (widest + 4 * coarseStep) / Double(cellsPerReach)
        let x0 = xAxis.origin, y0 = yAxis.origin, perWidth = 1 / width
        let columns = Int(Double(xAxis.count) * xAxis.step / width) + 1
        let rows = Int(Double(yAxis.count) * yAxis.step / width) + 1
        @inline(__always) func cell(_ x: Double, _ y: Double) -> Int {
            min(max(Int((y - y0) * perWidth), 0), rows - 1) * columns
                + min(max(Int((x - x0) * perWidth), 0), columns - 1)
        }
        // Each cell's summed worst errors, by blocks of each slice on all
        // cores, the blocks' sums added in order (the same bits whatever
        // the cores); blocks of 4 points a cell at least, so their sums
        // take at most 2 bytes a point.
        let size = max(16_384, 4 * rows * columns)
        let jobs = points.flatMap { slice in Parallel.blocks(of: slice.count, size: size).map { (slice, $0) } }
        let parts = Parallel.map(jobs.count) { j -> [Double] in
            let (slice, block) = jobs[j]
            var sums = [Double](repeating: 0, count: rows * columns)
            for i in block {
                let r = slice.radius[i], c = cell(slice.x[i], slice.y[i])
                // Every point here is at least leastCells coarse cells
                // wide; a narrower one would count its whole peak.
                let unit = error(kernel: kernel, cells: r / coarseStep) ?? 1
                sums[c] += unit * abs(slice.weight[i]) * (raw ? 1 : (radius / r) * (radius / r))
            }
            return sums
        }
        var sums = [Double](repeating: 0, count: rows * columns)
        for part in parts { for c in sums.indices { sums[c] += part[c] } }
        // Each node's cell's window, then the largest cells of any window
        // past the limit kept fine, their sums taken out of every window.
        let k = cellsPerReach, limit = tolerance * maximum
        func around(_ c: Int) -> (rows: ClosedRange<Int>, columns: ClosedRange<Int>) {
            let r = c / columns, col = c % columns
            return (max(r - k, 0)...min(r + k, rows - 1), max(col - k, 0)...min(col + k, columns - 1))
        }
        var windows = [Double](repeating: 0, count: rows * columns)
        for c in 0..<sums.count where sums[c] > 0 {
            let near = around(c)
            for y in near.rows { for x in near.columns { windows[y * columns + x] += sums[c] } }
        }
        // Windows in turn: taking cells out only lowers the others', so
        // each window once, its largest cells out until it is within.
        var fine = [Bool](repeating: maximum <= 0, count: rows * columns)
        for window in windows.indices where maximum > 0 {
            while windows[window] > limit {
                let near = around(window)
                var largest = -1
                for y in near.rows {
                    for x in near.columns where sums[y * columns + x] > 0 {
                        if largest < 0 || sums[y * columns + x] > sums[largest] { largest = y * columns + x }
                    }
                }
                // A window past the limit holds a cell with a sum, rounding aside.
                guard largest >= 0 else { break }
                fine[largest] = true
                let taken = around(largest)
                for y in taken.rows { for x in taken.columns { windows[y * columns + x] -= sums[largest] } }
                sums[largest] = 0
            }
        }
        // The points parted by blocks on all cores, each block's after the
        // earlier ones' (input order within each part).
        let fineFlags = fine
        let fineCounts = Parallel.map(jobs.count) { j -> Int in
            let (slice, block) = jobs[j]
            return block.reduce(0) { fineFlags[cell(slice.x[$1], slice.y[$1])] ? $0 + 1 : $0 }
        }
        let total = points.reduce(0) { $0 + $1.count }, fineCount = fineCounts.reduce(0, +)
        let coarse = RadiusClassSlice(count: total - fineCount), kept = RadiusClassSlice(count: fineCount)
        var starts: [(coarse: Int, fine: Int)] = []
        var (m, f) = (0, 0)
        for (j, job) in jobs.enumerated() {
            starts.append((m, f))
            f += fineCounts[j]
            m += job.1.count - fineCounts[j]
        }
        Parallel.forEach(jobs.count) { j in
            let (slice, block) = jobs[j]
            var (m, f) = starts[j]
            for i in block {
                let (x, y, w, r) = (slice.x[i], slice.y[i], slice.weight[i], slice.radius[i])
                if fineFlags[cell(x, y)] {
                    kept.set(f, x, y, w, nil, r)
                    f += 1
                } else {
                    coarse.set(m, x, y, w, nil, r)
                    m += 1
                }
            }
        }
        return (coarse, kept)
    }

    /// Adds the exact splat of `points` on the grid of twice the step,
    /// read back at the grid's nodes, into `density` (the grid's rows of
    /// `xAxis.count`, row-major).
    static func add(
        _ points: RadiusClassSlice, kernel: DensityKernel, radius: Double, maximumRadius: Double, raw: Bool,
        xAxis: GaussianAxis, yAxis: GaussianAxis, into density: UnsafeMutablePointer<Double>,
        control: ComputeControl
    ) throws {
        let coarseX = CoarseGrid.axis(over: xAxis), coarseY = CoarseGrid.axis(over: yAxis)
        let columns = xAxis.count, coarseColumns = coarseX.count, coarseRows = coarseY.count
        let coarse = UnsafeMutablePointer<Double>.allocate(capacity: coarseRows * coarseColumns)
        defer { coarse.deallocate() }
        coarse.initialize(repeating: 0, count: coarseRows * coarseColumns)
        try DiscFill(
            kernel: kernel, xAxis: coarseX, yAxis: coarseY, radius: radius, maximumRadius: maximumRadius, raw: raw,
            density: coarse, weightedValue: nil
        ).deposit(points, control: control)
        // The coarse rows expanded along x, then each of the grid's rows
        // read from them along y and added in.
        let expanded = UnsafeMutablePointer<Double>.allocate(capacity: coarseRows * columns)
        defer { expanded.deallocate() }
        try Parallel.forEachRange(of: coarseRows, size: 16, control: control) { block in
            for r in block {
                CoarseGrid.expand(coarse + r * coarseColumns, into: expanded + r * columns, count: columns)
            }
        }
        try Parallel.forEachRange(of: yAxis.count, size: 16, control: control) { block in
            let row = UnsafeMutablePointer<Double>.allocate(capacity: columns)
            defer { row.deallocate() }
            for r in block {
                CoarseGrid.blend(row: r, of: expanded, count: columns, into: row)
                // The reading's negative lobes below a support's edge
                // never take a node below zero, as no splat does.
                let into = density + r * columns
                for c in 0..<columns { into[c] = max(into[c] + row[c], 0) }
            }
        }
    }
}
