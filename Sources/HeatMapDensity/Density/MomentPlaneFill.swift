import Foundation
import HeatMapCore

/// The 2-D binned methods' fill (``DensityScheme/linearBinning`` and
/// ``DensityScheme/taylorBinning(order:)``): points reduced to moment
/// planes per node (``MomentBinning``), then separable convolutions
/// (``SeparableConvolution``), which overwrite the planes.
struct MomentPlaneFill: DensityFill {
    let xAxis: GaussianAxis
    let yAxis: GaussianAxis
    /// Taylor order, or nil for linear binning.
    package let order: Int?
    /// 1 (density) or 2 (mean estimator).
    let channels: Int
    /// The planes, node-major, the weight channel's then the value channel's.
    let planes: UnsafeMutablePointer<Double>

    func deposit(
        x: UnsafePointer<Double>, y: UnsafePointer<Double>, weight: UnsafePointer<Double>,
        value: UnsafePointer<Double>?, count n: Int, control: ComputeControl,
        progress: @escaping @Sendable (Int) -> Void
    ) throws {
        let binning = MomentBinning(
            xAxis: xAxis, yAxis: yAxis, order: order, planes: planes,
            planeCount: MomentBinning.planeCount(order: order), hasValue: value != nil)
        try RowBands.deposit(
            binning, x: x, y: y, weight: weight, value: value, count: n, rows: yAxis.count,
            columns: xAxis.count, control: control, progress: progress)
    }

    package func finish(
        control: ComputeControl, progress: @escaping @Sendable (Double) -> Void,
        emit: (Int, UnsafePointer<Double>?) -> Void
    ) throws {
        let convolution = SeparableConvolution(order: order, xAxis: xAxis, yAxis: yAxis, channels: channels)
        try convolution.run(planes: planes, control: control, progress: progress, emit: { r, sums in emit(r, sums) })
    }
}
