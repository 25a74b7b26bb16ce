import HeatMapCore
import HeatMapDensity

/// Exact order statistics of grid values without sorting them all.
///
/// Values map to 64-bit keys whose unsigned order is the values' order;
/// a histogram of the top 16 bits says which buckets hold the asked ranks,
/// only those buckets' keys are collected, and each is refined on the next
/// 16 bits while it is large, sorted once it is small. Two passes over the
/// values plus work on the few candidate buckets: O(n) time, O(candidates)
/// memory, and the passes poll cancellation every ``block`` values. The
/// passes run over the values' parts on all cores and the candidate
/// buckets are refined side by side (``ValuePasses``): exact counts and
/// exact picks, so the cores change nothing but the time.
enum OrderStatistics {
    /// Values between cancellation polls (about a millisecond).
    package static let block = 1 << 18
    /// A bucket with at most this many keys is sorted rather than refined.
    static let sortable = 1 << 16

    /// The key of a (non-NaN) value: unsigned order is the value order.
    @inline(__always) package static func key(_ v: Double) -> UInt64 {
        let bits = v.bitPattern
        return bits & (1 << 63) != 0 ? ~bits : bits | (1 << 63)
    }

    /// The value of a key.
    @inline(__always) package static func value(_ k: UInt64) -> Double {
        Double(bitPattern: k & (1 << 63) != 0 ? k & ~(1 << 63) : ~k)
    }

    /// The number m of values above `floor` (NaN never is), and the values
    /// at `ranks(m)` of them in ascending order (each rank in 0 ..< m).
    static func select(
        _ values: UnsafeBufferPointer<Double>, above floor: Double, ranks: (Int) -> [Int],
        control: ComputeControl
    ) throws -> (count: Int, selected: [Double]) {
        try select(ValuePasses(values), above: floor, ranks: ranks, candidateLimit: .max, control: control)
    }

    /// ``select(_:above:ranks:control:)`` over values that are passed over
    /// as often as needed (every frame's grid, say), holding at most about
    /// `candidateLimit` keys: while the buckets that hold the ranks are
    /// larger, another pass splits them on the next 16 bits.
    static func select(
        _ values: ValuePasses, above floor: Double, ranks: (Int) -> [Int], candidateLimit: Int,
        control: ComputeControl
    ) throws -> (count: Int, selected: [Double]) {
        // Each part's histogram on its own core, summed: the counts are
        // exact, so the sum is the serial pass's histogram.
        let counted = try Parallel.map(values.parts, control: control) { k in
            var histogram = [Int](repeating: 0, count: 1 << 16)
            var m = 0
            try histogram.withUnsafeMutableBufferPointer { h in
                try values.pass(part: k, control) { block in
                    for v in block where v > floor {
                        h[Int(key(v) >> 48)] += 1
                        m += 1
                    }
                }
            }
            return (histogram, m)
        }
        var (histogram, m) = counted[0]
        for (more, n) in counted.dropFirst() {
            for b in histogram.indices { histogram[b] += more[b] }
            m += n
        }
        let wanted = ranks(m)
        guard m > 0, !wanted.isEmpty else { return (m, []) }
        // Each target: a key prefix of `bits` bits, how many keys have it,
        // and the ranks it holds (relative to its first key) with their places.
        var targets = buckets(of: wanted, in: histogram).map {
            (prefix: UInt64($0.bucket), count: histogram[$0.bucket], ranks: $0.ranks)
        }
        var bits = 16
        while bits < 64, targets.reduce(0, { $0 + $1.count }) > candidateLimit {
            let known = UInt64(64 - bits), shift = UInt64(48 - bits)
            let top = TopFilter(targets.map(\.prefix), bits: bits)
            var split = [[Int]](repeating: [Int](repeating: 0, count: 1 << 16), count: targets.count)
            try values.pass(control) { block in
                for v in block where v > floor {
                    let k = key(v)
                    if let s = top.target(of: k >> known) { split[s][Int((k >> shift) & 0xffff)] += 1 }
                }
            }
            targets = targets.enumerated().flatMap { i, t in
                buckets(of: t.ranks.map(\.rank), in: split[i]).map { u in
                    (
                        prefix: t.prefix << 16 | UInt64(u.bucket), count: split[i][u.bucket],
                        ranks: u.ranks.map { (rank: $0.rank, index: t.ranks[$0.index].index) }
                    )
                }
            }
            bits += 16
        }
        let known = UInt64(64 - bits)
        let top = TopFilter(targets.map(\.prefix), bits: bits)
        // Each part's candidates on its own core, joined in part order:
        // every target's keys in the order one pass meets them.
        var gathered = try Parallel.map(values.parts, control: control) { part in
            var keys = [[UInt64]](repeating: [], count: targets.count)
            try values.pass(part: part, control) { block in
                for v in block where v > floor {
                    let k = key(v)
                    if let s = top.target(of: k >> known) { keys[s].append(k) }
                }
            }
            return keys
        }
        var collected = targets.indices.map { s in
            var keys: [UInt64] = []
            keys.reserveCapacity(targets[s].count)
            for part in gathered.indices {
                keys.append(contentsOf: gathered[part][s])
                gathered[part][s] = []
            }
            return keys
        }
        // The targets are refined apart, on all cores (a sort of tens of
        // thousands of keys each).
        var found = [UInt64](repeating: 0, count: wanted.count)
        try collected.withUnsafeMutableBufferPointer { collected in
            try found.withUnsafeMutableBufferPointer { found in
                try Parallel.forEach(targets.count, control: control) { s in
                    let t = targets[s]
                    let picks = try refine(
                        collected[s], ranks: t.ranks.map { $0.rank }, shift: 48 - bits, control: control)
                    collected[s] = []
                    // Each rank is one target's: the writes never meet.
                    for (j, r) in t.ranks.enumerated() { found[r.index] = picks[j] }
                }
            }
        }
        try control.checkCancellation()
        return (m, found.map(value))
    }

    /// Which target a key prefix belongs to: a table of the top 16 bits
    /// rules out almost every key at once; the few left compare whole.
    private struct TopFilter {
        let prefixes: [UInt64]
        let bits: Int
        var hot = [Bool](repeating: false, count: 1 << 16)

        init(_ prefixes: [UInt64], bits: Int) {
            self.prefixes = prefixes
            self.bits = bits
            for p in prefixes { hot[Int(p >> UInt64(bits - 16))] = true }
        }

        @inline(__always) func target(of prefix: UInt64) -> Int? {
            guard hot[Int(prefix >> UInt64(bits - 16))] else { return nil }
            return prefixes.firstIndex(of: prefix)
        }
    }

    /// `values` above `floor`, sorted descending (a radix sort on the keys,
    /// 16 bits a pass, polling between blocks).
    static func sortedDescending(
        _ values: UnsafeBufferPointer<Double>, above floor: Double,
        control: ComputeControl
    ) throws -> [Double] {
        var keys: [UInt64] = []
        try eachBlock(values.count, control: control) { range in
            for i in range where values[i] > floor { keys.append(key(values[i])) }
        }
        var other = [UInt64](repeating: 0, count: keys.count)
        for shift in stride(from: 0, to: 64, by: 16) {
            var starts = [Int](repeating: 0, count: (1 << 16) + 1)
            try eachBlock(keys.count, control: control) { range in
                for i in range { starts[Int((keys[i] >> UInt64(shift)) & 0xffff) + 1] += 1 }
            }
            for d in 0..<(1 << 16) { starts[d + 1] += starts[d] }
            try eachBlock(keys.count, control: control) { range in
                for i in range {
                    let d = Int((keys[i] >> UInt64(shift)) & 0xffff)
                    other[starts[d]] = keys[i]
                    starts[d] += 1
                }
            }
            swap(&keys, &other)
        }
        return keys.reversed().map(value)
    }

    /// The sum of the values above `floor`, in order, polled.
    package static func sum(_ values: UnsafeBufferPointer<Double>, above floor: Double, control: ComputeControl) throws
        -> Double
    {
        try sum(ValuePasses(values), above: floor, control: control)
    }

    /// ``sum(_:above:control:)`` in one pass over `values`.
    static func sum(_ values: ValuePasses, above floor: Double, control: ComputeControl) throws -> Double {
        var total = 0.0
        try values.pass(control) { block in
            for v in block where v > floor { total += v }
        }
        return total
    }

    /// The smallest and largest value that is not NaN, polled.
    static func extremes(_ values: UnsafeBufferPointer<Double>, control: ComputeControl) throws -> (Double, Double) {
        try extremes(ValuePasses(values), control: control)
    }

    /// ``extremes(_:control:)`` over `values`, its parts on all cores.
    static func extremes(_ values: ValuePasses, control: ComputeControl) throws -> (Double, Double) {
        // As Swift.min and Swift.max pick among equals (−0 and 0): the
        // first smallest and the last largest, part by part, then over
        // the parts in order, which picks the same as one pass.
        let found = try Parallel.map(values.parts, control: control) { k in
            var lo = Double.infinity, hi = -Double.infinity
            try values.pass(part: k, control) { block in
                for v in block {
                    if v < lo { lo = v }
                    if v >= hi { hi = v }
                }
            }
            return (lo, hi)
        }
        var lo = Double.infinity, hi = -Double.infinity
        for (l, h) in found {
            if l < lo { lo = l }
            if h >= hi { hi = h }
        }
        return (lo, hi)
    }

    /// The buckets holding `ranks`, each with its ranks relative to the
    /// bucket's start and their places in `ranks`.
    private static func buckets(of ranks: [Int], in histogram: [Int]) -> [(
        bucket: Int, ranks: [(rank: Int, index: Int)]
    )] {
        let order = ranks.indices.sorted { ranks[$0] < ranks[$1] }
        var out: [(bucket: Int, ranks: [(rank: Int, index: Int)])] = []
        var bucket = 0, start = 0
        for index in order {
            let r = ranks[index]
            while start + histogram[bucket] <= r {
                start += histogram[bucket]
                bucket += 1
            }
            if out.last?.bucket != bucket { out.append((bucket, [])) }
            out[out.count - 1].ranks.append((r - start, index))
        }
        return out
    }

    /// The keys at `ranks` of `keys` in ascending order: sorted when small
    /// (or when no bits are left), otherwise split on the 16 bits at `shift`.
    private static func refine(_ keys: [UInt64], ranks: [Int], shift: Int, control: ComputeControl) throws -> [UInt64] {
        try control.checkCancellation()
        if keys.count <= sortable || shift < 0 {
            let sorted = keys.sorted()
            return ranks.map { sorted[$0] }
        }
        let s = UInt64(shift)
        var histogram = [Int](repeating: 0, count: 1 << 16)
        for k in keys { histogram[Int((k >> s) & 0xffff)] += 1 }
        let targets = buckets(of: ranks, in: histogram)
        var found = [UInt64](repeating: 0, count: ranks.count)
        for t in targets {
            var part: [UInt64] = []
            part.reserveCapacity(histogram[t.bucket])
            for k in keys where Int((k >> s) & 0xffff) == t.bucket { part.append(k) }
            let picks = try refine(part, ranks: t.ranks.map { $0.rank }, shift: shift - 16, control: control)
            for (j, r) in t.ranks.enumerated() { found[r.index] = picks[j] }
        }
        return found
    }

    /// Calls `body` on consecutive ranges of ``block`` indices, polling in between.
    @inline(__always)
    private static func eachBlock(_ count: Int, control: ComputeControl, _ body: (Range<Int>) throws -> Void) throws {
        var start = 0
        while start < count {
            try control.checkCancellation()
            let end = min(start + block, count)
            try body(start..<end)
            start = end
        }
    }
}
