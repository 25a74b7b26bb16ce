import Foundation
import HeatMapCore

/// The fill of a finite kernel of one radius for all points, wide in
/// cells (``DensityScheme/discConvolution``): points binned onto the nodes
/// by cubic weights (``CubicBinning``), then one convolution with the
/// kernel sampled at node offsets, by the Fourier transform
/// (``DiscConvolution``).
///
/// Cost O(N + G log G) for N points and G nodes, whatever the radius, where
/// the exact splat (``DiscFill``) costs O(N r²/δ²). The grid's two halves
/// (or, for the mean estimator, its two channels) ride in the real and
/// imaginary parts of one complex transform.
struct DiscConvolutionFill: DensityFill {
    let kernel: DensityKernel
    let xAxis: GaussianAxis
    let yAxis: GaussianAxis
    /// The support radius (plane units).
    let radius: Double
    /// 1, or 2 for the mean estimator.
    let channels: Int
    /// The padded planes of ``CubicBinning``.
    let planes: UnsafeMutablePointer<Double>

    private var binning: CubicBinning {
        CubicBinning(xAxis: xAxis, yAxis: yAxis, planes: planes, hasValue: channels == 2)
    }

    func deposit(
        x: UnsafePointer<Double>, y: UnsafePointer<Double>, weight: UnsafePointer<Double>,
        value: UnsafePointer<Double>?, count n: Int, control: ComputeControl,
        progress: @escaping @Sendable (Int) -> Void
    ) throws {
        try RowBands.deposit(
            binning, x: x, y: y, weight: weight, value: value, count: n, rows: yAxis.count,
            columns: xAxis.count, control: control, progress: progress)
    }

    /// The planes' doubles for a grid: each channel's padded plane.
    static func planeCount(columns: Int, rows: Int, channels: Int) -> Int {
        let pad = 2 * CubicBinning.padding
        return (columns + pad) * (rows + pad) * channels
    }

    func finish(
        control: ComputeControl, progress: @escaping @Sendable (Double) -> Void,
        emit: (Int, UnsafePointer<Double>?) -> Void
    ) throws {
        let pad = CubicBinning.padding
        let width = binning.paddedColumns, height = binning.paddedRows
        let columns = xAxis.count, rows = yAxis.count
        // Nodes the kernel reaches along each axis (its value is 0 beyond r).
        let reachColumns = Int(min(radius / xAxis.step, Double(width))) + 1
        let reachRows = Int(min(radius / yAxis.step, Double(height))) + 1
        // One channel: the plane's top `split` rows in the real part, the
        // rest in the imaginary part; each half's convolution spills
        // `reachRows` rows into the other's, so the transform is tall
        // enough that no spill wraps onto rows in use.
        let split = channels == 2 ? height : (height + 1) / 2
        let tall = max(split, height - split)
        let n = ComplexFFT.goodSize(atLeast: width + 2 * reachColumns)
        let m = ComplexFFT.goodSize(atLeast: tall + 2 * reachRows)
        let kernel = self.kernel
        let dx = xAxis.step, dy = yAxis.step, rr = radius * radius
        let convolution = try DiscConvolution(
            rows: m, columns: n, reachRows: reachRows, reachColumns: reachColumns, control: control
        ) { i, j in
            let x = Double(i) * dx, y = Double(j) * dy
            let d2 = x * x + y * y
            return d2 <= rr ? kernel.shape(squaredDistanceRatio: d2 / rr) : 0
        }
        progress(0.3)
        guard let reBuffer = GridBuffer(count: m * n), let imBuffer = GridBuffer(count: m * n) else {
            throw DensityStorage.outOfMemory
        }
        let re = reBuffer.base, im = imBuffer.base
        let second = channels == 2 ? planes + width * height : planes + split * width
        for r in 0..<split { (re + r * n).update(from: planes + r * width, count: width) }
        for r in 0..<(channels == 2 ? height : height - split) {
            (im + r * n).update(from: second + r * width, count: width)
        }
        // Σ w, for the floor below which a sum is the transform's rounding.
        var total = 0.0
        for k in 0..<(width * height) { total += abs(planes[k]) }
        let floor = 1e-13 * total
        try convolution.convolve(re: re, im: im, control: control)
        progress(0.9)
        let mean = channels == 2
        try Parallel.forEach((rows + 15) / 16) { b in
            try control.checkCancellation()
            let sums = UnsafeMutablePointer<Double>.allocate(capacity: channels * columns)
            defer { sums.deallocate() }
            for r in b * 16..<min(rows, (b + 1) * 16) {
                let y = r + pad
                if mean {
                    let a = re + y * n + pad, v = im + y * n + pad
                    for c in 0..<columns {
                        sums[c] = a[c] < floor ? 0 : a[c]
                        sums[columns + c] = v[c]
                    }
                } else {
                    // The row's own half, plus the other half's spill near the cut.
                    let own = y < split ? re + y * n : im + (y - split) * n
                    let spill: UnsafeMutablePointer<Double>? =
                        y < split
                        ? (y >= split - reachRows ? im + (y - split + m) * n : nil)
                        : (y < split + reachRows ? re + y * n : nil)
                    for c in 0..<columns {
                        let s = own[pad + c] + (spill?[pad + c] ?? 0)
                        sums[c] = s < floor ? 0 : s
                    }
                }
                emit(r, sums)
            }
        }
        progress(1)
    }
}
