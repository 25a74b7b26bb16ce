import Foundation
import HeatMapCore

/// Whether a binned scheme bins a point onto its nodes; the others (points
/// off the grid, a rare case: fitted grids hold all points) are splatted
/// exactly instead.
///
/// The binnable points form a box (an interval of x times one of y, either
/// maybe unbounded): the tests below are interval tests on each axis's
/// monotone node index. So a box of points is binnable when its two
/// opposite corners are (``BatchCheck`` relies on this).
struct Binnability: Sendable {
    let scheme: DensityScheme
    let xAxis: GaussianAxis
    let yAxis: GaussianAxis

    @inline(__always) package func contains(x: Double, y: Double) -> Bool {
        switch scheme {
        case .direct, .radiusClasses:
            // Radius classes splat what they cannot bin themselves.
            return true
        case .rowMoments:
            return yAxis.node(atIndex: yAxis.index(of: y)) != nil
        case .discConvolution:
            return CubicBinning.contains(x: x, y: y, xAxis: xAxis, yAxis: yAxis)
        case .linearBinning, .taylorBinning:
            return MomentBinning.node(
                xAxis.index(of: x), yAxis.index(of: y), order: scheme.order,
                columns: xAxis.count, rows: yAxis.count) != nil
        }
    }
}
