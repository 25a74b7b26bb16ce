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
    /// The transform's buffers, holding the binned planes (``DiscConvolutionLayout``).
    let planes: UnsafeMutablePointer<Double>

    var layout: DiscConvolutionLayout {
        DiscConvolutionLayout(xAxis: xAxis, yAxis: yAxis, radius: radius, channels: channels)
    }

    private var binning: CubicBinning {
        CubicBinning(xAxis: xAxis, yAxis: yAxis, planes: planes, layout: layout)
    }

    func deposit(
        x: UnsafePointer<Double>, y: UnsafePointer<Double>, weight: UnsafePointer<Double>,
        value: UnsafePointer<Double>?, count n: Int, control: ComputeControl,
        progress: @escaping @Sendable (Int) -> Void
    ) throws {
        let binning = self.binning, layout = self.layout
        // Points held together (in tiles) are binned in windows of the
        // plane's rows, with no sort (one channel).
        if channels == 1,
            let windows = try RowWindows(
                x: x, y: y, weight: weight, count: n, rows: layout.height, rowWidth: layout.width,
                sorter: binning, control: control)
        {
            let planes = self.planes
            try windows.run(control: control, progress: progress) { points, window, rows in
                for i in points {
                    if i & 4095 == 0 { try control.checkCancellation() }
                    binning.deposit(x: x[i], y: y[i], weight: weight[i], into: window, firstRow: rows.lowerBound)
                }
            } target: { row in
                planes + layout.offset(row: row)
            }
            return
        }
        try RowBands.deposit(
            binning, x: x, y: y, weight: weight, value: value, count: n, rows: yAxis.count,
            columns: xAxis.count, control: control, progress: progress)
    }

    func finish(
        control: ComputeControl, progress: @escaping @Sendable (Double) -> Void,
        emit: (Int, UnsafePointer<Double>?) -> Void
    ) throws {
        let pad = CubicBinning.padding
        let layout = self.layout
        let columns = xAxis.count, rows = yAxis.count
        let split = layout.split, reachRows = layout.reachRows
        let m = layout.rows, n = layout.columns
        let kernel = self.kernel
        let dx = xAxis.step, dy = yAxis.step, rr = radius * radius
        let convolution = try DiscConvolution(
            rows: m, columns: n, reachRows: reachRows, reachColumns: layout.reachColumns, control: control
        ) { i, j in
            let x = Double(i) * dx, y = Double(j) * dy
            let d2 = x * x + y * y
            return d2 <= rr ? kernel.shape(squaredDistanceRatio: d2 / rr) : 0
        }
        progress(0.3)
        let re = planes, im = planes + m * n
        let mean = channels == 2
        // Σ w (the weights' rows, in plane order), for the floor below
        // which a sum is the transform's rounding.
        var total = 0.0
        for k in 0..<(channels == 2 ? m * n : 2 * m * n) { total += abs(planes[k]) }
        let floor = 1e-13 * total
        // The rows read below: each half's own, and the spill rows either side of the cut.
        let wanted =
            mean
            ? Array(pad..<(pad + rows))
            : Array(0..<min(split + reachRows, m)) + Array(max(m - reachRows, split + reachRows)..<m)
        try convolution.convolve(
            re: re, im: im, filledRows: layout.filledRows, wanted: wanted, control: control)
        progress(0.9)
        try layout.emitRows(
            re: re, im: im, rows: rows, columns: columns, floor: floor, control: control, emit: emit)
        progress(1)
    }
}
