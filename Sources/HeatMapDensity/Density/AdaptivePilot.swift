import Foundation

/// The local radii of an ``AdaptiveBandwidth``: the pilot density at every
/// point, exactly (a sum over the points within reach, found through a
/// grid of buckets one reach wide), then Abramson's rule.
///
/// Cost O(n · neighbours within reach) on all cores, memory O(n).
enum AdaptivePilot {
    /// The radius of every point and a summary.
    ///
    /// - Throws: ``HeatMapError/invalidConfiguration(_:)`` when the pilot
    ///   is the same at every point (nothing to adapt); `CancellationError`.
    /// - Parameter budgeted: whether the exact sums stop at ``pairBudget``
    ///   pairs, the pilot being read beyond it from a fine grid of its own
    ///   by cubic interpolation (as spatstat reads its pilot image, more
    ///   finely); without it the pilot is always exact.
    /// - Parameter box: the points' box (``DensityGrid/bounds(of:control:)``)
    ///   when the caller has it, else measured.
    static func radii(
        of points: PlanePoints, kernel: DensityKernel, radius: Double, rule: AdaptiveBandwidth,
        budgeted: Bool = false, projection: PlaneProjection = PlaneProjection(kind: .planar), box: PlaneBox? = nil,
        control: ComputeControl
    ) throws -> (radii: [Double], summary: AdaptiveSummary, profile: RadiusProfile) {
        try rule.validate()
        let n = points.count
        // Each point's radius is written over its pilot once that is read
        // (no second array of n, fresh pages to fault in).
        let box = try box ?? DensityGrid.bounds(of: points, control: control)
        let fine = nodesPerRadius(points: n, box: box, radius: radius, kernel: kernel) >= fineNodesPerRadius(kernel)
        var pilot = try density(
            of: points, kernel: kernel, radius: radius, budget: budgeted ? pairBudget(n, fineGrid: fine) : nil,
            projection: projection, box: box, control: control)
        // The weight-weighted geometric mean over points of weight > 0, by
        // blocks on all cores, added in block order (the same bits whatever the cores).
        let blocks = Parallel.blocks(of: n)
        let weightScale = sumScale(of: points.weight)
        // Set by blocks on all cores, not cleared first: read only where
        // the weight and the pilot are above 0, where the pass sets them.
        var logPilot = [Double](unsafeUninitializedCapacity: n) { _, count in count = n }
        let pilotParts = try logPilot.withUnsafeMutableBufferPointer { logs in
            try pilot.withUnsafeBufferPointer { pilot in
                let (logs, pilot) = (UncheckedSendable(logs), UncheckedSendable(pilot))
                return try Parallel.map(blocks.count, control: control) { part -> SIMD4<Double> in
                    // (Σ w log f̃, Σ w, lowest, highest) of the block.
                    var sums = SIMD4<Double>(0, 0, .infinity, -.infinity)
                    for i in blocks[part] {
                        let f = pilot.value[i]
                        guard points.weight[i] > 0 && f > 0 else {
                            logs.value[i] = 0
                            continue
                        }
                        let value = log(f)
                        logs.value[i] = value
                        let w = points.weight[i] * weightScale
                        sums[0] += w * value
                        sums[1] += w
                        sums[2] = min(sums[2], f)
                        sums[3] = max(sums[3], f)
                    }
                    return sums
                }
            }
        }
        var logPilotSum = 0.0, weightSum = 0.0
        var lowestPilot = Double.infinity, highestPilot = -Double.infinity
        for part in pilotParts {
            logPilotSum += part[0]
            weightSum += part[1]
            lowestPilot = min(lowestPilot, part[2])
            highestPilot = max(highestPilot, part[3])
        }
        // A pilot past the largest double: the density would overflow too.
        guard highestPilot.isFinite else { throw HeatMapError.sumsOverflow() }
        guard weightSum > 0, highestPilot > lowestPilot * (1 + 1e-12) else {
            let weighted = points.weight.reduce(0) { $1 > 0 ? $0 + 1 : $0 }
            throw HeatMapError.invalidConfiguration(
                "adaptive bandwidth: the pilot density is the same at every point (\(weighted) point\(weighted == 1 ? "" : "s") of weight above 0), so every radius would be the pilot radius; leave adaptive off"
            )
        }
        // rᵢ = R · min((f̃ᵢ / g)^−α, trim): one exp per point, or under
        // Abramson's square-root law (α = ½) a square root. Each block also
        // sums Σ w ln r for the summary, counts the trimmed and tallies the
        // radii's profile and weighted percentiles over the range the
        // pilot's gives: ln r runs from ln R + min(−α (ln f̃max − ln g), ln trim)
        // up to at most ln R + max(min(−α (ln f̃min − ln g), ln trim), 0).
        let logG = logPilotSum / weightSum, logTrim = log(rule.trim), logRadius = log(radius)
        let lowestLog = logRadius + min(-rule.sensitivity * (log(highestPilot) - logG), logTrim)
        let highestLog = logRadius + max(min(-rule.sensitivity * (log(lowestPilot) - logG), logTrim), 0)
        let squareRoot = rule.sensitivity == 0.5, g = exp(logG), trimmedRadius = radius * exp(logTrim)
        typealias Part = (
            logSum: Double, trimmed: Int, profile: RadiusProfile.Tally, percentiles: WeightedQuantile.Tally
        )
        // Every radius set over its point's pilot by blocks on all cores
        // (the pilot radius where the weight or the pilot is not above 0).
        let parts = try pilot.withUnsafeMutableBufferPointer { values in
            let values = UncheckedSendable(values)
            return try Parallel.map(blocks.count, control: control) { b -> Part in
                // The block's sums and tallies in locals of their own, not
                // fields of the tuple returned: held in registers.
                var logSum = 0.0, trimmed = 0
                var profile = RadiusProfile.Tally(lowestLog: lowestLog, highestLog: highestLog)
                var percentiles = WeightedQuantile.Tally(from: exp(lowestLog), to: exp(highestLog))
                for i in blocks[b] {
                    let f = values.value[i]
                    guard points.weight[i] > 0 else {
                        values.value[i] = radius
                        continue
                    }
                    var logR = logRadius, r = radius
                    if f > 0 {
                        let e = -rule.sensitivity * (logPilot[i] - logG)
                        if e > logTrim { trimmed += 1 }
                        logR += min(e, logTrim)
                        r = e > logTrim ? trimmedRadius : radius * (squareRoot ? (g / f).squareRoot() : exp(e))
                    }
                    values.value[i] = r
                    let w = points.weight[i] * weightScale
                    logSum += w * logR
                    profile.add(r, log: logR)
                    percentiles.add(r, weight: w)
                }
                return (logSum, trimmed, profile, percentiles)
            }
        }
        let radii = pilot
        var logSum = 0.0, trimmed = 0
        var smallest = Double.infinity, largest = -Double.infinity, total = 0.0
        for part in parts {
            logSum += part.logSum
            trimmed += part.trimmed
            total += part.percentiles.total
            smallest = min(smallest, part.percentiles.smallest.value)
            largest = max(largest, part.percentiles.largest.value)
        }
        let quantiles =
            WeightedQuantile.values(
                radii, weights: points.weight, at: [0.05, 0.95], tallies: parts.map { $0.percentiles })
            ?? [radius, radius]
        let summary = AdaptiveSummary(
            pilotRadius: radius, geometricMean: exp(logSum / total), smallest: smallest, largest: largest,
            percentile5: quantiles[0], percentile95: quantiles[1], trimmed: trimmed)
        return (radii, summary, RadiusProfile(tallies: parts.map { $0.profile }))
    }

    /// A power of two to multiply the weights by before they are summed,
    /// so that no sum of them, nor of them times a logarithm, overflows: 1
    /// (the sums unchanged to the bit) unless the largest weight times the
    /// count of weights, times 2^10 for the logarithms, would pass the
    /// largest double. A power of two scales every sum exactly, so the
    /// means and quantiles made of their ratios are those of the weights
    /// themselves. O(n).
    static func sumScale(of weights: [Double]) -> Double {
        let largest = LargestValue.of(weights)
        let limit = Double.greatestFiniteMagnitude / 1024 / Double(max(weights.count, 1))
        guard largest > limit, largest.isFinite else { return 1 }
        return Double(sign: .plus, exponent: limit.exponent - largest.exponent - 1, significand: 1)
    }

    /// Pairs of points the exact pilot may sum before the grid's is read
    /// for the densest buckets: 8 per point and 2 million more, counted
    /// with the copies of the buckets' blocks (``NeighbourSums/cost(_:block:)``),
    /// about 1.2 ns each, so the exact part of 10⁶ points stays near 10 ms
    /// of CPU, a sixth of the coarse grid's splat (16 per point took 6 ms
    /// more and moved no finished grid by more than 2e-6 of its maximum:
    /// the points between are read where many neighbours share each
    /// reading's error). The
    /// sparsest buckets come first: their points, whose pilot is mostly
    /// their own and a few neighbours' shares, are summed exactly (and
    /// every point of inputs whose pairs fit). The exact pilot is exact
    /// for every kernel; the grid's reading errs most near a support's
    /// edge, where the Epanechnikov, triangular and uniform kernels have a
    /// corner or a step, and least where many neighbours share each
    /// reading's error. On the fine grid (``fineNodesPerRadius(_:)``, where
    /// n is large and the radius wide in the grid's cells) a reading errs
    /// a fifth to a tenth as much as on the coarse one ((6/14)² or (6/20)²
    /// for the edge's kink), and the pairs per point are 4: the points past the budget
    /// are a few more of the densest, read from a grid that costs the same.
    static func pairBudget(_ n: Int, fineGrid: Bool = false) -> Int { (fineGrid ? 4 : 8) * n + 2_000_000 }

    /// The fewest neighbours within reach a point's pilot is read from the
    /// grid with, whatever the budget: sparser points are summed exactly.
    /// The grid's reading errs most at the support's edge (a kink the
    /// cubic cannot follow), by a share of each neighbour near it, so a
    /// pilot of few neighbours errs most for its size, and the error falls
    /// about as the square root of their count. On 3 × 10⁵ evenly spread
    /// points read from the grid, the finished grids moved against an
    /// exact pilot's by (of their maximum): at about 8 neighbours, 1.1e-3
    /// (quartic), 1.7e-3 (triweight), 3e-3 (Gaussian, 22 within its
    /// reach), 4.9e-3 (Epanechnikov) and 4.7e-3 (triangular, at 30); at
    /// about 30, 6e-4 (quartic), 7.8e-4 (triweight), 2.2e-3 (Epanechnikov);
    /// at about 130, 3.4e-4, 5e-4 and 1e-3. So 64 for the kernels smooth
    /// at the edge, 1024 for the Epanechnikov and triangular, whose edge
    /// has a corner. Points this sparse cost about as much summed as read
    /// (the grid then often not made at all). A kernel all step at the
    /// edge (the uniform disc) reads nothing from a grid: no floor.
    static func fewestNeighboursRead(_ kernel: DensityKernel) -> Double {
        switch kernel {
        case .epanechnikov, .triangular: return 1024
        default: return 64
        }
    }

    /// How many times ``pairBudget(_:)`` a kernel's exact pilot may take:
    /// 8 for the triangular, whose cone has a corner at its centre: the
    /// grid's reading blurs that corner at every near neighbour (errors of
    /// a few per cent of the share of each within a few nodes), so a
    /// triangular pilot is summed exactly as far as 8 times the pairs
    /// allow (about 0.15 µs a point and 20 ms more); 1 for the others.
    static func budgetFactor(_ kernel: DensityKernel) -> Int {
        if case .triangular(let decay) = kernel, decay < 1 { return 8 }
        return 1
    }

    /// The points with each position held once, of its points' summed
    /// weight, and the position of every point; nil unless at least a
    /// quarter of the points share their position with another. O(n log n).
    static func mergedPositions(
        of points: PlanePoints, control: ComputeControl
    ) throws -> (points: PlanePoints, position: [Int])? {
        let n = points.count
        let x = points.x, y = points.y
        var order = Array(0..<n)
        order.sort { x[$0] < x[$1] || (x[$0] == x[$1] && (y[$0] < y[$1] || (y[$0] == y[$1] && $0 < $1))) }
        try control.checkCancellation()
        var distinct = 0
        for k in order.indices where k == 0 || x[order[k]] != x[order[k - 1]] || y[order[k]] != y[order[k - 1]] {
            distinct += 1
        }
        guard distinct * 4 <= 3 * n else { return nil }
        var merged = PlanePoints()
        merged.reserveCapacity(distinct)
        var position = [Int](repeating: 0, count: n)
        for (k, i) in order.enumerated() {
            if k == 0 || x[i] != x[order[k - 1]] || y[i] != y[order[k - 1]] {
                merged.append(x: x[i], y: y[i], weight: 0)
            }
            let m = merged.count - 1
            merged.weight[m] += points.weight[i]
            position[i] = m
        }
        return (merged, position)
    }

    /// Nodes per pilot radius of the pilot's own grid where that grid is
    /// cheap to make (a transform, the radius being wide in its cells):
    /// 14 for the kernels whose grid is then a Fourier convolution
    /// (``fineScheme(_:)``), 20 for the others. Cubic interpolation on it
    /// reads a smooth pilot within a few 1e-6 of its value and one with a
    /// support edge nearby (a kink of the finite kernels) within about
    /// 1e-3 of the neighbour's share; the convolution's own binning errs
    /// at 14 nodes by about 1.5e-3 of a lone point's peak (the table on
    /// ``DensityPlan/discScheme(method:kernel:radius:xAxis:yAxis:channels:pointCount:)``),
    /// which the exact sums spare the sparse points: the grid is read
    /// where many neighbours share each reading's error. A radius takes
    /// the pilot's −α-th power, so the local radius is off by α times that.
    /// On 10⁶ clustered points the quartic's finished grid at 20 cells
    /// moves by 4.6e-5 of its maximum at 14 nodes against the exact pilot
    /// (1.2e-5 at 20, 2.8e-5 at 16), for 9–12 ms less CPU (docs/performance.md).
    static func fineNodesPerRadius(_ kernel: DensityKernel) -> Double { fineScheme(kernel) == nil ? 20 : 14 }

    /// The scheme the fine pilot grid of `kernel` is made by when the
    /// planner would splat it at ``fineNodesPerRadius(_:)`` nodes: the
    /// disc convolution for the kernels it serves
    /// (``DensityPlan/convolutionRadiusInCells(_:)``), nil for the others.
    static func fineScheme(_ kernel: DensityKernel) -> DensityScheme? {
        DensityPlan.convolutionRadiusInCells(kernel) == nil ? nil : .discConvolution
    }

    /// Nodes per pilot radius where the fine grid would cost more than
    /// splatting every point on this one. The grid is read only where the
    /// points are too dense for the exact sums, so many neighbours share
    /// each reading's error: on 10⁵ and 10⁶ clustered points (docs/performance.md)
    /// a finite kernel's finished grid moves by under 1e-4 of its maximum
    /// at 6 nodes per radius (about the fixed grid's splat of 6-cell
    /// kernels), against 4e-7 at the fine spacing. The Gaussian reaches
    /// 5/3 of its radius, so more of its points pass the budget, and its
    /// grid is binned, not splatted: at 6 nodes per radius (2 per σ) the
    /// binning's and the reading's errors each come near 1e-3 of a share,
    /// and the finished grid of the storms moved by 1.4e-3 of its maximum;
    /// 12 (4 per σ) brings that to 9e-5.
    static func coarseNodesPerRadius(_ kernel: DensityKernel) -> Double { kernel.isFinite ? 6 : 12 }

    /// The pilot grid's nodes per radius for `n` points over `box`: the
    /// fine spacing if its grid fits ``pilotNodeLimit`` and its transform
    /// costs less than the coarse grid's splat. The costs are nanoseconds
    /// measured on 10⁶ points (docs/performance.md): a transform about 20
    /// per point and 2 per node and halving, a splat 20 per point and 0.9 per node.
    static func nodesPerRadius(points n: Int, box: PlaneBox, radius: Double, kernel: DensityKernel) -> Double {
        let fine = fineNodesPerRadius(kernel), coarse = coarseNodesPerRadius(kernel)
        let spacing = radius / fine
        let cells = (box.width / spacing + 5) * (box.height / spacing + 5)
        guard cells <= Double(pilotNodeLimit) else { return coarse }
        let transform = Double(n) * 20 + cells * log2(cells) * 2
        let splat = Double(n) * (20 + 0.9 * Double.pi * coarse * coarse)
        return transform <= splat ? fine : coarse
    }

    /// The most nodes of the pilot's grid (64 MiB of doubles); past it the
    /// spacing widens and the pilot is read less finely.
    static let pilotNodeLimit = 1 << 23

    /// The fixed-radius raw density at the points `indices` lists (every
    /// point by default), read by cubic interpolation from a grid of its
    /// own over the points (`nodesPerRadius` per radius, by default
    /// ``nodesPerRadius(points:box:radius:kernel:)``, as fine as
    /// ``pilotNodeLimit`` allows), whatever grid the density itself is drawn on.
    static func interpolated(
        _ points: PlanePoints, at indices: [Int]? = nil, kernel: DensityKernel, radius: Double,
        nodesPerRadius: Double? = nil, projection: PlaneProjection, control: ComputeControl
    ) throws -> [Double] {
        // Every point: its own coordinate arrays, not a gathered copy.
        let x = indices.map { $0.map { points.x[$0] } } ?? points.x
        let y = indices.map { $0.map { points.y[$0] } } ?? points.y
        return try interpolated(
            points, atX: x, y: y, kernel: kernel,
            radius: radius, nodesPerRadius: nodesPerRadius, projection: projection, control: control)
    }

    /// The same at the positions (`x`, `y`) (among the points, each within
    /// their box, which is measured unless `box` gives it): read in the
    /// order given, so positions near each other in it share the grid's
    /// cache lines.
    static func interpolated(
        _ points: PlanePoints, atX queryX: [Double], y queryY: [Double], kernel: DensityKernel, radius: Double,
        nodesPerRadius: Double? = nil, box: PlaneBox? = nil, projection: PlaneProjection, control: ComputeControl
    ) throws -> [Double] {
        let grid = try PilotGrid(
            points, kernel: kernel, radius: radius, nodesPerRadius: nodesPerRadius, box: box,
            projection: projection, control: control)
        var read = [Double](repeating: 0, count: queryX.count)
        try queryX.withUnsafeBufferPointer { xs in
            try queryY.withUnsafeBufferPointer { ys in
                try read.withUnsafeMutableBufferPointer { out in
                    let (xs, ys, out) = (UncheckedSendable(xs), UncheckedSendable(ys), UncheckedSendable(out))
                    try grid.forEachBlock(of: queryX.count, control: control) { block, values in
                        for k in block { out.value[k] = grid.value(values, x: xs.value[k], y: ys.value[k]) }
                    }
                }
            }
        }
        return read
    }

    /// A kernel's shape as a step at its support's edge, shape(1) (the
    /// uniform disc's 1, a triangular cone's decay δ, 0 for the others),
    /// plus a kernel continuous there times a factor (the triangular's
    /// (1 − δ) × the cone of decay 0; the kernel itself when there is no
    /// step; nil for the uniform disc, all step).
    static func stepAtEdge(
        of kernel: DensityKernel
    ) -> (step: Double, smooth: (kernel: DensityKernel, factor: Double)?) {
        switch kernel {
        case .uniform: return (1, nil)
        case .triangular(let decay) where decay > 0:
            return (decay, decay < 1 ? (.triangular(decay: 0), 1 - decay) : nil)
        default: return (0, (kernel, 1))
        }
    }

    /// The fixed-radius raw density Σⱼ wⱼ shape(|xᵢ − xⱼ|² / R²) at every
    /// point i (itself included): exact for the points of the buckets that
    /// look at the fewest neighbours (``NeighbourSums``), as many as
    /// `budget` pairs allow (all of them without a budget) and every one
    /// sparser than ``fewestNeighboursRead(_:)``, and read from
    /// a grid of its own (``PilotGrid``) for the rest, in place, which lie
    /// where the points are dense: there each
    /// neighbour's share of the pilot is small, and so is the reading's
    /// error, which is at most about 1e-3 of the shares near the support's
    /// edge where the kernel is continuous. A step there (``stepAtEdge(of:)``)
    /// would be blurred by a good part of every neighbour near the edge: the
    /// step's part is counted exactly (``DiscCounts``), the rest read.
    ///
    /// For a kernel with a corner at its centre (the triangular), where the
    /// budget does not reach every point and many points share a position
    /// (a cluster of duplicates, whose pilot a grid reads worst: every one
    /// of its terms has its corner at the reading's own point), the points
    /// of one position are summed as one, of their summed weight, and each
    /// gets its position's pilot: the same sums, over fewer pairs. (The
    /// other kernels are smooth at their centre: a grid reads them well
    /// there, and the sort this takes, about 0.1 s for 10⁶ points, is not
    /// spent on them.) `merging: false` sums the points as they are.
    /// `box` is the points' box when known, else measured.
    static func density(
        of points: PlanePoints, kernel: DensityKernel, radius: Double, budget: Int? = nil,
        projection: PlaneProjection = PlaneProjection(kind: .planar), box: PlaneBox? = nil, control: ComputeControl,
        merging: Bool = true
    ) throws -> [Double] {
        let n = points.count
        guard n > 0 else { return [] }
        let box = try box ?? DensityGrid.bounds(of: points, control: control)
        let sums = NeighbourSums(points: points, kernel: kernel, radius: radius, box: box)
        try control.checkCancellation()
        // A step at the support's edge is counted exactly, the rest of the
        // kernel (continuous there) read from the grid, unless too few
        // neighbours share the reading's error.
        let (step, smooth) = stepAtEdge(of: kernel)
        let exact = try sums.sparsest(
            within: budget.map { $0 * budgetFactor(kernel) },
            takingBlocksBelow: smooth == nil ? 0 : sums.blockPoints(holding: fewestNeighboursRead(kernel)),
            control: control)
        let exactCount = exact.reduce(0) { $0 + sums.count($1) }
        if merging, exactCount < n, budgetFactor(kernel) > 1,
            let (merged, position) = try mergedPositions(of: points, control: control)
        {
            let pilot = try density(
                of: merged, kernel: kernel, radius: radius, budget: budget, projection: projection,
                control: control, merging: false)
            return position.map { pilot[$0] }
        }
        let isExact = {
            var flags = [Bool](repeating: false, count: sums.bucketCount)
            for b in exact { flags[b] = true }
            return flags
        }()
        var result = Parallel.zeros(n)
        if exactCount < n, let smooth {
            // Straight into the result, point by point in input order: the
            // readings need no gathered copy of the points read. The exact
            // points are read too, and their sums written over the reading
            // below: cheaper than looking up each point's bucket (few are exact
            // where many are read).
            let grid = try PilotGrid(
                points, kernel: smooth.kernel, radius: radius, box: box, projection: projection, control: control)
            try result.withUnsafeMutableBufferPointer { out in
                let out = UncheckedSendable(out)
                try grid.forEachBlock(of: n, control: control) { block, values in
                    for i in block {
                        out.value[i] = smooth.factor * grid.value(values, x: points.x[i], y: points.y[i])
                    }
                }
            }
        }
        if exactCount < n, step > 0 {
            // The points counted: their index and position, in input order
            // (each block's count, then its points copied, on all cores).
            let blocks = Parallel.blocks(of: n)
            let counts = try Parallel.map(blocks.count, control: control) { part in
                blocks[part].reduce(0) { isExact[sums.bucket[$1]] ? $0 : $0 + 1 }
            }
            var offsets = [0]
            for c in counts { offsets.append(offsets.last! + c) }
            let m = n - exactCount
            var rest = [Int](repeating: 0, count: m)
            var restX = [Double](repeating: 0, count: m), restY = [Double](repeating: 0, count: m)
            try rest.withUnsafeMutableBufferPointer { index in
                try restX.withUnsafeMutableBufferPointer { x in
                    try restY.withUnsafeMutableBufferPointer { y in
                        let (index, x, y) = (UncheckedSendable(index), UncheckedSendable(x), UncheckedSendable(y))
                        try Parallel.forEach(blocks.count, control: control) { part in
                            var k = offsets[part]
                            for i in blocks[part] where !isExact[sums.bucket[i]] {
                                index.value[k] = i
                                x.value[k] = points.x[i]
                                y.value[k] = points.y[i]
                                k += 1
                            }
                        }
                    }
                }
            }
            // The queries' neighbours within R (the reach of a kernel with
            // a step), from the points of their buckets' blocks.
            var looked = 0.0
            for b in 0..<sums.bucketCount where !isExact[b] {
                looked += Double(sums.count(b)) * Double(sums.blockCount(b))
            }
            let neighbours = looked / Double(m) * sums.reachShare
            let counted = try DiscCounts(
                points: points, radius: radius, box: box, neighbours: neighbours, control: control)
            for (k, count) in try counted.sums(atX: restX, y: restY, control: control).enumerated() {
                result[rest[k]] += step * count
            }
        }
        try result.withUnsafeMutableBufferPointer { out in
            try sums.sums(of: exact, into: out.baseAddress!, control: control)
        }
        return result
    }
}

/// The pilot's fixed-radius raw density on a grid of its own over the
/// points (``AdaptivePilot/nodesPerRadius(points:box:radius:kernel:)`` nodes per
/// radius unless told, as fine as ``AdaptivePilot/pilotNodeLimit``
/// allows), read by cubic interpolation, whatever grid the density itself
/// is drawn on.
struct PilotGrid: Sendable {
    let values: [Double]
    let x0: Double
    let y0: Double
    /// 1 / the spacing of the nodes.
    let inverse: Double
    let columns: Int
    let rows: Int

    /// The grid of `points` (within `box`, measured unless given).
    init(
        _ points: PlanePoints, kernel: DensityKernel, radius: Double, nodesPerRadius: Double? = nil,
        box: PlaneBox? = nil, projection: PlaneProjection, control: ComputeControl
    ) throws {
        let box = try box ?? DensityGrid.bounds(of: points, control: control)
        // Two nodes beyond the points on every side: the 4 × 4 reading stencil stays inside.
        let perRadius =
            nodesPerRadius
            ?? AdaptivePilot.nodesPerRadius(points: points.count, box: box, radius: radius, kernel: kernel)
        var spacing = radius / perRadius
        func size(_ extent: Double) -> Int { Int((extent / spacing).rounded(.up)) + 5 }
        while size(box.width) * size(box.height) > AdaptivePilot.pilotNodeLimit { spacing *= 1.25 }
        let geometry = GridGeometry(
            columns: size(box.width), rows: size(box.height),
            x0: box.minX - 2 * spacing, y0: box.minY - 2 * spacing, dx: spacing, dy: spacing)
        // The fine spacing is narrower than the planner's least radius for a
        // convolution: it is chosen for one, so the grid is made by one.
        let fine = spacing == radius / AdaptivePilot.fineNodesPerRadius(kernel)
        var accumulator = try DensityAccumulator(
            geometry: geometry, radius: radius, projection: projection, estimator: .density,
            method: .automatic, kernel: kernel, kernelValues: .raw, maximumRadius: nil, radiusProfile: nil,
            expectedCount: points.count, scheme: fine ? AdaptivePilot.fineScheme(kernel) : nil)
        var fixed = points
        fixed.radius = nil
        fixed.value = nil
        try accumulator.add(fixed, control: control)
        values = try (consume accumulator).finish(control: control).values
        try control.checkCancellation()
        (x0, y0, inverse) = (geometry.x0, geometry.y0, 1 / spacing)
        (columns, rows) = (geometry.columns, geometry.rows)
    }

    /// The reading at (x, y) (within the points' box) of the grid's
    /// `values` (``forEachBlock(of:control:_:)`` hands them out): 16 nodes
    /// and a few multiplies.
    @inline(__always) func value(_ values: UnsafePointer<Double>, x: Double, y: Double) -> Double {
        let fx = (x - x0) * inverse, fy = (y - y0) * inverse
        let c = min(max(Int(fx), 1), columns - 3), r = min(max(Int(fy), 1), rows - 3)
        let wx = CubicBinning.weights(fx - Double(c)), wy = CubicBinning.weights(fy - Double(r))
        var across = SIMD4<Double>()
        for j in 0..<4 {
            let row = values + (r - 1 + j) * columns + c - 1
            across += wy[j] * SIMD4(row[0], row[1], row[2], row[3])
        }
        // The pilot includes the point itself: never below zero.
        return max((across * wx).sum(), 0)
    }

    /// Calls `body` with blocks of `0 ..< count` and the grid's values, on
    /// all cores, polling `control` between blocks.
    func forEachBlock(
        of count: Int, control: ComputeControl,
        _ body: @Sendable (Range<Int>, UnsafePointer<Double>) -> Void
    ) throws {
        let blocks = Parallel.blocks(of: count, size: 16_384)
        try values.withUnsafeBufferPointer { values in
            let values = UncheckedSendable(values.baseAddress!)
            try Parallel.forEach(blocks.count, control: control) { part in
                try control.checkCancellation()
                body(blocks[part], values.value)
            }
        }
    }
}
