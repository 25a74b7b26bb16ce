import Foundation

/// Something that adds points into grid rows: the splat of the exact
/// method, the binning of the binned ones.
///
/// Work is split by row bands. Every point belongs to the band of its
/// anchor row and writes at most `reachRows` rows above or below it; bands
/// are at least 2·reachRows + 1 rows tall, so bands of the same parity never
/// write the same row and run in parallel: first all even bands, then all
/// odd ones. Each node thus receives its points' terms in a fixed order
/// (phase, column tile, input order), the same bit for bit on every run: the
/// band cut depends on the data only, never on the core count.
protocol RowDepositor {
    /// Per-task scratch memory, in doubles.
    var scratchCount: Int { get }
    /// Points between cancellation polls: about a millisecond of work.
    var pollInterval: Int { get }
    /// How many rows above or below its anchor row a point may write.
    var reachRows: Int { get }
    /// The node a point belongs to (row in 0..<rows, column in
    /// 0..<columns), or nil if it writes nothing.
    func anchor(x: Double, y: Double) -> (row: Int, column: Int)?
    /// Adds one point's terms to the grid.
    func deposit(x: Double, y: Double, weight: Double, value: Double, scratch: UnsafeMutablePointer<Double>)
}

/// Points sorted by row band (a stable parallel counting sort), their data
/// copied so each band reads its points sequentially. Within a band they are
/// ordered by column tile, so that consecutive points touch the same few
/// cache lines of the grid rather than lines all over the band.
struct RowBands {
    /// Band b covers rows `cuts[b] ..< cuts[b + 1]`.
    var cuts: [Int]
    /// Band b's points are `offsets[b * tiles] ..< offsets[(b + 1) * tiles]`
    /// in the arrays below.
    var offsets: [Int]
    /// x, y, w, v of each point, side by side (one write stream per bucket
    /// while sorting, one read stream per band while depositing).
    var points: [SIMD4<Double>]
    /// Column tiles per band.
    var tiles: Int

    var count: Int { cuts.count - 1 }

    /// Columns per tile.
    static let tileWidth = 8

    /// Points per counting chunk.
    static let chunkSize = 1 << 14
    /// Bands to aim for: enough to balance the cores in each phase,
    /// independent of the core count so that the cut (and the bits) are too.
    static let targetBands = 32

    /// Sorts points 0..<n (x, y, w and optional v arrays) into bands of the
    /// grid's rows of about equal work. O(n + rows), three parallel passes.
    static func build<D: RowDepositor>(x: UnsafePointer<Double>, y: UnsafePointer<Double>,
                                       weight: UnsafePointer<Double>, value: UnsafePointer<Double>?,
                                       count n: Int, rows: Int, columns: Int, depositor: D,
                                       control: ComputeControl) throws -> RowBands {
        let chunks = max(1, (n + chunkSize - 1) / chunkSize)
        let none = Int32(-1)

        let tiles = max(1, (columns + tileWidth - 1) / tileWidth)

        // Pass 1: anchor of every point, and points per row (per chunk).
        // Every entry is written by pass 1.
        var anchors = [Int32](unsafeUninitializedCapacity: n) { _, count in count = n }
        var tileOf = [Int32](unsafeUninitializedCapacity: n) { _, count in count = n }
        var perRow = [Int32](repeating: 0, count: chunks * rows)
        try anchors.withUnsafeMutableBufferPointer { anchors in
            try tileOf.withUnsafeMutableBufferPointer { tileOf in
                try perRow.withUnsafeMutableBufferPointer { perRow in
                    let anchors = anchors.baseAddress!, tileOf = tileOf.baseAddress!, perRow = perRow.baseAddress!
                    try Parallel.forEach(chunks) { c in
                        try control.checkCancellation()
                        let histogram = perRow + c * rows
                        for i in c * chunkSize ..< min(n, (c + 1) * chunkSize) {
                            if i & 1023 == 0 { try control.checkCancellation() }
                            guard weight[i] != 0, let a = depositor.anchor(x: x[i], y: y[i]) else {
                                anchors[i] = none
                                continue
                            }
                            anchors[i] = Int32(a.row)
                            tileOf[i] = Int32(a.column / tileWidth)
                            histogram[a.row] &+= 1
                        }
                    }
                }
            }
        }

        // Work per row: the points whose rows cover it.
        let reach = depositor.reachRows
        var anchoredPerRow = [Int](repeating: 0, count: rows)
        for c in 0..<chunks {
            try control.checkCancellation()
            for r in 0..<rows { anchoredPerRow[r] += Int(perRow[c * rows + r]) }
        }
        var anchored = [Double](repeating: 0, count: rows + 1) // prefix sums
        for r in 0..<rows { anchored[r + 1] = anchored[r] + Double(anchoredPerRow[r]) }
        let work = (0..<rows).map { r in anchored[min(rows, r + reach + 1)] - anchored[max(0, r - reach)] }
        let cuts = cut(work: work, bands: targetBands, minimumHeight: 2 * reach + 1)
        let bands = cuts.count - 1
        var bandOfRow = [Int32](repeating: 0, count: rows)
        for b in 0..<bands { for r in cuts[b]..<cuts[b + 1] { bandOfRow[r] = Int32(b) } }

        // Points per (chunk, bucket), bucket = band · tiles + tile.
        let buckets = bands * tiles
        var next = [Int](repeating: 0, count: chunks * buckets)
        try next.withUnsafeMutableBufferPointer { counts in
            try anchors.withUnsafeBufferPointer { anchors in
                try tileOf.withUnsafeBufferPointer { tileOf in
                    try bandOfRow.withUnsafeBufferPointer { bandOfRow in
                        let counts = counts.baseAddress!, anchors = anchors.baseAddress!
                        let tileOf = tileOf.baseAddress!, bandOfRow = bandOfRow.baseAddress!
                        try Parallel.forEach(chunks) { c in
                            try control.checkCancellation()
                            let count = counts + c * buckets
                            for i in c * chunkSize ..< min(n, (c + 1) * chunkSize) where anchors[i] != none {
                                if i & 1023 == 0 { try control.checkCancellation() }
                                count[Int(bandOfRow[Int(anchors[i])]) * tiles + Int(tileOf[i])] += 1
                            }
                        }
                    }
                }
            }
        }
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

        // Pass 2: copy the points into band order.
        var sorted = [SIMD4<Double>](unsafeUninitializedCapacity: total) { _, initialized in initialized = total }
        try sorted.withUnsafeMutableBufferPointer { out in
            try next.withUnsafeMutableBufferPointer { next in
                try anchors.withUnsafeBufferPointer { anchors in
                    try tileOf.withUnsafeBufferPointer { tileOf in
                        try bandOfRow.withUnsafeBufferPointer { bandOfRow in
                            let out = out.baseAddress!, next = next.baseAddress!
                            let anchors = anchors.baseAddress!, tileOf = tileOf.baseAddress!
                            let bandOfRow = bandOfRow.baseAddress!
                            try Parallel.forEach(chunks) { c in
                                try control.checkCancellation()
                                let slot = next + c * buckets
                                for i in c * chunkSize ..< min(n, (c + 1) * chunkSize) {
                                    if i & 1023 == 0 { try control.checkCancellation() }
                                    let r = anchors[i]
                                    guard r != none else { continue }
                                    let b = Int(bandOfRow[Int(r)]) * tiles + Int(tileOf[i])
                                    let k = slot[b]
                                    slot[b] = k + 1
                                    out[k] = SIMD4(x[i], y[i], weight[i], value?[i] ?? 0)
                                }
                            }
                        }
                    }
                }
            }
        }
        let result = RowBands(cuts: cuts, offsets: offsets, points: sorted, tiles: tiles)
        return result
    }

    /// Cuts rows into consecutive bands of about equal work (plus one unit
    /// per row, so empty stretches are not free), each at least
    /// `minimumHeight` rows tall (the last absorbs a short remainder).
    static func cut(work: [Double], bands: Int, minimumHeight: Int) -> [Int] {
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

    /// Runs `depositor` over every band: even bands in parallel, then odd
    /// ones. Polls cancellation every `pollInterval` points; `progress` gets each
    /// finished band's point count.
    func run<D: RowDepositor>(_ depositor: D, control: ComputeControl,
                              progress: (@Sendable (Int) -> Void)? = nil) throws {
        let scratchCount = max(depositor.scratchCount, 1)
        let poll = max(depositor.pollInterval, 1)
        try points.withUnsafeBufferPointer { points in
            let points = points.baseAddress!
            for parity in 0..<2 {
                try Parallel.forEach((count + 1 - parity) / 2) { k in
                    let b = 2 * k + parity
                    try control.checkCancellation()
                    let scratch = UnsafeMutablePointer<Double>.allocate(capacity: scratchCount)
                    defer { scratch.deallocate() }
                    var i = offsets[b * tiles]
                    let end = offsets[(b + 1) * tiles]
                    while i < end {
                        let stop = min(end, i + poll)
                        while i < stop {
                            let p = points[i]
                            depositor.deposit(x: p[0], y: p[1], weight: p[2], value: p[3], scratch: scratch)
                            i += 1
                        }
                        try control.checkCancellation()
                    }
                    progress?(end - offsets[b * tiles])
                }
            }
        }
    }
}
