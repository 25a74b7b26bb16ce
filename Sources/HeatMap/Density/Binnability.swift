import Foundation

/// Whether a binned scheme bins a point onto its nodes; the others (points
/// off the grid, a rare case: fitted grids hold all points) are splatted
/// exactly instead.
struct Binnability: Sendable {
    let scheme: DensityScheme
    let xAxis: GaussianAxis
    let yAxis: GaussianAxis

    @inline(__always) func contains(x: Double, y: Double) -> Bool {
        switch scheme {
        case .direct:
            return true
        case .rowMoments:
            return yAxis.node(atIndex: yAxis.index(of: y)) != nil
        case .linearBinning, .taylorBinning:
            return MomentBinning.node(xAxis.index(of: x), yAxis.index(of: y), order: scheme.order,
                                      columns: xAxis.count, rows: yAxis.count) != nil
        }
    }
}
