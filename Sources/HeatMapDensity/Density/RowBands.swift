import Foundation
import HeatMapCore

/// Something whose points are sorted into row bands (``RowBands``): the
/// node each point belongs to, how far around its row it writes, and what
/// the sort keeps of it.
///
/// Every point belongs to the band of its anchor row and writes at most
/// `reachRows` rows above or below it; bands are at least 2·reachRows + 1
/// rows tall, so bands of the same parity never write the same row and
/// run in parallel: first all even bands, then all odd ones (all at once
/// when points write only their own row). Each node thus receives its
/// points' terms in a fixed order (phase, bucket, input order), the same
/// bit for bit on every run: the band cut depends on the data only, never
/// on the core count.
protocol RowSorter {
    /// What the sort keeps of a point: whatever its deposit needs, worked
    /// out once while the points are sorted.
    associatedtype Entry: BitwiseCopyable
    /// How many rows above or below its anchor row a point may write.
    var reachRows: Int { get }
    /// Columns per tile, the order of a band's points when they write
    /// rows around theirs: a power of two (a point's tile is then a shift
    /// of its column, not a division).
    var tileWidth: Int { get }
    /// The node a point belongs to (row in 0..<rows, column in
    /// 0..<columns), or nil if it writes nothing.
    func anchor(x: Double, y: Double) -> (row: Int, column: Int)?
    /// The entry of a point that has an anchor.
    func entry(x: Double, y: Double, weight: Double, value: Double) -> Entry
    /// The entry of point `i` of the slice being sorted (for sorters that
    /// read more of a point than x, y, weight and value).
    func entry(at i: Int, x: Double, y: Double, weight: Double, value: Double) -> Entry
    /// A size of point `i` (anchored, of weight `weight`) whose largest
    /// over the slice the entries depend on (the single-precision quartic
    /// splat scales every weight by it): found in the sort's first pass,
    /// which reads the weights anyway. 0 unless a sorter says more.
    func magnitude(at i: Int, weight: Double) -> Double
    /// The entry of point `i` given the largest ``magnitude(at:weight:)``
    /// of the slice's points; by default the entry of ``entry(at:x:y:weight:value:)``.
    func entry(at i: Int, x: Double, y: Double, weight: Double, value: Double, largest: Double) -> Entry
}

extension RowSorter {
    var tileWidth: Int { 8 }

    @inline(__always) func magnitude(at i: Int, weight: Double) -> Double { 0 }

    @inline(__always)
    func entry(at i: Int, x: Double, y: Double, weight: Double, value: Double) -> Entry {
        entry(x: x, y: y, weight: weight, value: value)
    }

    @inline(__always)
    func entry(at i: Int, x: Double, y: Double, weight: Double, value: Double, largest: Double) -> Entry {
        entry(at: i, x: x, y: y, weight: weight, value: value)
    }
}

/// Something that adds points into grid rows one entry at a time: the
/// splat of the exact method, the binning of the binned ones.
protocol RowDepositor: RowSorter {
    /// Per-task scratch memory, in doubles.
    var scratchCount: Int { get }
    /// Points between cancellation polls: about a millisecond of work.
    var pollInterval: Int { get }
    /// Adds one point's terms to the grid.
    func deposit(_ entry: Entry, scratch: UnsafeMutablePointer<Double>)
}

/// A depositor whose entry is the point itself: x, y, weight, value.
protocol PointDepositor: RowDepositor where Entry == SIMD4<Double> {
    func deposit(x: Double, y: Double, weight: Double, value: Double, scratch: UnsafeMutablePointer<Double>)
}

extension PointDepositor {
    @inline(__always)
    package func entry(x: Double, y: Double, weight: Double, value: Double) -> SIMD4<Double> {
        SIMD4(x, y, weight, value)
    }

    @inline(__always) func deposit(_ p: SIMD4<Double>, scratch: UnsafeMutablePointer<Double>) {
        deposit(x: p[0], y: p[1], weight: p[2], value: p[3], scratch: scratch)
    }
}

/// Points sorted by row band (a stable parallel counting sort), as their
/// sorter's entries, so each band reads its points sequentially.
///
/// Within a band the order keeps what the points write in cache: points
/// that write only their own row are sorted by row (a row's points land
/// while it is in cache); points that write rows around theirs, by column
/// tile, so that consecutive points touch the same few cache lines of the
/// band rather than lines all over it.
struct RowBands<Entry: BitwiseCopyable> {
    /// Band b covers rows `cuts[b] ..< cuts[b + 1]`.
    var cuts: [Int]
    /// Band b's entries are `starts[b] ..< starts[b + 1]`.
    package var starts: [Int]
    /// The points' entries in band order (one write stream per bucket while
    /// sorting, one read stream per band while depositing).
    package var entries: [Entry]
    /// Whether bands may write each other's rows (then they run in two
    /// phases of alternate bands).
    package var overlap: Bool
    /// The largest ``RowSorter/magnitude(at:weight:)`` of any point with an
    /// entry (0 for none).
    package var largestMagnitude = 0.0

    package var count: Int { cuts.count - 1 }

    /// Points per counting chunk for n points: at most 16 chunks (the
    /// prefix sum runs over chunks × buckets) of at least 16k points, so a
    /// batch of 64k still spreads over four tasks.
    package static func chunkSize(count n: Int) -> Int { max(1 << 14, (n + 15) / 16) }
    /// Bands to aim for: enough to balance the cores in each phase,
    /// independent of the core count so that the cut (and the bits) are too.
    static var targetBands: Int { 32 }
    /// About how many runs of 64 points the band cut looks at.
    static var sampledRuns: Int { 256 }

    /// Sorts points 0..<n (x, y, w and optional v arrays) into bands of the
    /// grid's rows of about equal work. O(n + rows): two parallel passes
    /// over all points (their buckets, then their entries), and for
    /// sorters that write around their row a pass over a sample first
    /// (the cut, which their buckets depend on).
    package init<S: RowSorter>(
        x: UnsafePointer<Double>, y: UnsafePointer<Double>,
        weight: UnsafePointer<Double>, value: UnsafePointer<Double>?,
        count n: Int, rows: Int, columns: Int, sorter: S,
        control: ComputeControl
    ) throws where S.Entry == Entry {
        let chunkSize = RowBands.chunkSize(count: n), tileWidth = sorter.tileWidth
        precondition(tileWidth > 0 && tileWidth & (tileWidth - 1) == 0, "tiles of \(tileWidth) columns")
        let tileShift = tileWidth.trailingZeroBitCount
        let chunks = max(1, (n + chunkSize - 1) / chunkSize)
        let byRow = sorter.reachRows == 0
        // Buckets: rows, or (band, column tile) pairs for a cut made first.
        let tiles = byRow ? 1 : max(1, (columns + tileWidth - 1) / tileWidth)
        var cuts =
            byRow
            ? []
            : try RowBands.cut(
                x: x, y: y, weight: weight, count: n, rows: rows,
                sorter: sorter, control: control)
        var bandOfRow = [Int32](repeating: 0, count: byRow ? 0 : rows)
        if !byRow { for b in 0..<cuts.count - 1 { for r in cuts[b]..<cuts[b + 1] { bandOfRow[r] = Int32(b) } } }
        let buckets = byRow ? rows : (cuts.count - 1) * tiles
        guard buckets < Int(Int32.max) else {
            throw HeatMapError.invalidConfiguration("grid of \(columns) columns is too wide to sort points by")
        }

        // Pass 1: each point's bucket (or −1 if it writes nothing), points
        // per (chunk, bucket), and the largest magnitude of each chunk.
        let none = Int32(-1)
        var bucketOf = [Int32](unsafeUninitializedCapacity: n) { _, count in count = n }
        var next = [Int](repeating: 0, count: chunks * buckets)
        var largest = [Double](repeating: 0, count: chunks)
        try bucketOf.withUnsafeMutableBufferPointer { bucketOf in
            try next.withUnsafeMutableBufferPointer { counts in
                try bandOfRow.withUnsafeBufferPointer { bandOfRow in
                    try largest.withUnsafeMutableBufferPointer { largest in
                        let bucketOf = bucketOf.baseAddress!, counts = counts.baseAddress!
                        let bandOfRow = bandOfRow.baseAddress, largest = largest.baseAddress!
                        try Parallel.forEach(chunks) { c in
                            try control.checkCancellation()
                            let count = counts + c * buckets
                            var most = 0.0
                            for i in c * chunkSize..<min(n, (c + 1) * chunkSize) {
                                if i & 1023 == 0 { try control.checkCancellation() }
                                guard weight[i] != 0, let a = sorter.anchor(x: x[i], y: y[i]) else {
                                    bucketOf[i] = none
                                    continue
                                }
                                let b = byRow ? a.row : Int(bandOfRow![a.row]) &* tiles &+ a.column &>> tileShift
                                bucketOf[i] = Int32(truncatingIfNeeded: b)
                                count[b] &+= 1
                                most = max(most, sorter.magnitude(at: i, weight: weight[i]))
                            }
                            largest[c] = most
                        }
                    }
                }
            }
        }
        let largestMagnitude = largest.reduce(0, max)
        // Bucket-major, chunks in order within a bucket: input order.
        var offsets = [Int](repeating: 0, count: buckets + 1)
        var total = 0
        for k in 0..<buckets {
            if k & 255 == 0 { try control.checkCancellation() }
            offsets[k] = total
            for c in 0..<chunks {
                let m = next[c * buckets + k]
                next[c * buckets + k] = total
                total += m
            }
        }
        offsets[buckets] = total
        if byRow {
            // Rows' exact point counts are known now: cut by them.
            let work = (0..<rows).map { Double(offsets[$0 + 1] - offsets[$0]) }
            cuts = RowBands.cut(work: work, bands: RowBands.targetBands, minimumHeight: 1)
        }
        let starts = cuts.indices.map { b in offsets[byRow ? cuts[b] : b * tiles] }

        // Pass 2: each point's entry, written straight into bucket order.
        // Working entries out here rather than in pass 1 spares writing and
        // reading them back in input order: the pass waits on its scattered
        // stores anyway.
        var sorted = [Entry](unsafeUninitializedCapacity: total) { _, initialized in initialized = total }
        try sorted.withUnsafeMutableBufferPointer { out in
            try next.withUnsafeMutableBufferPointer { next in
                try bucketOf.withUnsafeBufferPointer { bucketOf in
                    let out = out.baseAddress!, next = next.baseAddress!, bucketOf = bucketOf.baseAddress!
                    try Parallel.forEach(chunks) { c in
                        try control.checkCancellation()
                        let slot = next + c * buckets
                        for i in c * chunkSize..<min(n, (c + 1) * chunkSize) {
                            if i & 1023 == 0 { try control.checkCancellation() }
                            let b = bucketOf[i]
                            guard b != none else { continue }
                            let k = slot[Int(b)]
                            slot[Int(b)] = k &+ 1
                            out[k] = sorter.entry(
                                at: i, x: x[i], y: y[i], weight: weight[i], value: value?[i] ?? 0,
                                largest: largestMagnitude)
                        }
                    }
                }
            }
        }
        self.init(cuts: cuts, starts: starts, entries: sorted, overlap: !byRow)
        self.largestMagnitude = largestMagnitude
    }

    /// Sorts points 0..<n into bands for `depositor` and runs it over
    /// them: what every fill that deposits by rows does with a slice.
    static func deposit<D: RowDepositor>(
        _ depositor: D, x: UnsafePointer<Double>, y: UnsafePointer<Double>,
        weight: UnsafePointer<Double>, value: UnsafePointer<Double>?,
        count n: Int, rows: Int, columns: Int, control: ComputeControl,
        progress: (@Sendable (Int) -> Void)?
    ) throws where D.Entry == Entry {
        let bands = try RowBands(
            x: x, y: y, weight: weight, value: value, count: n, rows: rows, columns: columns,
            sorter: depositor, control: control)
        try bands.run(depositor, control: control, progress: progress)
    }

    package init(cuts: [Int], starts: [Int], entries: [Entry], overlap: Bool) {
        self.cuts = cuts
        self.starts = starts
        self.entries = entries
        self.overlap = overlap
    }

    /// The band cut for points 0..<n: their anchor rows counted over a
    /// sample of them (every k-th run of 64 points, k = runs /
    /// ``sampledRuns``, at least 1), each row weighted by the points that
    /// write it. A sample
    /// balances the bands as well as all the points would, and keeps the cut
    /// a function of the data alone.
    package static func cut<S: RowSorter>(
        x: UnsafePointer<Double>, y: UnsafePointer<Double>,
        weight: UnsafePointer<Double>, count n: Int, rows: Int,
        sorter: S, control: ComputeControl
    ) throws -> [Int] {
        let run = 64
        let runs = (n + run - 1) / run
        let step = max(1, runs / RowBands.sampledRuns)
        let sampledRuns = (runs + step - 1) / step
        let runsPerChunk = 64
        let chunks = max(1, (sampledRuns + runsPerChunk - 1) / runsPerChunk)
        var perRow = [Int32](repeating: 0, count: chunks * rows)
        try perRow.withUnsafeMutableBufferPointer { perRow in
            let perRow = perRow.baseAddress!
            try Parallel.forEach(chunks) { c in
                try control.checkCancellation()
                let histogram = perRow + c * rows
                for k in c * runsPerChunk..<min(sampledRuns, (c + 1) * runsPerChunk) {
                    let start = k * step * run
                    for i in start..<min(n, start + run) {
                        guard weight[i] != 0, let a = sorter.anchor(x: x[i], y: y[i]) else { continue }
                        histogram[a.row] &+= 1
                    }
                }
            }
        }
        // Work per row: the (sampled) points whose rows cover it.
        let reach = sorter.reachRows
        var anchored = [Double](repeating: 0, count: rows + 1)  // prefix sums
        for r in 0..<rows {
            var m = 0
            for c in 0..<chunks { m += Int(perRow[c * rows + r]) }
            anchored[r + 1] = anchored[r] + Double(m * step)
        }
        try control.checkCancellation()
        let work = (0..<rows).map { r in anchored[min(rows, r + reach + 1)] - anchored[max(0, r - reach)] }
        return cut(work: work, bands: targetBands, minimumHeight: 2 * reach + 1)
    }

    /// Cuts rows into consecutive bands of about equal work (plus one unit
    /// per row, so empty stretches are not free), each at least
    /// `minimumHeight` rows tall (the last absorbs a short remainder).
    package static func cut(work: [Double], bands: Int, minimumHeight: Int) -> [Int] {
        let rows = work.count
        guard rows > 0 else { return [0, 0] }
        let total = work.reduce(0, +) + Double(rows)
        let share = total / Double(max(bands, 1))
        var cuts = [0]
        var acc = 0.0
        for r in 0..<rows {
            acc += work[r] + 1
            let height = r + 1 - cuts.last!
            if acc >= share * Double(cuts.count), height >= minimumHeight, rows - (r + 1) >= minimumHeight {
                cuts.append(r + 1)
            }
        }
        cuts.append(rows)
        return cuts
    }

    /// Runs `depositor` over every band (``forEachBand(control:_:)``),
    /// polling cancellation every `pollInterval` points; `progress` gets
    /// each finished band's point count.
    package func run<D: RowDepositor>(
        _ depositor: D, control: ComputeControl,
        progress: (@Sendable (Int) -> Void)? = nil
    ) throws where D.Entry == Entry {
        let scratchCount = max(depositor.scratchCount, 1)
        let poll = max(depositor.pollInterval, 1)
        try forEachBand(control: control) { b in
            let scratch = UnsafeMutablePointer<Double>.allocate(capacity: scratchCount)
            defer { scratch.deallocate() }
            try forEachEntry(ofBand: b, poll: poll, control: control) { depositor.deposit($0, scratch: scratch) }
            progress?(starts[b + 1] - starts[b])
        }
    }

    /// Calls `body(b)` for every band b: even bands in parallel, then odd
    /// ones (all together when bands do not overlap), so that no two
    /// calls at once write a row (each writes only rows within the
    /// sorter's reach of its band).
    package func forEachBand(control: ComputeControl, _ body: (Int) throws -> Void) throws {
        let phases = overlap ? 2 : 1
        for phase in 0..<phases {
            try Parallel.forEach((count + phases - 1 - phase) / phases, control: control) { k in
                try body(phases * k + phase)
            }
        }
    }

    /// Calls `body` with band `b`'s entries in order, polling `control`
    /// every `poll` entries.
    @inline(__always)
    package func forEachEntry(
        ofBand b: Int, poll: Int, control: ComputeControl, _ body: (Entry) -> Void
    ) throws {
        try entries.withUnsafeBufferPointer { entries in
            var i = starts[b]
            let end = starts[b + 1]
            while i < end {
                let stop = min(end, i + poll)
                while i < stop {
                    body(entries[i])
                    i += 1
                }
                try control.checkCancellation()
            }
        }
    }
}
