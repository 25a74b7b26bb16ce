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
    static func radii(
        of points: PlanePoints, kernel: DensityKernel, radius: Double, rule: AdaptiveBandwidth,
        budgeted: Bool = false, projection: PlaneProjection = PlaneProjection(kind: .planar),
        control: ComputeControl
    ) throws -> (radii: [Double], summary: AdaptiveSummary) {
        try rule.validate()
        let n = points.count
        let pilot =
            try density(
                of: points, kernel: kernel, radius: radius, budget: budgeted ? pairBudget(n) : nil, control: control)
            ?? interpolated(points, kernel: kernel, radius: radius, projection: projection, control: control)
        // The weight-weighted geometric mean over points of weight > 0.
        var logPilot = [Double](repeating: 0, count: n)
        var logSum = 0.0, weightSum = 0.0
        var lowest = Double.infinity, highest = -Double.infinity
        for i in 0..<n where points.weight[i] > 0 && pilot[i] > 0 {
            logPilot[i] = log(pilot[i])
            logSum += points.weight[i] * logPilot[i]
            weightSum += points.weight[i]
            lowest = min(lowest, pilot[i]); highest = max(highest, pilot[i])
        }
        guard weightSum > 0, highest > lowest * (1 + 1e-12) else {
            throw HeatMapError.invalidConfiguration(
                "adaptive bandwidth: the pilot density is the same at every point (\(n) point\(n == 1 ? "" : "s")), so every radius would be the pilot radius; leave adaptive off"
            )
        }
        // rᵢ = R · min((f̃ᵢ / g)^−α, trim), by logarithms: one exp per point.
        let logG = logSum / weightSum, logTrim = log(rule.trim), logRadius = log(radius)
        var radii = [Double](repeating: radius, count: n)
        var logRadii = [Double](repeating: logRadius, count: n)
        var trimmed = 0
        for i in 0..<n where points.weight[i] > 0 && pilot[i] > 0 {
            let e = -rule.sensitivity * (logPilot[i] - logG)
            if e > logTrim { trimmed += 1 }
            logRadii[i] = logRadius + min(e, logTrim)
            radii[i] = radius * exp(min(e, logTrim))
        }
        return (
            radii, summary(radii: radii, logRadii: logRadii, weights: points.weight, radius: radius, trimmed: trimmed)
        )
    }

    /// Pairs of points the exact pilot may sum before the grid's is read
    /// instead: 256 per point, and 16 million more (a second or so of
    /// work on one core). The exact pilot is exact for every kernel; the
    /// grid's reading errs most near a support's edge, where the
    /// Epanechnikov, triangular and uniform kernels have a corner or a step.
    static func pairBudget(_ n: Int) -> Int { 256 * n + 16_000_000 }

    /// Nodes per pilot radius of the pilot's own grid: cubic interpolation
    /// on it reads a smooth pilot within about 1e-6 of its value and one
    /// with a support edge nearby (a kink of the finite kernels) within
    /// about 1e-3 of the neighbour's share; a radius takes the
    /// pilot's −α-th power, so the local radius is off by α times that.
    static let pilotNodesPerRadius = 24.0

    /// The most nodes of the pilot's grid (64 MiB of doubles); past it the
    /// spacing widens and the pilot is read less finely.
    static let pilotNodeLimit = 1 << 23

    /// The fixed-radius raw density at every point, read by cubic
    /// interpolation from a grid of its own over the points (spacing
    /// ``pilotNodesPerRadius`` per radius, as fine as ``pilotNodeLimit``
    /// allows), whatever grid the density itself is drawn on.
    static func interpolated(
        _ points: PlanePoints, kernel: DensityKernel, radius: Double, projection: PlaneProjection,
        control: ComputeControl
    ) throws -> [Double] {
        let box = points.bounds
        // Two nodes beyond the points on every side: the 4 × 4 reading stencil stays inside.
        var spacing = radius / pilotNodesPerRadius
        func size(_ extent: Double) -> Int { Int((extent / spacing).rounded(.up)) + 5 }
        while size(box.width) * size(box.height) > pilotNodeLimit { spacing *= 1.25 }
        let geometry = GridGeometry(
            columns: size(box.width), rows: size(box.height),
            x0: box.minX - 2 * spacing, y0: box.minY - 2 * spacing, dx: spacing, dy: spacing)
        var accumulator = try DensityAccumulator(
            geometry: geometry, radius: radius, projection: projection,
            kernel: kernel, kernelValues: .raw, expectedCount: points.count)
        var fixed = points
        fixed.radius = nil
        fixed.value = nil
        try accumulator.add(fixed, control: control)
        let grid = try (consume accumulator).finish(control: control)
        try control.checkCancellation()
        return grid.values.withUnsafeBufferPointer { values in
            (0..<points.count).map { i in
                let fx = (points.x[i] - geometry.x0) / spacing, fy = (points.y[i] - geometry.y0) / spacing
                let c = min(max(Int(fx), 1), geometry.columns - 3), r = min(max(Int(fy), 1), geometry.rows - 3)
                let wx = CubicBinning.weights(fx - Double(c)), wy = CubicBinning.weights(fy - Double(r))
                var sum = 0.0
                for k in 0..<4 {
                    let row = (r - 1 + k) * geometry.columns + c - 1
                    let across = SIMD4(values[row], values[row + 1], values[row + 2], values[row + 3])
                    sum += wy[k] * (across * wx).sum()
                }
                // The pilot includes the point itself: never below zero.
                return max(sum, 0)
            }
        }
    }

    /// Σⱼ wⱼ shape(|xᵢ − xⱼ|² / R²) at every point i (itself included), or
    /// nil when that would look at more than `budget` pairs.
    static func density(
        of points: PlanePoints, kernel: DensityKernel, radius: Double, budget: Int? = nil,
        control: ComputeControl
    ) throws -> [Double]? {
        let n = points.count
        guard n > 0 else { return [] }
        let box = points.bounds
        // The Gaussian's 5σ; the finite kernels' support.
        var cell = kernel == .gaussian ? radius * 5 / 3 : radius
        let reachSquared = cell * cell
        // Buckets at most a few per point: sparse points over a wide box
        // get wider buckets (more points looked at, the same sums).
        let limit = Double(4 * n + 1024)
        while ((box.width / cell) + 1) * ((box.height / cell) + 1) > limit { cell *= 2 }
        let columns = Int(box.width / cell) + 1, rows = Int(box.height / cell) + 1
        let buckets = columns * rows
        func bucket(_ i: Int) -> Int {
            let c = min(Int((points.x[i] - box.minX) / cell), columns - 1)
            let r = min(Int((points.y[i] - box.minY) / cell), rows - 1)
            return r * columns + c
        }
        // Counting sort of the point indices by bucket.
        var start = [Int](repeating: 0, count: buckets + 1)
        var of = [Int](repeating: 0, count: n)
        for i in 0..<n { of[i] = bucket(i); start[of[i] + 1] += 1 }
        for b in 0..<buckets { start[b + 1] += start[b] }
        var next = start
        var order = [Int](repeating: 0, count: n)
        for i in 0..<n { order[next[of[i]]] = i; next[of[i]] += 1 }
        try control.checkCancellation()
        if let budget {
            // The pairs the sums below look at: each bucket's points times the points of the 3 × 3 around it.
            var pairs = 0
            for r in 0..<rows {
                for c in 0..<columns {
                    let own = start[r * columns + c + 1] - start[r * columns + c]
                    guard own > 0 else { continue }
                    for rr in max(r - 1, 0)...min(r + 1, rows - 1) {
                        pairs +=
                            own
                            * (start[rr * columns + min(c + 1, columns - 1) + 1] - start[rr * columns + max(c - 1, 0)])
                    }
                }
                if pairs > budget { return nil }
            }
        }

        var result = [Double](repeating: 0, count: n)
        let inverseRadiusSquared = 1 / (radius * radius)
        let chunk = 4096
        try points.x.withUnsafeBufferPointer { xs in
            try points.y.withUnsafeBufferPointer { ys in
                try points.weight.withUnsafeBufferPointer { ws in
                    try result.withUnsafeMutableBufferPointer { out in
                        let xs = xs.baseAddress!, ys = ys.baseAddress!, ws = ws.baseAddress!, out = out.baseAddress!
                        let shared = UncheckedSendable((order, start, of))
                        try Parallel.forEach((n + chunk - 1) / chunk) { k in
                            try control.checkCancellation()
                            let (order, start, of) = shared.value
                            for i in k * chunk..<min(n, (k + 1) * chunk) {
                                let b = of[i], bc = b % columns, br = b / columns
                                let px = xs[i], py = ys[i]
                                var sum = 0.0
                                for r in max(br - 1, 0)...min(br + 1, rows - 1) {
                                    let lo = start[r * columns + max(bc - 1, 0)]
                                    let hi = start[r * columns + min(bc + 1, columns - 1) + 1]
                                    for s in lo..<hi {
                                        let j = order[s]
                                        let dx = xs[j] - px, dy = ys[j] - py
                                        let d2 = dx * dx + dy * dy
                                        if d2 <= reachSquared {
                                            sum += ws[j] * kernel.shape(squaredDistanceRatio: d2 * inverseRadiusSquared)
                                        }
                                    }
                                }
                                out[i] = sum
                            }
                        }
                    }
                }
            }
        }
        return result
    }

    private static func summary(
        radii: [Double], logRadii: [Double], weights: [Double], radius: Double, trimmed: Int
    ) -> AdaptiveSummary {
        var pairs: [SIMD2<Double>] = []
        pairs.reserveCapacity(radii.count)
        var total = 0.0, logSum = 0.0
        var smallest = Double.infinity, largest = -Double.infinity
        for i in radii.indices where weights[i] > 0 {
            let r = radii[i], w = weights[i]
            pairs.append(SIMD2(r, w))
            total += w
            logSum += w * logRadii[i]
            smallest = min(smallest, r)
            largest = max(largest, r)
        }
        guard !pairs.isEmpty else {
            return AdaptiveSummary(
                pilotRadius: radius, geometricMean: radius, smallest: radius, largest: radius,
                percentile5: radius, percentile95: radius, trimmed: trimmed)
        }
        let p5 = WeightedQuantile.value(&pairs, q: 0.05, total: total) ?? radius
        let p95 = WeightedQuantile.value(&pairs, q: 0.95, total: total) ?? radius
        return AdaptiveSummary(
            pilotRadius: radius, geometricMean: total > 0 ? exp(logSum / total) : radius,
            smallest: smallest, largest: largest, percentile5: p5, percentile95: p95, trimmed: trimmed)
    }
}
