import Foundation
import HeatMapCore

/// The exact disc splat of a kernel that is a power of 1 − d²/r² (the
/// Epanechnikov, the quartic and the triweight: ``BandPower``), one radius
/// for all points or each point its own, in single precision: each row
/// band's points (``RowBands``, which this sorts them into) add
/// w (1 − d²/r²)^p into a `Float` copy of the band's rows, and every
/// ``flushInterval`` points the columns they touched (in all the band's
/// rows) are added into the `Double` sums and cleared.
///
/// Per point, with s = w^(1/p) and offsets in radii: the column terms
/// uⱼ = s (dxⱼ/r)² of its span, four lanes per vector register, kept in
/// registers (spans of up to four steps, wider ones four steps at a time;
/// ``BandLanes``); the row terms
/// aᵢ = s (1 − (dyᵢ/r)²), four rows per step; and each node of the span's
/// rectangle adds max(aᵢ − uⱼ, 0)^p, which is w (1 − d²/r²)^p inside the
/// disc and 0 outside it: no mask of the chord, no bounds, no table. On
/// the default x86-64 target that is seven instructions per four nodes
/// for the quartic (a subtract, a max against a zero kept in a register,
/// a square, a load, an add and a store, and a copy), one fewer for the
/// Epanechnikov and one more for the triweight. The spans come from rounding
/// (``NodeSpan``), not floor and ceiling. Lanes past the span (at most
/// three, in the rows' padding past the last column) add zeros. The
/// square root q of s a point starts from (s = q², one multiply),
/// and with one radius for all the nodes its disc reaches, are worked out
/// while the points are sorted (``BandPoint``, ``BandEntry``), where
/// they cost little beside the sort's scattered stores; in the splat they
/// are a chain of dependent instructions ahead of every point's first row.
///
/// The error stays far inside the 1e−3 bound: the point's offsets from
/// its span's first row and column are floats within 2⁻²⁰ of a node, s is
/// w^(1/p) to a relative 3 × 2⁻²⁴ (q rounded once, then squared), so a, u
/// and their difference are within about 5e−7 of s, a term within
/// about p × 5e−7 of the kernel's peak w, and a float sum of
/// at most ``flushInterval`` non-negative terms is within
/// 1024 × 2⁻²⁴ ≈ 6.1e−5 of its exact value. Weights are scaled by a power
/// of two that brings the slice's largest to [1, 2), so no sum overflows a
/// float; a weight below 2⁻¹⁰⁰ of the largest may lose its terms to
/// float underflow, which is below 1e−30 of the grid's maximum (at least
/// about the largest weight, the kernel's peak being 1).
struct BandSplat<Entry: BandPoint, Power: BandPower>: RowSorter {
    let xAxis: GaussianAxis
    let yAxis: GaussianAxis
    /// The largest radius of any point; the radius of every point when
    /// `radii` is nil.
    let maximumRadius: Double
    /// The radius the finish normalises by (nil for raw values): a point
    /// of its own radius carries its normalisation in its weight
    /// (``DiscRules/weight(_:radius:normalisingRadius:)``).
    let normalisingRadius: Double?
    /// The radius of each point of the slice, or nil.
    let radii: UnsafePointer<Double>?
    /// Σ w shape, row-major.
    let density: UnsafeMutablePointer<Double>
    /// What the entries are placed on the grid by.
    private let frame: BandFrame

    init(
        xAxis: GaussianAxis, yAxis: GaussianAxis, maximumRadius: Double, normalisingRadius: Double?,
        radii: UnsafePointer<Double>?, density: UnsafeMutablePointer<Double>
    ) {
        self.xAxis = xAxis
        self.yAxis = yAxis
        self.maximumRadius = maximumRadius
        self.normalisingRadius = normalisingRadius
        self.radii = radii
        self.density = density
        frame = BandFrame(xAxis: xAxis, yAxis: yAxis, maximumRadius: maximumRadius)
    }

    /// The power of two the weights are scaled by when the largest is
    /// `largest` (normal): it brings that to [1, 2).
    @inline(__always) static func scale(forLargest largest: Double) -> Double {
        // 2^−e from its bits while that is normal (the sort asks once a
        // point; Double(sign:exponent:significand:) is a call there).
        let e = largest.exponent
        return e < Double.greatestFiniteMagnitude.exponent
            ? Double(bitPattern: UInt64(Double.greatestFiniteMagnitude.exponent &- e) << 52)
            : Double(sign: .plus, exponent: -e, significand: 1)
    }

    // The sort (``RowSorter``): a point belongs to its disc's node, writes
    // the rows its largest radius reaches, and keeps the root of its
    // weight scaled by the slice's largest (``BandPower/entryWeight(_:)``).

    /// Columns per tile of the sort (``RowSorter/tileWidth``): 32 rather
    /// than the default 8. The sort's scatter writes one stream of entries
    /// per band and tile: 4 096 of them at resolution 1024 with tiles of 8
    /// columns, where the scatter was a fifth of the grid's samples; with
    /// 1 024 it took a fifth less time, and a tile of a band's float sums (its rows
    /// by 32 + 2 × reach columns, 10 KB at 6 cells) still fits in the L1
    /// cache for the splat. By band alone (32 streams) the splat took a
    /// third more (docs/performance.md).
    var tileWidth: Int { 32 }

    var reachRows: Int { Int(min(maximumRadius / yAxis.step + 1, Double(yAxis.count))) + 1 }

    @inline(__always) func anchor(x: Double, y: Double) -> (row: Int, column: Int)? {
        DiscRules.anchor(x: x, y: y, reach: maximumRadius, xAxis: xAxis, yAxis: yAxis)
    }

    @inline(__always) func magnitude(at i: Int, weight: Double) -> Double {
        radii.map { DiscRules.weight(weight, radius: $0[i], normalisingRadius: normalisingRadius) } ?? weight
    }

    /// A point of the common radius whose weight is already scaled (the
    /// sort itself asks for ``entry(at:x:y:weight:value:largest:)``).
    @inline(__always) func entry(x: Double, y: Double, weight: Double, value: Double) -> Entry {
        Entry(x: x, y: y, radius: maximumRadius, scaledWeight: Power.entryWeight(weight), frame: frame)
    }

    @inline(__always)
    func entry(at i: Int, x: Double, y: Double, weight: Double, value: Double, largest: Double) -> Entry {
        // A largest that is not normal leaves the splat to the double one
        // (``DiscFill``): these entries are not read.
        let scale = largest.isNormal ? Self.scale(forLargest: largest) : 1
        return Entry(
            x: x, y: y, radius: radii?[i] ?? maximumRadius,
            scaledWeight: Power.entryWeight(magnitude(at: i, weight: weight) * scale), frame: frame)
    }

    /// Points between flushes of a band's float sums.
    static var flushInterval: Int { 1024 }
    /// Columns per vector step.
    typealias Lanes = SIMD4<Float>
    static var lanes: Int { Lanes.scalarCount }

    /// Splats the points of `bands`, sorted by this splat with the slice's
    /// weights scaled by `scale` (``scale(forLargest:)`` of the
    /// ``RowBands/largestMagnitude``), which the flush divides out.
    ///
    /// A band cannot be cut shorter than its points' reach, so one dense
    /// cluster may put a large share of the points in one band, and one
    /// core would splat it while the others wait (on 10⁶ clustered points
    /// at 6 cells, a third of the splat's wall time ran on one core). So
    /// each band's points are cut into pieces (``pieces(of:total:nodes:rows:spareRows:)``),
    /// which run side by side: the first adds into the grid, each other
    /// into a cleared copy of the band's rows of its own, and those copies
    /// are added into the grid in piece order once the phase is done. The
    /// cut depends on the data alone, so every node still takes its terms
    /// in a fixed order, the same bits on any number of cores.
    func run(
        _ bands: RowBands<Entry>, scale: Double, control: ComputeControl,
        progress: (@Sendable (Int) -> Void)?
    ) throws {
        let rows = yAxis.count, columns = xAxis.count, reachRows = self.reachRows
        let phases = bands.overlap ? 2 : 1
        let unscale = 1 / scale
        let density = self.density
        let total = bands.starts.last! - bands.starts.first!
        // The most nodes a point reaches: its disc's at the largest radius.
        let nodes = Double.pi * (maximumRadius / xAxis.step) * (maximumRadius / yAxis.step)
        try bands.entries.withUnsafeBufferPointer { entries in
            let entries = entries.baseAddress!
            for phase in 0..<phases {
                // The phase's pieces, band by band, and where each piece
                // past a band's first keeps its rows.
                var pieces: [(band: Int, points: Range<Int>, rows: Range<Int>, copy: Int?)] = []
                var copied = 0
                for b in stride(from: phase, to: bands.count, by: phases) {
                    let lo = max(0, bands.cuts[b] - reachRows), hi = min(rows, bands.cuts[b + 1] + reachRows)
                    guard lo < hi else { continue }
                    let start = bands.starts[b], end = bands.starts[b + 1]
                    let spareRows = max(rows * columns - copied, 0) / columns
                    let count = Self.pieces(
                        of: end - start, total: total, nodes: nodes, rows: hi - lo, spareRows: spareRows)
                    for j in 0..<count {
                        let points = start + (end - start) * j / count..<start + (end - start) * (j + 1) / count
                        pieces.append((b, points, lo..<hi, j == 0 ? nil : copied))
                        if j > 0 { copied += (hi - lo) * columns }
                    }
                }
                let copies = copied > 0 ? UnsafeMutablePointer<Double>.allocate(capacity: copied) : nil
                defer { copies?.deallocate() }
                try Parallel.forEach(pieces.count) { k in
                    let piece = pieces[k]
                    try control.checkCancellation()
                    var target = density, targetRow = 0
                    if let copy = piece.copy, let copies {
                        // Cleared by the core that fills it.
                        target = copies + copy
                        target.initialize(repeating: 0, count: piece.rows.count * columns)
                        targetRow = piece.rows.lowerBound
                    }
                    try splat(
                        rows: piece.rows, into: target, targetRow: targetRow, unscale: unscale, control: control
                    ) { sums, stride, terms, flush in
                        var i = piece.points.lowerBound
                        while i < piece.points.upperBound {
                            let stop = min(piece.points.upperBound, i + BandSplat.flushInterval)
                            var touched = BandTouch()
                            while i < stop {
                                deposit(
                                    entries[i], sums: sums, firstRow: piece.rows.lowerBound, stride: stride,
                                    terms: terms, touched: &touched)
                                i += 1
                            }
                            try flush(touched)
                        }
                    }
                    progress?(piece.points.count)
                }
                guard let copies else { continue }
                // The copies into the grid, each band's in piece order (the
                // phase's bands write rows apart).
                let copiedBands = Array(Set(pieces.compactMap { $0.copy == nil ? nil : $0.band })).sorted()
                try Parallel.forEach(copiedBands.count, control: control) { k in
                    for piece in pieces where piece.band == copiedBands[k] {
                        guard let copy = piece.copy else { continue }
                        let count = piece.rows.count * columns
                        let source = copies + copy, into = density + piece.rows.lowerBound * columns
                        for j in 0..<count { into[j] += source[j] }
                    }
                }
            }
        }
    }

    /// How many pieces a band of `count` of the slice's `total` points is
    /// splatted in (``run(_:scale:control:progress:)``), each reaching
    /// about `nodes` nodes a point: one per ``pieceShare`` of the points,
    /// of at least ``leastPiece`` nodes' work, as far as copies of the
    /// band's `rows` fit in `spareRows` rows (the copies of a phase hold
    /// at most the grid's nodes).
    static func pieces(of count: Int, total: Int, nodes: Double, rows: Int, spareRows: Int) -> Int {
        let fewest = Int((leastPiece / max(nodes, 1)).rounded(.up))
        let size = max(fewest, (total + pieceShare - 1) / pieceShare, 1)
        let wanted = (count + size - 1) / size
        return max(1, min(wanted, 1 + spareRows / max(rows, 1)))
    }

    /// The points of a piece: a 32nd of the slice's, so that with two
    /// cores the last piece to finish leaves little time idle.
    static var pieceShare: Int { 32 }
    /// The least work of a piece, in nodes reached (about a millisecond),
    /// so that a few points' copies cost little beside their splat.
    static var leastPiece: Double { Double(1 << 21) }

    /// Splats points 0 ..< `windows.count` of (`x`, `y`, `weight`), held
    /// together in tiles, chunk by chunk into their windows (``RowWindows``)
    /// with no sort, the weights scaled as the sort would
    /// (by ``scale(forLargest:)`` of ``RowWindows/largestMagnitude``).
    func run(
        _ windows: RowWindows, x: UnsafePointer<Double>, y: UnsafePointer<Double>, weight: UnsafePointer<Double>,
        control: ComputeControl, progress: (@Sendable (Int) -> Void)?
    ) throws {
        let columns = xAxis.count, density = self.density
        let largest = windows.largestMagnitude
        let unscale = 1 / Self.scale(forLargest: largest)
        try windows.run(control: control, progress: progress) { points, window, rows in
            try splat(rows: rows, into: window, targetRow: rows.lowerBound, unscale: unscale, control: control) {
                sums, stride, terms, flush in
                var i = points.lowerBound
                while i < points.upperBound {
                    let stop = min(points.upperBound, i + BandSplat.flushInterval)
                    var touched = BandTouch()
                    while i < stop {
                        // The points the sort would leave out: of weight 0, or missing the grid.
                        if weight[i] != 0, writes(x: x[i], y: y[i]) {
                            let p = entry(at: i, x: x[i], y: y[i], weight: weight[i], value: 0, largest: largest)
                            deposit(
                                p, sums: sums, firstRow: rows.lowerBound, stride: stride, terms: terms,
                                touched: &touched)
                        }
                        i += 1
                    }
                    try flush(touched)
                }
            }
        } target: { row in
            density + row * columns
        }
    }

    /// Runs `body(sums, stride, terms, flush)` with float sums of the
    /// grid's `rows` (`stride` floats a row, cleared) and scratch for a
    /// point's terms; `body` splats its points in runs of at most
    /// ``flushInterval``, calling `flush(touched)` after each, which adds the nodes they
    /// touched (times `unscale`) into `target`, whose first row is grid row
    /// `targetRow` (rows of the grid's columns), and clears them.
    @inline(__always)
    private func splat(
        rows: Range<Int>, into target: UnsafeMutablePointer<Double>, targetRow: Int, unscale: Double,
        control: ComputeControl,
        _ body: (
            UnsafeMutablePointer<Float>, Int, (columns: UnsafeMutablePointer<Lanes>, rows: UnsafeMutablePointer<Lanes>),
            (BandTouch) throws -> Void
        ) throws -> Void
    ) throws {
        let columns = xAxis.count, lanes = BandSplat.lanes
        let reachColumns = Int(min(maximumRadius / xAxis.step + 1, Double(columns))) + 1
        // Rows padded so that a span's last step may run past the last column.
        let stride = columns + lanes
        // Per point: its column terms (spans too wide for the registers),
        // then its row terms, each a whole number of steps.
        let steps = (2 * reachColumns + lanes) / lanes
        let rowSteps = (2 * reachRows + lanes) / lanes
        let sums = UnsafeMutablePointer<Float>.allocate(capacity: rows.count * stride)
        sums.initialize(repeating: 0, count: rows.count * stride)
        let scratch = UnsafeMutablePointer<Lanes>.allocate(capacity: steps + rowSteps)
        defer {
            sums.deallocate()
            scratch.deallocate()
        }
        try body(sums, stride, (columns: scratch, rows: scratch + steps)) { touched in
            flush(
                sums, rows: rows, stride: stride, touched: touched, unscale: unscale, into: target,
                targetRow: targetRow)
            try control.checkCancellation()
        }
    }

    /// Adds one point into the band's float sums (rows from `firstRow`,
    /// `stride` floats apart), widening `touched` (columns and rows of the
    /// grid) to what it wrote. `terms` is scratch for its row terms, and its column
    /// terms when they do not fit the registers.
    @inline(__always)
    private func deposit(
        _ p: Entry, sums: UnsafeMutablePointer<Float>, firstRow: Int, stride: Int,
        terms: (columns: UnsafeMutablePointer<Lanes>, rows: UnsafeMutablePointer<Lanes>),
        touched: inout BandTouch
    ) {
        // √s: zero when w is (or its root underflows: its terms would be zeros).
        let q = p.root
        guard q > 0, let f = p.footprint(in: frame) else { return }
        let sf = q * q
        let lanes = BandSplat.lanes
        let steps = (f.lastColumn &- f.column) &>> lanes.trailingZeroBitCount &+ 1, height = f.lastRow &- f.row &+ 1
        // The rows too: a chunk's window (``RowWindows``) may hold several
        // tiles' rows, of which a flush's points reach one or two.
        touched.left = min(touched.left, f.column)
        touched.right = max(touched.right, f.column &+ steps &* lanes &- 1)
        touched.top = min(touched.top, f.row)
        touched.bottom = max(touched.bottom, f.lastRow)
        // aᵢ = s (1 − (dyᵢ/r)²) for row f.row + i, four at a time, the
        // point at row `f.fy` of the span.
        var k = Lanes(0, 1, 2, 3) - f.fy
        for g in 0..<(height + lanes - 1) / lanes {
            let dy = k * f.stepDown
            terms.rows[g] = sf - sf * dy * dy
            k += 4
        }
        let a = UnsafeRawPointer(terms.rows).assumingMemoryBound(to: Float.self)
        // uⱼ = s (dxⱼ/r)² = (√s dxⱼ/r)² for lane j, at column f.column + j.
        let fx = f.fx
        let step = f.stepAcross * q
        let dst = sums + (f.row - firstRow) * stride + f.column
        // Spans of up to four steps (16 columns: radii up to 7.5 nodes)
        // keep their column terms in registers, one loop per count.
        switch steps {
        case 1: Self.rows(Lanes.self, fx, step, a, height, dst, stride)
        case 2: Self.rows(TwoSteps.self, fx, step, a, height, dst, stride)
        case 3: Self.rows(ThreeSteps.self, fx, step, a, height, dst, stride)
        case 4: Self.rows(FourSteps.self, fx, step, a, height, dst, stride)
        default:
            // Wider spans: their column terms worked out into `terms`, then
            // taken four steps at a time into registers, each four down all
            // the rows (the band's tile stays in the first-level cache): no
            // load of a column term per node, and a loop's count and branch
            // per four steps rather than per step. Each node still takes the
            // same term, after the same earlier points'.
            for g in 0..<steps { terms.columns[g] = Lanes(columnTermsAt: fx - Float(g * lanes), step: step) }
            var g = 0
            while g + 4 <= steps {
                Self.rows(FourSteps.self, terms.columns + g, a, height, dst + g * lanes, stride)
                g += 4
            }
            switch steps - g {
            case 1: Self.rows(Lanes.self, terms.columns + g, a, height, dst + g * lanes, stride)
            case 2: Self.rows(TwoSteps.self, terms.columns + g, a, height, dst + g * lanes, stride)
            case 3: Self.rows(ThreeSteps.self, terms.columns + g, a, height, dst + g * lanes, stride)
            default: break
            }
        }
    }

    typealias TwoSteps = BandLaneSteps<Lanes, Lanes>
    typealias ThreeSteps = BandLaneSteps<TwoSteps, Lanes>
    typealias FourSteps = BandLaneSteps<TwoSteps, TwoSteps>

    /// The rows of a span whose column terms `L` holds in registers.
    @inline(__always)
    private static func rows<L: BandLanes>(
        _: L.Type, _ fx: Float, _ step: Float, _ a: UnsafePointer<Float>, _ height: Int,
        _ dst: UnsafeMutablePointer<Float>, _ stride: Int
    ) {
        rows(L(columnTermsAt: fx, step: step), a, height, dst, stride)
    }

    /// The rows of a run of a span's columns whose terms, worked out
    /// already at `columnTerms`, `L` loads into registers.
    @inline(__always)
    private static func rows<L: BandLanes>(
        _: L.Type, _ columnTerms: UnsafePointer<Lanes>, _ a: UnsafePointer<Float>, _ height: Int,
        _ dst: UnsafeMutablePointer<Float>, _ stride: Int
    ) {
        rows(L(loading: columnTerms), a, height, dst, stride)
    }

    @inline(__always)
    private static func rows<L: BandLanes>(
        _ u: L, _ a: UnsafePointer<Float>, _ height: Int, _ dst: UnsafeMutablePointer<Float>, _ stride: Int
    ) {
        var row = dst
        for k in 0..<height {
            u.add(Power.self, below: a[k], into: row)
            row += stride
        }
    }

    /// Adds the touched nodes of the float sums of the grid's `rows` into
    /// `target` (times `unscale`), whose first row is grid row `targetRow`,
    /// and clears them.
    private func flush(
        _ sums: UnsafeMutablePointer<Float>, rows: Range<Int>, stride: Int,
        touched: BandTouch, unscale: Double, into target: UnsafeMutablePointer<Double>, targetRow: Int
    ) {
        let columns = xAxis.count
        let right = min(touched.right, columns - 1)
        let top = max(touched.top, rows.lowerBound), bottom = min(touched.bottom, rows.upperBound - 1)
        guard touched.left <= right, top <= bottom else { return }
        for row in top...bottom {
            let src = sums + (row - rows.lowerBound) * stride
            let dst = target + (row - targetRow) * columns
            for c in touched.left...right { dst[c] += Double(src[c]) * unscale }
            // The padding past the last column collects zeros only; clear it with the rest.
            (src + touched.left).update(repeating: 0, count: touched.right - touched.left + 1)
        }
    }
}

/// The nodes a run of ``BandSplat`` points wrote between flushes: their
/// columns (with a span's last step past the last column) and rows.
struct BandTouch {
    var left = Int.max, right = Int.min
    var top = Int.max, bottom = Int.min
}

/// Column terms of ``BandSplat`` for a run of consecutive columns,
/// in vector registers.
protocol BandLanes {
    /// Columns covered.
    static var width: Int { get }
    /// (step × (j − fx))² for lane j: the point at lane `fx`, `step` the
    /// node step times √s over the radius.
    init(columnTermsAt fx: Float, step: Float)
    /// The terms of ``width`` columns from consecutive steps of four at `terms`.
    init(loading terms: UnsafePointer<SIMD4<Float>>)
    /// Adds max(a − u, 0)^p of each lane's term u to the floats at `dst`.
    func add<P: BandPower>(_: P.Type, below a: Float, into dst: UnsafeMutablePointer<Float>)
}

extension SIMD4: BandLanes where Scalar == Float {
    static var width: Int { 4 }

    @inline(__always) init(columnTermsAt fx: Float, step: Float) {
        let d = (SIMD4(0, 1, 2, 3) - fx) * step
        self = d * d
    }

    @inline(__always) init(loading terms: UnsafePointer<SIMD4<Float>>) { self = terms.pointee }

    @inline(__always) func add<P: BandPower>(_: P.Type, below a: Float, into dst: UnsafeMutablePointer<Float>) {
        // max(t, 0) as a select that keeps t where t > 0 (a NaN among the
        // zeros): one vector max into t on x86-64, against a zero that
        // stays in its register (a select that keeps t where t ≥ 0 would
        // write its max into a fresh zero every time).
        let t = SIMD4(repeating: a) - self
        let v = SIMD4.zero.replacing(with: t, where: t .> 0)
        let target = UnsafeMutableRawPointer(dst)
        target.storeBytes(of: target.loadUnaligned(as: SIMD4.self) + P.power(v), as: SIMD4.self)
    }
}

/// Two runs of columns side by side. Spans of 2, 3 and 4 steps are
/// distinct types, so each gets its own loop with its terms in registers.
struct BandLaneSteps<Low: BandLanes, High: BandLanes>: BandLanes {
    let low: Low
    let high: High

    static var width: Int { Low.width + High.width }

    @inline(__always) init(columnTermsAt fx: Float, step: Float) {
        low = Low(columnTermsAt: fx, step: step)
        high = High(columnTermsAt: fx - Float(Low.width), step: step)
    }

    @inline(__always) init(loading terms: UnsafePointer<SIMD4<Float>>) {
        low = Low(loading: terms)
        high = High(loading: terms + Low.width / 4)
    }

    @inline(__always) func add<P: BandPower>(_: P.Type, below a: Float, into dst: UnsafeMutablePointer<Float>) {
        low.add(P.self, below: a, into: dst)
        high.add(P.self, below: a, into: dst + Low.width)
    }
}

/// The power p of 1 − d²/r² that ``BandSplat`` adds: the kernel's
/// shape (``RadialShape``) as a power the splat's terms raise to.
protocol BandPower {
    associatedtype Shape: RadialShape
    /// The same kernel's shape for the double splat (``DiscSplat``).
    static var shape: Shape { get }
    /// The shape of a term t = s (1 − d²/r²) ≥ 0: t^p.
    static func power(_ t: SIMD4<Float>) -> SIMD4<Float>
    /// w^(2/p) of a scaled weight w: the entries keep its fourth root q
    /// (``BandPoint``), so the splat's s = q² is w^(1/p) and s^p is w.
    static func entryWeight(_ w: Double) -> Double
}

/// The Epanechnikov kernel's 1 − d²/r².
enum EpanechnikovPower: BandPower {
    static var shape: EpanechnikovShape { EpanechnikovShape() }
    @inline(__always) static func power(_ t: SIMD4<Float>) -> SIMD4<Float> { t }
    @inline(__always) static func entryWeight(_ w: Double) -> Double { w * w }
}

/// The quartic kernel's (1 − d²/r²)².
enum QuarticPower: BandPower {
    static var shape: QuarticShape { QuarticShape() }
    @inline(__always) static func power(_ t: SIMD4<Float>) -> SIMD4<Float> { t * t }
    @inline(__always) static func entryWeight(_ w: Double) -> Double { w }
}

/// The triweight kernel's (1 − d²/r²)³.
enum TriweightPower: BandPower {
    static var shape: TriweightShape { TriweightShape() }
    @inline(__always) static func power(_ t: SIMD4<Float>) -> SIMD4<Float> { t * t * t }
    @inline(__always) static func entryWeight(_ w: Double) -> Double {
        let c = cbrt(w)
        return c * c
    }
}

extension BandSplat: WindowDepositor {
    /// The grid rows within ``RowSorter/reachRows`` of the nodes nearest `ys`.
    func rowsWritten(y ys: ClosedRange<Double>) -> Range<Int> {
        // Clamped before rounding: a point far off the grid writes nothing.
        let rows = yAxis.count, limit = Double(rows)
        let first = NodeSpan.nearest(to: min(max(yAxis.index(of: ys.lowerBound), -1), limit), count: rows)
        let last = NodeSpan.nearest(to: min(max(yAxis.index(of: ys.upperBound), -1), limit), count: rows)
        return max(first - reachRows, 0)..<min(last + reachRows + 1, rows)
    }

    @inline(__always) func writes(x: Double, y: Double) -> Bool {
        DiscRules.reaches(x: x, y: y, reach: maximumRadius, xAxis: xAxis, yAxis: yAxis)
    }
}
