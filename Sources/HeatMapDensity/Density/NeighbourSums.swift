import Foundation
import HeatMapCore

/// Σⱼ wⱼ shape(|pᵢ − pⱼ|² / R²) over the neighbours of a point within
/// the kernel's reach, for the points of chosen buckets: the exact pilot
/// of an adaptive bandwidth.
///
/// The points are counted into square buckets half a reach wide, so the
/// buckets a point's neighbours can lie in are the 5 × 5 around its own
/// (6.25 R² looked at for a disc of π R², where reach-wide buckets look
/// at 9 R²). Only the buckets the chosen ones look at are sorted out
/// (``sums(of:into:control:)``): the pilot sums the sparse buckets and
/// reads the rest from a grid, so most points are only counted, never
/// moved. Among the sorted points each row of a block is one run. For
/// each bucket, the block's points are copied once into single-precision
/// arrays relative to the bucket's centre (structure of arrays), which
/// every point of the bucket then sweeps eight neighbours a step with no
/// branch: (1 − d²/R²)ᵖ, masked to 0 beyond the support.
///
/// Precision: relative to the bucket's centre every coordinate is within
/// 2.5 buckets, so a float keeps d²/R² within about 2e-7; each run of up
/// to 512 neighbours is summed in float (relative error within about
/// 512 × 6e-8 = 3e-5 of the run's sum, far less in practice) and the runs in
/// double. The weights are scaled by a power of two so no float
/// overflows. The kernels with a corner or step at the edge (triangular,
/// uniform) and the Gaussian are summed in double, one pair at a time.
///
/// Memory O(n + buckets); counting O(n); the sums O(n + pairs looked at),
/// the pairs on all cores.
struct NeighbourSums: @unchecked Sendable {
    let kernel: DensityKernel
    let radius: Double
    /// Bucket grid.
    let columns: Int
    let rows: Int
    /// Buckets either side of a point's own that may hold its neighbours.
    let span: Int
    /// The bucket of every point, in input order.
    let bucket: [Int]
    /// Bucket b holds start[b + 1] − start[b] points (a prefix sum of the counts).
    let start: [Int]
    /// The points, in input order.
    let points: PlanePoints
    /// The centre of bucket (0, 0) and the bucket's side.
    let originX: Double
    let originY: Double
    let cell: Double
    /// Whether the float sweep serves this kernel at this bucket size.
    let vectorised: Bool

    /// The distance beyond which the kernel is taken as zero: the finite
    /// kernels' support, the Gaussian's 5σ.
    static func reach(kernel: DensityKernel, radius: Double) -> Double {
        kernel == .gaussian ? radius * 5 / 3 : radius
    }

    /// The sums of `points` under `kernel` of `radius`, their `box` given
    /// when known (else measured).
    init(points: PlanePoints, kernel: DensityKernel, radius: Double, box: PlaneBox? = nil) {
        self.kernel = kernel
        self.radius = radius
        self.points = points
        let n = points.count
        let box = box ?? points.bounds
        let reach = NeighbourSums.reach(kernel: kernel, radius: radius)
        // At most a few buckets per point: sparse points over a wide box get
        // wider buckets (more points looked at, the same sums).
        var cell = reach / 2
        let limit = Double(4 * n + 1024)
        while (box.width / cell + 1) * (box.height / cell + 1) > limit { cell *= 2 }
        self.cell = cell
        span = Int((reach / cell).rounded(.up))
        columns = Int(box.width / cell) + 1
        rows = Int(box.height / cell) + 1
        originX = box.minX + cell / 2
        originY = box.minY + cell / 2
        // Floats hold d²/R² well while a bucket is within a few reaches.
        vectorised = NeighbourSums.power(of: kernel) != nil && cell <= 4 * reach
        let columns = self.columns, rows = self.rows
        // The buckets by blocks on all cores (each set once: not cleared first).
        var bucket = [Int](unsafeUninitializedCapacity: n) { _, count in count = n }
        bucket.withUnsafeMutableBufferPointer { out in
            let out = UncheckedSendable(out)
            let blocks = Parallel.blocks(of: n)
            Parallel.forEach(blocks.count) { b in
                for i in blocks[b] {
                    let c = min(Int((points.x[i] - box.minX) / cell), columns - 1)
                    let r = min(Int((points.y[i] - box.minY) / cell), rows - 1)
                    out.value[i] = r * columns + c
                }
            }
        }
        // Counted in four parts side by side, then added bucket by bucket,
        // where the parts' counts take at most 4 bytes a point (else in one).
        let buckets = columns * rows
        let parts = Parallel.blocks(of: n, size: max(16 * buckets <= n ? (n + 3) / 4 : n, 1))
        let counts = bucket.withUnsafeBufferPointer { bucket in
            Parallel.map(parts.count) { part -> [Int32] in
                var counts = [Int32](repeating: 0, count: buckets)
                counts.withUnsafeMutableBufferPointer { counts in
                    for i in parts[part] { counts[bucket[i]] &+= 1 }
                }
                return counts
            }
        }
        var start = [Int](repeating: 0, count: buckets + 1)
        for b in 0..<buckets {
            var total = start[b]
            for part in counts { total += Int(part[b]) }
            start[b + 1] = total
        }
        (self.bucket, self.start) = (bucket, start)
    }

    var bucketCount: Int { columns * rows }

    /// The points of bucket b.
    func count(_ b: Int) -> Int { start[b + 1] - start[b] }

    /// The buckets of bucket b's block: the column span and the rows.
    private func block(_ b: Int) -> (columns: ClosedRange<Int>, rows: ClosedRange<Int>) {
        let c = b % columns, r = b / columns
        return (max(c - span, 0)...min(c + span, columns - 1), max(r - span, 0)...min(r + span, rows - 1))
    }

    /// The points bucket b's block holds: the neighbours each of its points looks at.
    func blockCount(_ b: Int) -> Int {
        let block = self.block(b)
        let lo = block.columns.lowerBound, hi = block.columns.upperBound
        var total = 0
        for rr in block.rows {
            total += start[rr * columns + hi + 1] - start[rr * columns + lo]
        }
        return total
    }

    /// The share of a bucket's block (the square of 2 · span + 1 buckets)
    /// within the kernel's reach of a point of the bucket: where the points
    /// are even, each has about this times the block's points as
    /// neighbours within reach.
    var reachShare: Double {
        let side = Double(2 * span + 1) * cell, reach = NeighbourSums.reach(kernel: kernel, radius: radius)
        return Double.pi * reach * reach / (side * side)
    }

    /// The points a bucket's block holds when each of them has about
    /// `neighbours` others within the kernel's reach (``reachShare``).
    func blockPoints(holding neighbours: Double) -> Int { Int((neighbours / reachShare).rounded(.up)) }

    /// What copying one point of a block into the sweep's floats costs,
    /// in pairs summed: a bucket of few points spends more on the copy of
    /// its block than on its pairs (on 10⁶ points, a budget of 18 million
    /// took about 60 ms of CPU counted in pairs alone, 22 ms counted so).
    static let copyCost = 6

    /// The work of bucket b's sums, in pairs: each of its points against
    /// each of its block's, and the copy of the block once.
    func cost(_ b: Int, block: Int) -> Int { (count(b) + NeighbourSums.copyCost) * block }

    /// The buckets holding points whose sums fit `budget` pairs of work
    /// (``cost(_:block:)``), in increasing order: the buckets ordered by the
    /// points their blocks hold, fewest first (ties in bucket order), taken
    /// while the next one fits, and every bucket whose block holds fewer
    /// than `least` points whatever it costs. Every bucket with points
    /// when `budget` is nil or they all fit. O(buckets × log(largest block)).
    func sparsest(within budget: Int?, takingBlocksBelow least: Int = 0, control: ComputeControl) throws -> [Int] {
        // Each bucket's block, by bands of bucket rows on all cores.
        var sizes = [Int](repeating: -1, count: bucketCount)
        try sizes.withUnsafeMutableBufferPointer { out in
            let out = UncheckedSendable(out)
            try Parallel.forEachRange(of: rows, size: 64, control: control) { band in
                for b in band.lowerBound * columns..<band.upperBound * columns where count(b) > 0 {
                    out.value[b] = blockCount(b)
                }
            }
        }
        let filled = (0..<bucketCount).filter { sizes[$0] >= 0 }
        guard var budget else { return filled }
        // The filled buckets' blocks and costs side by side, for the search's passes.
        let blocks = filled.map { sizes[$0] }
        let costs = filled.indices.map { cost(filled[$0], block: blocks[$0]) }
        // The cost of every bucket whose block holds at most `most` points:
        // a prefix sum over block sizes where they are few enough to
        // index, else a pass over the buckets.
        let largestBlock = blocks.max() ?? 0
        let bySize: [Int]? =
            largestBlock <= 4 * blocks.count + 1024
            ? {
                var sums = [Int](repeating: 0, count: largestBlock + 2)
                for k in blocks.indices { sums[blocks[k] + 1] &+= costs[k] }
                for size in 0...largestBlock { sums[size + 1] &+= sums[size] }
                return sums
            }() : nil
        func spent(upTo most: Int) -> Int {
            if let bySize { return most < 0 ? 0 : bySize[min(most, largestBlock) + 1] }
            var total = 0
            for k in blocks.indices where blocks[k] <= most { total &+= costs[k] }
            return total
        }
        if least > 0 { budget = max(budget, spent(upTo: least - 1)) }
        // The fewest points a block may hold with the buckets up to it
        // costing more than the budget: a search over block sizes.
        var lo = 0, hi = largestBlock
        guard spent(upTo: hi) > budget else { return filled }
        try control.checkCancellation()
        while lo < hi {
            let mid = (lo + hi) / 2
            if spent(upTo: mid) > budget { hi = mid } else { lo = mid + 1 }
        }
        // All the buckets below that size, then those of that size while they fit.
        var left = budget - spent(upTo: lo - 1)
        var chosen: [Int] = []
        var stopped = false
        for k in blocks.indices {
            if blocks[k] < lo {
                chosen.append(filled[k])
            } else if blocks[k] == lo, !stopped {
                if costs[k] > left {
                    stopped = true
                } else {
                    left -= costs[k]
                    chosen.append(filled[k])
                }
            }
        }
        return chosen
    }

    /// The power p of the kernels whose shape is (1 − u²)ᵖ inside the support.
    static func power(of kernel: DensityKernel) -> Int? {
        switch kernel {
        case .epanechnikov: return 1
        case .quartic: return 2
        case .triweight: return 3
        default: return nil
        }
    }

    /// Writes the sum of every point of the buckets `chosen` lists into
    /// `out`, at the point's input index. The points of the chosen
    /// buckets' blocks are sorted out first (``Held``); the buckets are then
    /// split among the cores in runs of about equal work.
    func sums(of chosen: [Int], into out: UnsafeMutablePointer<Double>, control: ComputeControl) throws {
        guard !chosen.isEmpty else { return }
        let held = try Held(self, blocksOf: chosen, control: control)
        // Runs of buckets of about equal pairs, several per core.
        var work = [Int](repeating: 0, count: chosen.count + 1)
        for (k, b) in chosen.enumerated() { work[k + 1] = work[k] + count(b) * (blockCount(b) + 8) }
        let parts = min(chosen.count, 16 * Parallel.workerCount)
        let total = work[chosen.count]
        var cuts = [0]
        for p in 1..<parts {
            let goal = total / parts * p
            var k = cuts.last!
            while k < chosen.count, work[k] < goal { k += 1 }
            if k > cuts.last! { cuts.append(k) }
        }
        cuts.append(chosen.count)
        let result = UncheckedSendable(out)
        try Parallel.forEach(cuts.count - 1, control: control) { part in
            try control.checkCancellation()
            let most = chosen[cuts[part]..<cuts[part + 1]].map { blockCount($0) }.max() ?? 0
            let scratch = UnsafeMutablePointer<Float>.allocate(capacity: 3 * (most + 8))
            defer { scratch.deallocate() }
            for k in cuts[part]..<cuts[part + 1] {
                if vectorised {
                    sweep(bucket: chosen[k], held: held, scratch: scratch, capacity: most + 8, into: result.value)
                } else {
                    exactly(bucket: chosen[k], held: held, into: result.value)
                }
            }
        }
    }

    /// The points of some buckets sorted by bucket: those of the chosen
    /// buckets' blocks, every other bucket empty, so a block's row is still
    /// one run.
    struct Held {
        /// Bucket b's held points are start[b]..<start[b + 1].
        let start: [Int]
        /// The input index of each held point.
        let order: [Int]
        /// The held points' coordinates and weights.
        let x: [Double]
        let y: [Double]
        let weight: [Double]
        /// The largest |weight| of each bucket's held points (0 for none):
        /// a block's largest is the largest of its buckets', not a pass
        /// over its points for every bucket that looks at them.
        let largest: [Double]

        init(_ sums: NeighbourSums, blocksOf chosen: [Int], control: ComputeControl) throws {
            var keep = [Bool](repeating: false, count: sums.bucketCount)
            for b in chosen {
                let block = sums.block(b)
                for r in block.rows { for c in block.columns { keep[r * sums.columns + c] = true } }
            }
            var start = [Int](repeating: 0, count: sums.bucketCount + 1)
            for b in 0..<sums.bucketCount where keep[b] { start[b + 1] = sums.count(b) }
            for b in 0..<sums.bucketCount { start[b + 1] += start[b] }
            try control.checkCancellation()
            // The held points' indices, found by blocks on all cores (in
            // input order), then placed by bucket: only they are moved.
            let blocks = Parallel.blocks(of: sums.bucket.count)
            let found = try Parallel.map(blocks.count, control: control) { part in
                blocks[part].filter { keep[sums.bucket[$0]] }
            }
            // Each held point's place, in input order within its bucket:
            // one store a point here, its coordinates and weight then
            // gathered by blocks of places on all cores.
            let m = start[sums.bucketCount]
            var order = [Int](unsafeUninitializedCapacity: m) { _, count in count = m }
            var next = start
            sums.bucket.withUnsafeBufferPointer { bucket in
                order.withUnsafeMutableBufferPointer { order in
                    next.withUnsafeMutableBufferPointer { next in
                        for part in found {
                            for i in part {
                                let b = bucket[i], s = next[b]
                                next[b] = s + 1
                                order[s] = i
                            }
                        }
                    }
                }
            }
            let points = sums.points
            let (x, y, weight) = try Parallel.threeArrays(count: m, control: control) { _, places, x, y, weight in
                for s in places {
                    let i = order[s]
                    (x[s], y[s], weight[s]) = (points.x[i], points.y[i], points.weight[i])
                }
            }
            // The largest |weight| of each bucket's held points, by bands of buckets.
            var largest = [Double](repeating: 0, count: sums.bucketCount)
            try largest.withUnsafeMutableBufferPointer { largest in
                let largest = UncheckedSendable(largest)
                try Parallel.forEachRange(of: sums.bucketCount, size: 4096, control: control) { buckets in
                    for b in buckets where keep[b] {
                        var most = 0.0
                        for s in start[b]..<start[b + 1] { most = max(most, abs(weight[s])) }
                        largest.value[b] = most
                    }
                }
            }
            (self.start, self.order, self.x, self.y, self.weight) = (start, order, x, y, weight)
            self.largest = largest
        }
    }

    /// Bucket b's sums by the float sweep.
    private func sweep(
        bucket b: Int, held: Held, scratch: UnsafeMutablePointer<Float>, capacity: Int,
        into out: UnsafeMutablePointer<Double>
    ) {
        let (start, order, x, y, weight) = (held.start, held.order, held.x, held.y, held.weight)
        let bucketLargest = held.largest
        let own = start[b]..<start[b + 1]
        guard !own.isEmpty else { return }
        let c = b % columns, r = b / columns
        let cx = originX + Double(c) * cell, cy = originY + Double(r) * cell
        let fx = scratch, fy = scratch + capacity, fw = scratch + 2 * capacity
        // The block's points relative to the bucket's centre, in units of
        // R (so d² is d²/R²), weights scaled into float's range.
        let unit = 1 / radius
        let lo = max(c - span, 0), hi = min(c + span, columns - 1)
        var largest = 0.0
        for rr in max(r - span, 0)...min(r + span, rows - 1) {
            for k in rr * columns + lo...rr * columns + hi { largest = max(largest, bucketLargest[k]) }
        }
        // A power of two: the scaling is exact.
        let scale = largest > 0 ? exp2(-Double(largest.exponent)) : 1
        var m = 0
        for rr in max(r - span, 0)...min(r + span, rows - 1) {
            for s in start[rr * columns + lo]..<start[rr * columns + hi + 1] {
                fx[m] = Float((x[s] - cx) * unit)
                fy[m] = Float((y[s] - cy) * unit)
                fw[m] = Float(weight[s] * scale)
                m += 1
            }
        }
        // Padding to whole steps of eight: weight 0 adds nothing.
        while m % 8 != 0 {
            fx[m] = 0
            fy[m] = 0
            fw[m] = 0
            m += 1
        }
        let power = NeighbourSums.power(of: kernel)!
        let steps = m / 8
        for s in own {
            let px = SIMD8<Float>(repeating: Float((x[s] - cx) * unit))
            let py = SIMD8<Float>(repeating: Float((y[s] - cy) * unit))
            var total = 0.0
            var k = 0
            while k < steps {
                let end = min(steps, k + 64)
                var acc = SIMD8<Float>()
                switch power {
                case 1:
                    while k < end {
                        acc += NeighbourSums.term(px, py, fx, fy, fw, k, power: 1)
                        k += 1
                    }
                case 2:
                    while k < end {
                        acc += NeighbourSums.term(px, py, fx, fy, fw, k, power: 2)
                        k += 1
                    }
                default:
                    while k < end {
                        acc += NeighbourSums.term(px, py, fx, fy, fw, k, power: 3)
                        k += 1
                    }
                }
                total += Double(acc.sum())
            }
            out[order[s]] = total / scale
        }
    }

    /// Eight neighbours' w · max(1 − d², 0)ᵖ.
    @inline(__always) private static func term(
        _ px: SIMD8<Float>, _ py: SIMD8<Float>, _ fx: UnsafeMutablePointer<Float>,
        _ fy: UnsafeMutablePointer<Float>, _ fw: UnsafeMutablePointer<Float>, _ k: Int, power: Int
    ) -> SIMD8<Float> {
        let raw = UnsafeRawPointer(fx + 8 * k)
        let qx = raw.loadUnaligned(as: SIMD8<Float>.self)
        let qy = UnsafeRawPointer(fy + 8 * k).loadUnaligned(as: SIMD8<Float>.self)
        let w = UnsafeRawPointer(fw + 8 * k).loadUnaligned(as: SIMD8<Float>.self)
        let dx = qx - px, dy = qy - py
        let u = 1 - (dx * dx + dy * dy)
        // uᵖ masked to 0 outside the support (pointwiseMax does not vectorise).
        let shape: SIMD8<Float>
        switch power {
        case 1: shape = u
        case 2: shape = u * u
        default: shape = u * u * u
        }
        return (w * shape).replacing(with: 0, where: .!(u .> 0))
    }

    /// Bucket b's sums in double, pair by pair.
    private func exactly(bucket b: Int, held: Held, into out: UnsafeMutablePointer<Double>) {
        let (start, order, x, y, weight) = (held.start, held.order, held.x, held.y, held.weight)
        let c = b % columns, r = b / columns
        let lo = max(c - span, 0), hi = min(c + span, columns - 1)
        let reach = NeighbourSums.reach(kernel: kernel, radius: radius)
        let reachSquared = reach * reach, inverse = 1 / (radius * radius)
        for s in start[b]..<start[b + 1] {
            let px = x[s], py = y[s]
            var sum = 0.0
            for rr in max(r - span, 0)...min(r + span, rows - 1) {
                for t in start[rr * columns + lo]..<start[rr * columns + hi + 1] {
                    let dx = x[t] - px, dy = y[t] - py
                    let d2 = dx * dx + dy * dy
                    if d2 <= reachSquared { sum += weight[t] * kernel.shape(squaredDistanceRatio: d2 * inverse) }
                }
            }
            out[order[s]] = sum
        }
    }
}
