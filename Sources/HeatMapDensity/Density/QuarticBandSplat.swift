import Foundation
import HeatMapCore

/// The exact disc splat of the quartic kernel, one radius for all points,
/// in single precision: each row band's points (``RowBands``) add
/// w (1 − d²/r²)² into a `Float` copy of the band's rows, eight columns per
/// step, and every ``flushInterval`` points the rectangle they touched is
/// added into the `Double` sums and cleared.
///
/// Twice the nodes per instruction of the double splat (``DiscSplat``) on
/// the default x86-64 target, whose vectors hold four floats or two
/// doubles. The error stays far inside the 1e−3 bound: each term is
/// rounded a few times (about 2e−7 of its value, and 1e−7 of the peak at
/// the support's edge, where 1 − d²/r² cancels), and a float sum of at most
/// ``flushInterval`` non-negative terms is within 1024 × 2⁻²⁴ ≈ 6.1e−5 of
/// its exact value. Weights are scaled by a power of two that brings the
/// slice's largest to 1, so no sum overflows a float; a weight below 2⁻¹⁰⁰
/// of the largest may vanish, which is below 1e−30 of the grid's maximum
/// (at least about the largest weight, the kernel's peak being 1).
struct QuarticBandSplat {
    let xAxis: GaussianAxis
    let yAxis: GaussianAxis
    let radius: Double
    /// Σ w shape, row-major.
    let density: UnsafeMutablePointer<Double>

    /// Points between flushes of a band's float sums.
    static let flushInterval = 1024
    /// Columns per vector step.
    static let lanes = 8

    /// Splats the points of `bands` (entries made by a ``DiscSplat`` of
    /// the quartic with this radius and no radii per point); `scale`
    /// multiplies every weight (a power of two), the flush divides it out.
    func run(
        _ bands: RowBands<DiscEntry>, scale: Double, control: ComputeControl,
        progress: (@Sendable (Int) -> Void)?
    ) throws {
        let rows = yAxis.count, columns = xAxis.count
        let lanes = QuarticBandSplat.lanes
        let reachRows = Int(min(radius / yAxis.step + 1, Double(rows))) + 1
        let reachColumns = Int(min(radius / xAxis.step + 1, Double(columns))) + 1
        // Scratch rows are padded so whole vectors may run past the last column.
        let stride = columns + lanes
        let phases = bands.overlap ? 2 : 1
        let unscale = 1 / scale
        try bands.entries.withUnsafeBufferPointer { entries in
            let entries = entries.baseAddress!
            for phase in 0..<phases {
                try Parallel.forEach((bands.count + phases - 1 - phase) / phases) { k in
                    let b = phases * k + phase
                    try control.checkCancellation()
                    let lo = max(0, bands.cuts[b] - reachRows), hi = min(rows, bands.cuts[b + 1] + reachRows)
                    guard lo < hi else { return }
                    let sums = UnsafeMutablePointer<Float>.allocate(capacity: (hi - lo) * stride)
                    sums.initialize(repeating: 0, count: (hi - lo) * stride)
                    let offsets = UnsafeMutablePointer<Float>.allocate(capacity: 2 * reachColumns + 2 * lanes + 2)
                    defer {
                        sums.deallocate()
                        offsets.deallocate()
                    }
                    var i = bands.starts[b]
                    let end = bands.starts[b + 1]
                    while i < end {
                        let stop = min(end, i + QuarticBandSplat.flushInterval)
                        var touched = (top: Int.max, bottom: Int.min, left: Int.max, right: Int.min)
                        while i < stop {
                            deposit(
                                entries[i], scale: scale, sums: sums, firstRow: lo, stride: stride,
                                offsets: offsets, touched: &touched)
                            i += 1
                        }
                        flush(sums, firstRow: lo, stride: stride, touched: touched, unscale: unscale)
                        try control.checkCancellation()
                    }
                    progress?(end - bands.starts[b])
                }
            }
        }
    }

    /// Adds one point into the band's float sums, widening `touched` (rows
    /// and columns of the grid) to what it wrote.
    @inline(__always)
    private func deposit(
        _ p: DiscEntry, scale: Double, sums: UnsafeMutablePointer<Float>, firstRow: Int, stride: Int,
        offsets tx: UnsafeMutablePointer<Float>,
        touched: inout (top: Int, bottom: Int, left: Int, right: Int)
    ) {
        let w = Float(p.weight * scale)
        guard w != 0 else { return }
        let r = radius
        let xs = xAxis.span(of: p.x, reach: r), ys = yAxis.span(of: p.y, reach: r)
        guard xs.lo <= xs.hi, ys.lo <= ys.hi else { return }
        let inverseRadiusSquared = 1 / (r * r)
        let lanes = QuarticBandSplat.lanes
        let width = xs.hi - xs.lo + 1
        let steps = (width + lanes - 1) / lanes
        // (d_x / r)² of each reached column; past the span a value whose
        // 1 − u² is negative for every row, so whole vectors add zeros.
        // Offsets by steps of δ: a few rounding errors of r, far below a float's.
        var dx = xAxis.origin + Double(xs.lo) * xAxis.step - p.x
        for k in 0..<width {
            tx[k] = Float(dx * dx * inverseRadiusSquared)
            dx += xAxis.step
        }
        for k in width..<(steps * lanes) { tx[k] = 2 }
        touched.top = min(touched.top, ys.lo)
        touched.bottom = max(touched.bottom, ys.hi)
        touched.left = min(touched.left, xs.lo)
        touched.right = max(touched.right, xs.lo + steps * lanes - 1)
        var row = ys.lo
        var dst = sums + (ys.lo - firstRow) * stride + xs.lo
        var dy = yAxis.origin + Double(ys.lo) * yAxis.step - p.y
        while row <= ys.hi {
            let a = Float(1 - dy * dy * inverseRadiusSquared)
            if a > 0 {
                let along = SIMD8<Float>(repeating: a)
                for s in 0..<steps {
                    let u = UnsafeRawPointer(tx + s * lanes).loadUnaligned(as: SIMD8<Float>.self)
                    // (a − u)² where u < a, else 0: the comparison's mask
                    // applied to the square (pointwiseMax does not vectorise).
                    let d = along - u
                    let shape = (d * d).replacing(with: 0, where: .!(u .< along))
                    let target = UnsafeMutableRawPointer(dst + s * lanes)
                    let sum = target.loadUnaligned(as: SIMD8<Float>.self) + w * shape
                    target.storeBytes(of: sum, as: SIMD8<Float>.self)
                }
            }
            row += 1
            dy += yAxis.step
            dst += stride
        }
    }

    /// Adds the touched rectangle of the float sums into the grid (times
    /// `unscale`) and clears it.
    private func flush(
        _ sums: UnsafeMutablePointer<Float>, firstRow: Int, stride: Int,
        touched: (top: Int, bottom: Int, left: Int, right: Int), unscale: Double
    ) {
        guard touched.top <= touched.bottom else { return }
        let columns = xAxis.count
        let right = min(touched.right, columns - 1)
        guard touched.left <= right else { return }
        for row in touched.top...touched.bottom {
            let src = sums + (row - firstRow) * stride
            let dst = density + row * columns
            for c in touched.left...right { dst[c] += Double(src[c]) * unscale }
            // The padding past the last column collects zeros only; clear it with the rest.
            (src + touched.left).update(repeating: 0, count: touched.right - touched.left + 1)
        }
    }
}
