import Foundation
import HeatMapCore

/// The exact method's fill (``DensityScheme/direct``): every point's
/// ``DirectSplat`` added straight into the sums grid, which is the result.
///
/// Small grids get a private copy per chunk of points
/// (``PrivateGridSplat``); larger ones sort the points into row bands
/// (``RowBands``) so that no two tasks write one row.
struct DirectFill: DensityFill {
    let xAxis: GaussianAxis
    let yAxis: GaussianAxis
    /// Σ w e^(−d²/2σ²), row-major.
    package let density: UnsafeMutablePointer<Double>
    /// Σ v w e^(−d²/2σ²) (mean estimator), or nil.
    let weightedValue: UnsafeMutablePointer<Double>?

    func deposit(
        x: UnsafePointer<Double>, y: UnsafePointer<Double>, weight: UnsafePointer<Double>,
        value: UnsafePointer<Double>?, count n: Int, control: ComputeControl,
        progress: @escaping @Sendable (Int) -> Void
    ) throws {
        // The splat refers to its tables without owning them (see
        // DirectSplat.tables): they live until this function returns.
        let tables = SplatTables(xAxis: xAxis, yAxis: yAxis)
        defer { withExtendedLifetime(tables) {} }
        let splat = DirectSplat(
            xAxis: xAxis, yAxis: yAxis, columns: xAxis.count, density: density,
            weightedValue: value == nil ? nil : weightedValue, tables: tables?.view)
        let nodes = xAxis.count * yAxis.count
        if nodes * (value == nil ? 1 : 2) <= PrivateGridSplat.maximumNodes {
            try PrivateGridSplat.run(
                splat, x: x, y: y, weight: weight, value: value, count: n, nodes: nodes,
                control: control, progress: progress)
        } else {
            try RowBands.deposit(
                splat, x: x, y: y, weight: weight, value: value, count: n, rows: yAxis.count,
                columns: xAxis.count, control: control, progress: progress)
        }
    }

    package func finish(
        control: ComputeControl, progress: @escaping @Sendable (Double) -> Void,
        emit: (Int, UnsafePointer<Double>?) -> Void
    ) throws {
        try emitGridRows(yAxis.count, control: control, emit: emit)
    }
}
