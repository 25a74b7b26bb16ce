import Foundation
import HeatMapCore

/// The row-moment method's fill (``DensityScheme/rowMoments(order:)``):
/// points binned into their own row's moments (``RowMomentBinning``, sorted
/// by row), then one pass down the columns (``RowMomentPass``) per block of
/// rows.
struct RowMomentFill: DensityFill {
    let xAxis: GaussianAxis
    let yAxis: GaussianAxis
    package let layout: RowMomentLayout
    /// The moments, as `layout` places them, both channels.
    let moments: UnsafeMutablePointer<Double>

    /// Rows per block of the finishing pass.
    static let blockRows = 16

    func deposit(
        x: UnsafePointer<Double>, y: UnsafePointer<Double>, weight: UnsafePointer<Double>,
        value: UnsafePointer<Double>?, count n: Int, control: ComputeControl,
        progress: @escaping @Sendable (Int) -> Void
    ) throws {
        // The binning refers to the table without owning it: it lives
        // until this function returns.
        let columnTable = GaussianTable(axis: xAxis)
        defer { withExtendedLifetime(columnTable) {} }
        func run<Entry: RowMomentEntry>(_: Entry.Type) throws {
            let binning = RowMomentBinning<Entry>(
                xAxis: xAxis, yAxis: yAxis, layout: layout, moments: moments,
                table: columnTable.lookup)
            try RowBands.deposit(
                binning, x: x, y: y, weight: weight, value: value, count: n, rows: yAxis.count,
                columns: xAxis.count, control: control, progress: progress)
        }
        if value == nil { try run(RowMomentPoint.self) } else { try run(RowMomentValuePoint.self) }
    }

    package func finish(
        control: ComputeControl, progress: @escaping @Sendable (Double) -> Void,
        emit: (Int, UnsafePointer<Double>?) -> Void
    ) throws {
        let moments = UnsafePointer(self.moments)
        let rows = yAxis.count, columns = xAxis.count, blockRows = RowMomentFill.blockRows
        let mean = layout.channels == 2
        let blocks = (rows + blockRows - 1) / blockRows
        let done = ProgressCounter(total: blocks, report: progress)
        try Parallel.forEach(blocks) { b in
            try control.checkCancellation()
            let pass = RowMomentPass(layout: layout, yAxis: yAxis, blockRows: blockRows)
            // Per row, both channels' sums, each with room for a last
            // vector past the row.
            let stride = 2 * columns + 8
            let sums = UnsafeMutablePointer<Double>.allocate(capacity: blockRows * stride)
            defer { pass.deallocate(); sums.deallocate() }
            let first = b * blockRows, count = min(rows, first + blockRows) - first
            pass.run(rows: first, count: count, channel: 0, moments: moments, into: sums, outStride: stride)
            if mean {
                pass.run(
                    rows: first, count: count, channel: 1, moments: moments, into: sums + columns,
                    outStride: stride)
            }
            for i in 0..<count { emit(first + i, sums + i * stride) }
            done.add(1)
        }
    }
}
