import Foundation
import HeatMapCore

/// The exact splat of the uniform disc by its chords: a point adds its
/// weight to every node within its radius (d ≤ r, the edge included), and
/// on each row those nodes are one run of columns. So a point writes only
/// the run's ends, a step up of w at its first node and down past its
/// last, into a band's own rows of steps; a running sum along each row
/// then turns the steps into the discs, and is added into the grid.
///
/// A point costs O(rows it reaches) rather than O(nodes) (about 40 rows
/// against 1 250 nodes at a radius of 20 cells); the running sums cost
/// O(nodes) per band. The runs are found by the test the node-by-node
/// splat makes (``DiscSplat``: (c·dx − x)² + dy² ≤ r² on the same
/// doubles), so both cover the same nodes. Alongside the steps, each row
/// counts the runs open at a column (integers, exact): where none is, the
/// running sum is reset to an exact zero, so the rounding of the steps'
/// sum never leaves a trace outside every disc. Within a run the sum is
/// within a few ulps of the row's weights so far.
///
/// Points are sorted into row bands (``RowBands``), each band's steps
/// kept in rows of its own (the rows its points reach); bands of one
/// parity reach disjoint rows and run in parallel, so every node gets its
/// sums in a fixed order, the same bits on any number of cores. Memory:
/// 12 bytes per node of the bands running at once.
struct ChordSplat<Entry: DiscPoint> {
    /// The node-by-node splat of the same disc: its sort, anchors and
    /// entries (each weight times its normalisation) are this one's.
    let disc: DiscSplat<UniformShape, Entry>

    /// Adds every point of `bands` into the disc's density.
    func run(
        _ bands: RowBands<Entry>, control: ComputeControl, progress: (@Sendable (Int) -> Void)? = nil
    ) throws {
        let rows = disc.yAxis.count, reach = disc.reachRows
        let poll = max(disc.pollInterval, 1)
        try bands.forEachBand(control: control) { b in
            let first = max(bands.cuts[b] - reach, 0), last = min(bands.cuts[b + 1] + reach, rows)
            guard first < last, bands.starts[b] < bands.starts[b + 1] else { return }
            let steps = try StepRows(rows: first..<last, columns: disc.xAxis.count)
            defer { steps.deallocate() }
            try bands.forEachEntry(ofBand: b, poll: poll, control: control) { deposit($0, into: steps) }
            steps.add(into: disc.density)
            progress?(bands.starts[b + 1] - bands.starts[b])
        }
    }

    /// Point `p`'s runs, one per row its disc reaches, as steps.
    @inline(__always) private func deposit(_ p: Entry, into steps: StepRows) {
        let w = p.weight
        guard w != 0 else { return }
        let xAxis = disc.xAxis, yAxis = disc.yAxis
        let r = p.radius(or: disc.radius), reachSquared = r * r
        let xs = xAxis.span(of: p.x, reach: r), ys = yAxis.span(of: p.y, reach: r)
        guard xs.lo <= xs.hi, ys.lo <= ys.hi else { return }
        // The node-by-node splat's test of node c on a row dy² away.
        @inline(__always) func inside(_ c: Int, _ dy2: Double) -> Bool {
            let d = xAxis.origin + Double(c) * xAxis.step - p.x
            return d * d + dy2 <= reachSquared
        }
        // A chord's ends in fractional columns, centre ± half, decide its
        // nodes where they lie farther from every node than their rounding
        // and the test's could move them (a few ulps of the coordinates in
        // steps, and of r² over the half chord near the disc's top and
        // bottom, each 10⁶ times over); nearer, the test decides.
        let inverseStep = 1 / xAxis.step, centre = xAxis.index(of: p.x)
        let lo = Double(xs.lo), hi = Double(xs.hi)
        let coordinates = 1e-9 * (1 + (abs(p.x) + abs(xAxis.origin) + r) * inverseStep)
        let squares = 1e-9 * reachSquared * inverseStep * inverseStep
        for row in ys.lo...ys.hi {
            let dy = yAxis.origin + Double(row) * yAxis.step - p.y
            let dy2 = dy * dy
            let chordSquared = reachSquared - dy2
            guard chordSquared >= 0 else { continue }
            let half = chordSquared.squareRoot() * inverseStep
            // coordinates + squares / half, with no division where half ≥
            // 10⁻³ (a wider margin: squares / half ≤ 10³ squares).
            let margin = half >= 1e-3 ? coordinates + squares * 1e3 : coordinates + squares / half
            let a = centre - half, b = centre + half
            guard a <= hi + margin, b >= lo - margin else { continue }
            var c0 = xs.lo, c1 = xs.hi
            if margin >= 0.25 {
                // Too near the top or bottom of a disc many nodes wide for
                // a step to settle an end: each end walked to where the test changes.
                c0 = min(max(GaussianAxis.ceiling(min(max(a, lo - 1), hi + 1)), xs.lo), xs.hi + 1)
                while c0 > xs.lo, inside(c0 - 1, dy2) { c0 -= 1 }
                while c0 <= xs.hi, !inside(c0, dy2) { c0 += 1 }
                c1 = min(max(GaussianAxis.floor(min(max(b, lo - 1), hi + 1)), c0 - 1), xs.hi)
                while c1 < xs.hi, inside(c1 + 1, dy2) { c1 += 1 }
                while c1 >= c0, !inside(c1, dy2) { c1 -= 1 }
            } else {
                if a >= lo - margin {
                    c0 = GaussianAxis.ceiling(a)
                    if Double(c0) - a < margin {
                        if !inside(c0, dy2) { c0 += 1 }
                    } else if a - Double(c0 - 1) < margin, inside(c0 - 1, dy2) {
                        c0 -= 1
                    }
                    c0 = max(c0, xs.lo)
                }
                if b <= hi + margin {
                    c1 = GaussianAxis.floor(b)
                    if b - Double(c1) < margin {
                        if !inside(c1, dy2) { c1 -= 1 }
                    } else if Double(c1 + 1) - b < margin, inside(c1 + 1, dy2) {
                        c1 += 1
                    }
                    c1 = min(c1, xs.hi)
                }
            }
            guard c0 <= c1 else { continue }
            steps.add(w, row: row, from: c0, through: c1)
        }
    }
}

/// Rows of steps and of open-run counts over `columns + 1` slots (a run
/// may end past the last column), for the grid rows `rows`; zero at first.
struct StepRows {
    let rows: Range<Int>
    let columns: Int
    private let steps: UnsafeMutablePointer<Double>
    private let opened: UnsafeMutablePointer<Int32>

    init(rows: Range<Int>, columns: Int) throws {
        let slots = rows.count * (columns + 1)
        guard let steps = calloc(slots, MemoryLayout<Double>.stride),
            let opened = calloc(slots, MemoryLayout<Int32>.stride)
        else { throw DensityStorage.outOfMemory }
        self.rows = rows
        self.columns = columns
        self.steps = steps.assumingMemoryBound(to: Double.self)
        self.opened = opened.assumingMemoryBound(to: Int32.self)
    }

    func deallocate() {
        free(steps)
        free(opened)
    }

    /// A run of `w` over columns `c0 ... c1` of grid row `row`.
    @inline(__always) func add(_ w: Double, row: Int, from c0: Int, through c1: Int) {
        let base = (row - rows.lowerBound) * (columns + 1)
        steps[base + c0] += w
        steps[base + c1 + 1] -= w
        opened[base + c0] &+= 1
        opened[base + c1 + 1] &-= 1
    }

    /// The running sums of every row added into `grid` (row-major,
    /// `columns` a row): nothing where no run is open.
    func add(into grid: UnsafeMutablePointer<Double>) {
        for row in rows {
            let base = (row - rows.lowerBound) * (columns + 1)
            let target = grid + row * columns
            var sum = 0.0, open: Int32 = 0
            for c in 0..<columns {
                open &+= opened[base + c]
                sum += steps[base + c]
                if open == 0 {
                    sum = 0
                } else {
                    target[c] += sum
                }
            }
        }
    }
}
