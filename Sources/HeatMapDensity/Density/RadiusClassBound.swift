import Foundation
import HeatMapCore

/// How finely radius classes must be spaced for the points at hand: a
/// bound on the classes' error at every node that holds wherever the
/// points are, against a lower bound of the grid's maximum.
///
/// A point mixed from classes whose widest step is h = ln(ρₖ₊₁/ρₖ) differs
/// from its own kernel, at any distance, by at most ``mixError(kernel:logStep:)``
/// of its own peak: the support's edge falls between the classes, an
/// error of order h² that no polynomial in 1/r removes (``RadiusClasses``).
/// Where points are spread evenly those errors cancel between neighbours,
/// but nothing makes them: points bunched within h·r of one another (a
/// cluster narrower than its kernel, or all the data inside one kernel)
/// add their errors alike, so the error at a node may be the sum of every
/// reaching point's worst. That sum is what is bounded here, on a coarse
/// grid of cells a quarter of the narrowest class wide:
///
/// - above, at every cell: Σ eᵢ wᵢ (R/rᵢ)² over the points in the square
///   of whole cells that holds every point within reach of the cell (the
///   reach being the widest class a point is mixed from);
/// - the maximum below: the larger of the exact splat's maximum and, at
///   every corner of the cells, Σ wᵢ (R/rᵢ)² K(d/ρ) over the points in the
///   squares of whole cells about the corner, d the farthest such a point
///   lies from the node nearest the corner and ρ the narrowest radius it
///   may have.
///
/// The weights are never negative, so both bounds hold for any data; the
/// bound is the sum of worst cases, tight for bunched points and a few
/// times the real error for spread ones.
///
/// Cost O(N + C·K·J) for N points, C coarse cells (about 16 G δ²/ρ₀² for
/// G nodes of step δ, at most ``largestCoarseGrid``), K classes and J ≤ 8
/// rings (the refinement's on all cores); memory K + 2 coarse grids, and
/// one more per core while the groups are counted.
enum RadiusClassBound {
    /// The error the mix may add relative to the grid's maximum (the check's bound is 1e−3).
    static let tolerance = 5e-4

    /// The most classes are refined by (``RadiusClasses/refined(by:)``)
    /// before the exact splat is the better choice.
    static let largestFactor = 16

    /// The most cells of the coarse grid: memory 8 bytes a cell for each
    /// class and two more.
    static let largestCoarseGrid = 1 << 18

    /// The largest error of a point's kernel mixed from classes at most
    /// `logStep` apart in ln ρ (three shared quadratically, or two
    /// linearly), relative to the point's peak: c h², c fitted above the
    /// worst point (at a stencil's end, the quartic 0.56 h² at h = 0.02,
    /// 0.44 h² at 0.1, two classes 0.68 h²; the triweight, smooth to a
    /// higher order at its edge, 0.05–0.22 h² for h from 0.02 to 0.5). The
    /// Gaussian, smooth everywhere, is taken as the quartic: not fitted,
    /// and above its error (its lone points and mixes in RadiusClassTests).
    static func mixError(kernel: DensityKernel, logStep h: Double) -> Double {
        (kernel == .triweight ? 0.25 : 0.7) * h * h
    }

    /// The least factor in 1…``largestFactor`` that refines `classes`
    /// until the bound is within ``tolerance`` of the grid's maximum (1
    /// when they are already), or nil when none does.
    ///
    /// - Parameters:
    ///   - points: the wide points, by first class of `classes`.
    ///   - radius: the radius the density is normalised by (R).
    ///   - splatMaximum: the largest node of the exact splat of the other
    ///     points (Σ w (R/r)² shape, as the classes sum).
    static func refinement(
        of classes: RadiusClasses, points: [RadiusClassOrder], kernel: DensityKernel, radius: Double,
        xAxis: GaussianAxis, yAxis: GaussianAxis, splatMaximum: Double
    ) -> Int? {
        guard classes.count > 1 else { return 1 }
        // The points' box, by blocks of each deposit on all cores.
        let blocks = points.flatMap { slice in Parallel.blocks(of: slice.count).map { (slice, $0) } }
        let boxes = Parallel.map(blocks.count) { b -> SIMD4<Double> in
            let (slice, block) = blocks[b]
            var box = SIMD4<Double>(.infinity, -.infinity, .infinity, -.infinity)
            for i in block {
                box = SIMD4(
                    min(box[0], slice.x[i]), max(box[1], slice.x[i]), min(box[2], slice.y[i]), max(box[3], slice.y[i]))
            }
            return box
        }
        var minX = Double.infinity, maxX = -Double.infinity, minY = Double.infinity, maxY = -Double.infinity
        for box in boxes {
            minX = min(minX, box[0])
            maxX = max(maxX, box[1])
            minY = min(minY, box[2])
            maxY = max(maxY, box[3])
        }
        guard minX <= maxX, minY <= maxY else { return 1 }
        // A quarter of the narrowest class, or wider where that would make
        // more than ``largestCoarseGrid`` cells (both bounds hold for any
        // cell; wider ones are looser).
        let cell = max(classes.smallest / 4, ((maxX - minX) * (maxY - minY) / Double(largestCoarseGrid)).squareRoot())
        let columns = Int((maxX - minX) / cell) + 1, rows = Int((maxY - minY) / cell) + 1
        // The prefix tables' rows and columns: one more than the cells'.
        let width = columns + 1, height = rows + 1
        // The node nearest any point lies at most half a cell diagonal from it.
        let nodeOffset = (xAxis.step * xAxis.step + yAxis.step * yAxis.step).squareRoot() / 2
        // Each group (the points of one first class: their reach and step
        // are its) apart on all cores: its prefix table, prefix[(y, x)] =
        // Σ w (R/r)² over the cells below row y and left of column x, and
        // the kernel's falls about each corner it takes the maximum's lower
        // bound from. Every sum below is then taken cell by cell in group
        // order, so the bound is the same whatever the cores.
        let groups = classes.count < 3 ? 1 : classes.count - 2
        // Each group's cell sums by blocks of its runs on all cores (a
        // group may hold most points), added in block order.
        let runs = (0..<groups).flatMap { first in
            points.flatMap { slice in
                let run = slice.run(of: first)
                return sumBlocks(of: run, cells: rows * columns).map { (first, slice, $0) }
            }
        }
        let perCell = 1 / cell
        let runSums = Parallel.map(runs.count) { k -> [Double] in
            let (_, slice, run) = runs[k]
            var sums = [Double](repeating: 0, count: rows * columns)
            sums.withUnsafeMutableBufferPointer { sums in
                for i in run {
                    let ratio = radius * classes.inverseRadius(at: slice.coordinate[i])
                    let c = min(Int((slice.x[i] - minX) * perCell), columns - 1)
                    let row = min(Int((slice.y[i] - minY) * perCell), rows - 1)
                    sums[row * columns + c] += slice.weight[i] * ratio * ratio
                }
            }
            return sums
        }
        let made = Parallel.map(groups) { first -> (first: Int, prefix: [Double], falls: [Double])? in
            var sums = [Double](repeating: 0, count: rows * columns)
            var any = false
            for k in runs.indices where runs[k].0 == first {
                for cell in sums.indices { sums[cell] += runSums[k][cell] }
                any = true
            }
            guard any else { return nil }
            var prefix = [Double](repeating: 0, count: height * width)
            for y in 0..<rows {
                var run = 0.0
                for x in 0..<columns {
                    run += sums[y * columns + x]
                    prefix[(y + 1) * width + x + 1] = prefix[y * width + x + 1] + run
                }
            }
            // The rings about each corner: the points within j cells of it
            // along both axes lie within j √2 cells of it, and each has at
            // least the group's narrowest radius; ring j weighs the fall of
            // the kernel from its distance to the next one's.
            let narrowest = classes.radius(first)
            var shapes: [Double] = []
            for j in 1...8 {
                let d = (Double(j) * cell * 2.squareRoot() + nodeOffset) / narrowest
                guard d < 1 else { break }
                shapes.append(kernel.shape(squaredDistanceRatio: d * d))
            }
            let falls = shapes.indices.map { shapes[$0] - (($0 + 1) < shapes.count ? shapes[$0 + 1] : 0) }
            return (first, prefix, falls)
        }
        let prefixes = made.compactMap { $0 }
        guard !prefixes.isEmpty else { return 1 }
        // The maximum's lower bound at every corner, by bands of rows.
        var low = [Double](repeating: 0, count: height * width)
        low.withUnsafeMutableBufferPointer { low in
            let low = UncheckedSendable(low)
            Parallel.forEach((rows + 16) / 16) { band in
                for y in band * 16..<min(band * 16 + 16, rows + 1) {
                    for (_, prefix, falls) in prefixes where !falls.isEmpty {
                        for x in 0...columns {
                            var total = 0.0
                            for (j, fall) in falls.enumerated() {
                                total +=
                                    fall
                                    * box(
                                        prefix, width: width, height: height, rows: y - j - 1..<y + j + 1,
                                        columns: x - j - 1..<x + j + 1)
                            }
                            low.value[y * width + x] += total
                        }
                    }
                }
            }
        }
        let maximum = max(splatMaximum, LargestValue.of(low))
        guard maximum > 0 else { return 1 }
        for factor in 1...largestFactor {
            let fine = classes.refined(by: factor)
            // Each group's error per unit and reach, in cells.
            let terms = prefixes.map { (first, prefix, _) -> (prefix: [Double], error: Double, reach: Int) in
                // The widest class a point of this group takes a share of,
                // and the widest step below it (steps grow with ρ).
                let top = min(first + 2, classes.count - 1)
                let widest = factor == 1 ? top : min(top * factor + 1, fine.count - 1)
                let error = mixError(kernel: kernel, logStep: fine.logStep(below: widest))
                return (prefix, error, Int(fine.support(widest) / cell) + 1)
            }
            // The worst cell of each band of rows.
            let worst = Parallel.map((rows + 15) / 16) { band -> Double in
                var worst = 0.0
                for y in band * 16..<min(band * 16 + 16, rows) {
                    for x in 0..<columns {
                        var bound = 0.0
                        for (prefix, error, reach) in terms {
                            bound +=
                                error
                                * box(
                                    prefix, width: width, height: height, rows: y - reach..<y + reach + 1,
                                    columns: x - reach..<x + reach + 1)
                        }
                        worst = max(worst, bound)
                    }
                }
                return worst
            }
            if (worst.max() ?? 0) <= tolerance * maximum { return factor }
        }
        return nil
    }

    /// `range` cut into blocks for sums of `cells` cells each, one array
    /// of them per block on all cores: ``Parallel/blocks(of:size:)``'s
    /// size, or 4 points a cell where the cells are more, so the blocks'
    /// arrays take at most 2 bytes a point. The blocks depend on the
    /// points alone, so their sums added in order are the same bits on
    /// any cores.
    private static func sumBlocks(of range: Range<Int>, cells: Int) -> [Range<Int>] {
        Parallel.blocks(of: range.count, size: max(65_536, 4 * cells)).map {
            $0.lowerBound + range.lowerBound..<$0.upperBound + range.lowerBound
        }
    }

    /// The sum over the cells of `rows` × `columns` (clipped to the grid)
    /// from a prefix table of `height` rows of `width` (given, not divided
    /// out of its count at every call).
    @inline(__always) private static func box(
        _ prefix: [Double], width: Int, height: Int, rows: Range<Int>, columns: Range<Int>
    ) -> Double {
        let y0 = max(rows.lowerBound, 0), y1 = min(rows.upperBound, height - 1)
        let x0 = max(columns.lowerBound, 0), x1 = min(columns.upperBound, width - 1)
        guard y0 < y1, x0 < x1 else { return 0 }
        return prefix[y1 * width + x1] - prefix[y0 * width + x1] - prefix[y1 * width + x0] + prefix[y0 * width + x0]
    }
}

extension RadiusClassBound {
    /// What the classes moved to a coarse grid by ``coarseStart(used:current:classes:scale:points:runs:kernel:radius:raw:xAxis:yAxis:maximum:factor:)``
    /// may add at most, relative to the grid's maximum, on each of the
    /// grids of twice and four times the step: with the mix's
    /// ``tolerance`` and the binning's on the grid's own step, the sum
    /// stays within the check's 1e−3.
    static let coarseTolerance = 1e-4

    /// The largest error of a lone point's class kernel convolved on the
    /// coarse grid (``CoarseGrid``: binned there, read back by its cubic
    /// interpolation) at `cells` coarse cells of radius, relative to the
    /// kernel's peak, over offsets from the nodes: c / cells², c above the
    /// worst of lone points at eight offsets from 9.5 to 20 cells (the
    /// binning's and the reading's errors both come of the support edge's
    /// kink: the quartic's c measured 0.344–0.357, the triweight's, smooth
    /// there to a higher order, 0.033 at 20 cells rising to 0.101 at 9.5);
    /// nil below 9.5 cells, where the convolution on the grid's own step
    /// begins, and for the Gaussian, not measured.
    static func coarseError(kernel: DensityKernel, cells: Double) -> Double? {
        guard cells >= 9.5 else { return nil }
        switch kernel {
        case .quartic: return 0.45 / (cells * cells)
        case .triweight: return 0.14 / (cells * cells)
        default: return nil
        }
    }

    /// The first of `used` (class indices of `classes`, increasing) that
    /// may go on the coarse grid, at most `current` (the index of the first
    /// the coarse grid takes by its own rule, twice the narrowest's radius
    /// or wider; `used.count` for none): the least s ≤ `current` such that
    /// the classes `used[s ..< current]` on the coarse grid err, summed over
    /// every point that reaches a node as if each erred its worst there,
    /// by at most ``coarseTolerance`` of `maximum` (a lower bound of the
    /// grid's maximum). A point's error in class k is |sₖ| w (R/ρₖ)² (w
    /// for raw values) × ``coarseError(kernel:cells:)`` at ρₖ, within
    /// ρₖ's support and the binning's and the reading's taps of it; the
    /// sums are taken over cells that wide, each node's nine about it.
    /// Narrower classes put on the coarse grid spare the fine grid's
    /// transforms of them, a quarter of the nodes each. With `factor` 4
    /// the same bound places the widest of the coarse grid's classes on
    /// the grid of four times the step (its own ``coarseTolerance``),
    /// their error taken 1.25 times ``coarseError(kernel:cells:)`` there:
    /// they are read back through the coarse grid too.
    ///
    /// - Parameters:
    ///   - scale: what the points' coordinates are multiplied by for
    ///     `classes` (``RadiusClassRuns/factor``).
    ///   - points: the wide points, by first class of the classes they were sorted by.
    ///   - runs: the first classes (of those the points were sorted by) of
    ///     the points that may share class k of `classes`.
    ///   - factor: the coarse grid's step in the grid's steps, 2 or 4.
    static func coarseStart(
        used: [Int], current: Int, classes: RadiusClasses, scale: Double, points: [RadiusClassOrder],
        runs: (Int) -> ClosedRange<Int>, kernel: DensityKernel, radius: Double, raw: Bool, xAxis: GaussianAxis,
        yAxis: GaussianAxis, maximum: Double, factor: Double = 2
    ) -> Int {
        guard current > 0, maximum > 0 else { return current }
        let step = max(xAxis.step, yAxis.step)
        // Read back through the coarse grid of twice the step too, whose
        // interpolation of the already smooth sums errs by about a
        // quarter as much again (a kink smoothed over half the cells).
        let readings = factor > 2 ? 1.25 : 1
        // The error of each candidate class per unit of a point's share and weight.
        // (Those with none, too narrow on the coarse grid, and all below them stay.)
        var unit = [Double](repeating: 0, count: current)
        var lowest = current
        while lowest > 0 {
            let rho = classes.radius(used[lowest - 1])
            guard let error = coarseError(kernel: kernel, cells: rho / (factor * step)) else { break }
            unit[lowest - 1] = readings * error * (raw ? 1 : (radius / rho) * (radius / rho))
            lowest -= 1
        }
        guard lowest < current else { return current }
        var slot = [Int](repeating: -1, count: classes.count)
        for s in lowest..<current { slot[used[s]] = s }
        // Cells as wide as the widest candidate reaches: its support, two
        // coarse nodes of binning taps and two of reading taps.
        let width = classes.support(used[current - 1]) + 4 * factor * step
        let x0 = xAxis.origin, y0 = yAxis.origin, perWidth = 1 / width
        let columns = Int(Double(xAxis.count) * xAxis.step / width) + 1
        let rows = Int(Double(yAxis.count) * yAxis.step / width) + 1
        // Each block of each deposit's points (those that share a
        // candidate) summed apart on all cores, the blocks' sums then
        // added in order (the same bits whatever the cores).
        let cells = current * rows * columns
        let parts = points.flatMap { sorted in
            sumBlocks(
                of: sorted.runs(runs(used[lowest]).lowerBound...runs(used[current - 1]).upperBound), cells: cells
            ).map { (sorted, $0) }
        }
        let partSums = Parallel.map(parts.count) { p -> [Double] in
            let (sorted, range) = parts[p]
            var sums = [Double](repeating: 0, count: cells)
            // Through pointers: arrays read and written in the loop are
            // checked for bounds and uniqueness at every point.
            sums.withUnsafeMutableBufferPointer { sums in
                slot.withUnsafeBufferPointer { slot in
                    unit.withUnsafeBufferPointer { unit in
                        let sums = sums.baseAddress!, slot = slot.baseAddress!, unit = unit.baseAddress!
                        for i in range {
                            let t = sorted.coordinate[i] * scale, first = classes.firstClass(at: t)
                            let c = min(max(Int((sorted.x[i] - x0) * perWidth), 0), columns - 1)
                            let r = min(max(Int((sorted.y[i] - y0) * perWidth), 0), rows - 1)
                            let w = sorted.weight[i]
                            for k in first..<min(first + 3, classes.count) where slot[k] >= 0 {
                                sums[(slot[k] * rows + r) * columns + c] +=
                                    abs(classes.share(of: k, at: t) * w) * unit[slot[k]]
                            }
                        }
                    }
                }
            }
            return sums
        }
        var sums = [Double](repeating: 0, count: cells)
        for part in partSums { for cell in sums.indices { sums[cell] += part[cell] } }
        // The candidates from the widest down, their sums added cell by cell.
        var total = [Double](repeating: 0, count: rows * columns)
        var start = current
        for s in stride(from: current - 1, through: lowest, by: -1) {
            for cell in 0..<(rows * columns) { total[cell] += sums[s * rows * columns + cell] }
            var worst = 0.0
            for r in 0..<rows {
                for c in 0..<columns {
                    var window = 0.0
                    for y in max(r - 1, 0)...min(r + 1, rows - 1) {
                        for x in max(c - 1, 0)...min(c + 1, columns - 1) { window += total[y * columns + x] }
                    }
                    worst = max(worst, window)
                }
            }
            guard worst <= coarseTolerance * maximum else { break }
            start = s
        }
        return start
    }
}
