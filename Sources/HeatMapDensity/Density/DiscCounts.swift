import Foundation
import HeatMapCore

/// Σⱼ wⱼ over the points within distance R of a position, the edge
/// included (d ≤ R, as the finite kernels count it), exactly: what a
/// kernel with a step at its support's edge (the uniform disc, a
/// triangular cone with a decay δ > 0) adds there, which a grid read by
/// interpolation blurs by a good part of every neighbour near the edge.
///
/// The points are sorted into horizontal strips (about R / 9 tall for
/// 50 000 neighbours, R / 3 for 5 000, taller for fewer), and within a
/// strip by x, with the running sum of the weights in that order. A query
/// walks the strips its disc reaches: in each, the points between the
/// chords at the strip's far and near edge are measured, four at a time,
/// and those within the far chord, all inside the disc, are one difference
/// of running sums, the runs' ends found by binary searches. So it
/// measures the points of a band about a strip wide along the circle (a
/// few hundredths of the disc's points where they are dense) and searches
/// four times per strip. Queries are taken by strip and by x within one,
/// each search starting where the query before ended its own in that
/// strip: a few steps, where a search from nothing takes about twelve.
///
/// Memory O(n + strips), the strips at most 4 n + 1024 (taller for sparse
/// points over a tall box); the sorts O(n log n); a query
/// O(R / h · log n) at worst plus the points near its circle.
struct DiscCounts: Sendable {
    let radius: Double
    /// Strip r spans minY + r·height ..< minY + (r + 1)·height.
    let strips: Int
    let height: Double
    let minY: Double
    /// Strip r holds the sorted points start[r] ..< start[r + 1].
    let start: [Int]
    /// The points sorted by strip, then by x: coordinates, and the running
    /// sum of the weights before each (running[s] = Σ weights of 0 ..< s).
    let x: [Double]
    let y: [Double]
    let weight: [Double]
    let running: [Double]

    /// The counts of `points` (within `box`) within `radius`, for queries
    /// that have about `neighbours` points within it.
    ///
    /// A query costs about 2 R / h strips (four searches each, from where
    /// the query before ended them) and measures about 1.3 h / R of its
    /// neighbours, four at a time: strips h = R √(768 / (1.3 · neighbours))
    /// tall (between R / 64 and R / 2). On 10⁶ clustered points the uniform
    /// kernel's adaptive grid at 6 cells took 7.0, 6.7, 6.0, 5.2 and 5.1 s
    /// of CPU with 48, 96, 192, 768 and 1536 in place of 768 (9.1 s before
    /// the measuring took four lanes, docs/performance.md).
    init(points: PlanePoints, radius: Double, box: PlaneBox, neighbours: Double, control: ComputeControl) throws {
        self.radius = radius
        let n = points.count
        var height = radius * min(max((768 / (1.3 * max(neighbours, 1))).squareRoot(), 1.0 / 64), 0.5)
        while box.height / height + 1 > Double(4 * n + 1024) { height *= 2 }
        let strips = Int(box.height / height) + 1
        (self.height, self.strips, minY) = (height, strips, box.minY)
        // A counting sort by strip, then each strip's points by x on all cores.
        var start = [Int](repeating: 0, count: strips + 1)
        let strip = points.y.map { min(Int(($0 - box.minY) / height), strips - 1) }
        for r in strip { start[r + 1] += 1 }
        for r in 0..<strips { start[r + 1] += start[r] }
        var order = [Int](repeating: 0, count: n)
        var next = start
        for (i, r) in strip.enumerated() {
            order[next[r]] = i
            next[r] += 1
        }
        try control.checkCancellation()
        try order.withUnsafeMutableBufferPointer { order in
            let order = UncheckedSendable(order)
            try Parallel.forEachRange(of: strips, size: 256, control: control) { band in
                for r in band where start[r + 1] - start[r] > 1 {
                    var slice = UnsafeMutableBufferPointer(rebasing: order.value[start[r]..<start[r + 1]])
                    slice.sort { a, b in
                        let xa = points.x[a], xb = points.x[b]
                        return xa < xb || (xa == xb && a < b)
                    }
                }
            }
        }
        x = order.map { points.x[$0] }
        y = order.map { points.y[$0] }
        weight = order.map { points.weight[$0] }
        var running = [Double](repeating: 0, count: n + 1)
        for s in 0..<n { running[s + 1] = running[s] + weight[s] }
        (self.start, self.running) = (start, running)
    }

    /// The weight within ``radius`` of (`px`, `py`). `hints` holds, for
    /// each strip the disc reaches (strip r at `hints[2 (r − base)]` and the
    /// next slot), where the two searches of that strip ended for the query
    /// before, or −1: a query next to the one before searches from there.
    func sum(x px: Double, y py: Double, hints: UnsafeMutablePointer<Int>, base: Int) -> Double {
        let r2 = radius * radius
        let first = max(0, Int(((py - radius - minY) / height).rounded(.down)))
        let last = min(strips - 1, Int(((py + radius - minY) / height).rounded(.down)))
        guard first <= last else { return 0 }
        return x.withUnsafeBufferPointer { x in
            y.withUnsafeBufferPointer { y in
                weight.withUnsafeBufferPointer { weight in
                    var total = 0.0
                    for r in first...last {
                        let y0 = minY + Double(r) * height, y1 = y0 + height
                        // The strip's nearest and farthest offsets from the position.
                        let near = py < y0 ? y0 - py : py > y1 ? py - y1 : 0
                        guard near <= radius else { continue }
                        let far = max(abs(y0 - py), abs(y1 - py))
                        let reach = (r2 - near * near).squareRoot()
                        let end = start[r + 1]
                        let hint = hints + 4 * (r - base)
                        // The points from the near chord's left end to its
                        // right end: those between it and the far chord
                        // measured (four at a time, each weight or 0 by a
                        // mask: no branch on a point's side of the circle),
                        // those within the far chord all inside.
                        var s = firstIndex(past: px - reach, orEqual: true, in: start[r]..<end, from: hint[0], x)
                        hint[0] = s
                        let stop = firstIndex(past: px + reach, orEqual: false, in: s..<end, from: hint[3], x)
                        hint[3] = stop
                        if far <= radius {
                            let half = (r2 - far * far).squareRoot()
                            let inner = firstIndex(past: px - half, orEqual: true, in: s..<stop, from: hint[1], x)
                            hint[1] = inner
                            total += measured(s..<inner, px, py, r2, x, y, weight)
                            let e = firstIndex(past: px + half, orEqual: false, in: inner..<stop, from: hint[2], x)
                            hint[2] = e
                            total += running[e] - running[inner]
                            s = e
                        }
                        total += measured(s..<stop, px, py, r2, x, y, weight)
                    }
                    return total
                }
            }
        }
    }

    /// Σ of the weights of the points of `range` within √`r2` of (px, py):
    /// four lanes at a time (each weight or 0 by a mask: no branch on a
    /// point's side of the circle), then the rest one by one. (Eight lanes
    /// took longer: the runs are short, and more of them is left over.)
    @inline(__always) private func measured(
        _ range: Range<Int>, _ px: Double, _ py: Double, _ r2: Double, _ x: UnsafeBufferPointer<Double>,
        _ y: UnsafeBufferPointer<Double>, _ weight: UnsafeBufferPointer<Double>
    ) -> Double {
        typealias Lanes = SIMD4<Double>
        let stride = MemoryLayout<Double>.stride * Lanes.scalarCount
        var lanes = Lanes()
        var s = range.lowerBound
        let (cx, cy, limit) = (Lanes(repeating: px), Lanes(repeating: py), Lanes(repeating: r2))
        var xs = UnsafeRawPointer(x.baseAddress! + s), ys = UnsafeRawPointer(y.baseAddress! + s)
        var ws = UnsafeRawPointer(weight.baseAddress! + s)
        while s + Lanes.scalarCount <= range.upperBound {
            let dx = xs.loadUnaligned(as: Lanes.self) - cx, dy = ys.loadUnaligned(as: Lanes.self) - cy
            lanes += Lanes().replacing(with: ws.loadUnaligned(as: Lanes.self), where: dx * dx + dy * dy .<= limit)
            (xs, ys, ws) = (xs + stride, ys + stride, ws + stride)
            s += Lanes.scalarCount
        }
        var total = lanes.sum()
        while s < range.upperBound {
            let dx = x[s] - px, dy = y[s] - py
            if dx * dx + dy * dy <= r2 { total += weight[s] }
            s += 1
        }
        return total
    }

    /// The first index of `range` whose x is past `value`: ≥ it, or
    /// with `orEqual` false, > it (the range's end if none). Searched
    /// outward from `hint` by doubling steps, then by halving (O(log d) for
    /// an answer d places away), or by halving alone when `hint` is −1.
    @inline(__always) private func firstIndex(
        past value: Double, orEqual: Bool, in range: Range<Int>, from hint: Int, _ x: UnsafeBufferPointer<Double>
    ) -> Int {
        // Before the answer: every index below it, none from it on.
        @inline(__always) func before(_ i: Int) -> Bool { x[i] < value || (!orEqual && x[i] == value) }
        var (lo, hi) = (range.lowerBound, range.upperBound)
        if hint >= lo, hint < hi {
            var step = 1
            if before(hint) {
                lo = hint + 1
                while lo + step - 1 < hi {
                    let probe = lo + step - 1
                    if !before(probe) {
                        hi = probe
                        break
                    }
                    lo = probe + 1
                    step *= 2
                }
            } else {
                hi = hint
                while hi - step >= lo {
                    let probe = hi - step
                    if before(probe) {
                        lo = probe + 1
                        break
                    }
                    hi = probe
                    step *= 2
                }
            }
        }
        while lo < hi {
            let mid = (lo + hi) / 2
            if before(mid) { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    /// ``sum(x:y:hints:base:)`` at every position (`qx`, `qy`): taken in
    /// the order of their strips and, within one, of x, so queries one
    /// after the other read the same strips near where the one before
    /// searched; in blocks on all cores.
    func sums(atX qx: [Double], y qy: [Double], control: ComputeControl) throws -> [Double] {
        let m = qx.count
        var next = [Int](repeating: 0, count: strips + 1)
        let strip = qy.map { min(max(Int(($0 - minY) / height), 0), strips - 1) }
        for r in strip { next[r + 1] += 1 }
        for r in 0..<strips { next[r + 1] += next[r] }
        let queryStart = next
        var order = [Int](repeating: 0, count: m)
        for (k, r) in strip.enumerated() {
            order[next[r]] = k
            next[r] += 1
        }
        try order.withUnsafeMutableBufferPointer { order in
            let order = UncheckedSendable(order)
            try Parallel.forEachRange(of: strips, size: 256, control: control) { band in
                for r in band where queryStart[r + 1] - queryStart[r] > 1 {
                    var slice = UnsafeMutableBufferPointer(rebasing: order.value[queryStart[r]..<queryStart[r + 1]])
                    slice.sort { a, b in qx[a] < qx[b] || (qx[a] == qx[b] && a < b) }
                }
            }
        }
        // A query's disc reaches strips within `reachStrips` of its own.
        let reachStrips = Int((radius / height).rounded(.up)) + 1
        var out = [Double](repeating: 0, count: m)
        let blocks = Parallel.blocks(of: m, size: 4096)
        try out.withUnsafeMutableBufferPointer { out in
            let out = UncheckedSendable(out)
            try Parallel.forEach(blocks.count, control: control) { b in
                try control.checkCancellation()
                let slots = 4 * (2 * reachStrips + 1)
                let hints = UnsafeMutablePointer<Int>.allocate(capacity: slots)
                defer { hints.deallocate() }
                var current = -1
                for j in blocks[b] {
                    let k = order[j]
                    // Hints belong to the strips round one query strip.
                    if strip[k] != current {
                        current = strip[k]
                        hints.initialize(repeating: -1, count: slots)
                    }
                    out.value[k] = sum(x: qx[k], y: qy[k], hints: hints, base: current - reachStrips)
                }
            }
        }
        return out
    }
}
