import Foundation
import HeatMapCore

/// Where ``DiscConvolutionFill`` keeps its binned planes: straight in the
/// real and imaginary buffers of its Fourier transform, so the binning
/// writes what the transform reads, with no copy between.
///
/// The binned plane is the grid padded by ``CubicBinning/padding`` nodes on
/// every side (`width` × `height`). One channel: the plane's top `split`
/// rows in the real part, the rest in the imaginary part; each half's
/// convolution spills `reachRows` rows into the other's, so the transform
/// is tall enough that no spill wraps onto rows in use. Two channels (the
/// mean estimator): the weights in the real part, the weighted values in
/// the imaginary part. The buffer holds the real part (`rows` × `columns`,
/// row-major) and then the imaginary part.
struct DiscConvolutionLayout: Sendable {
    /// The padded plane's columns and rows.
    let width: Int
    let height: Int
    /// Plane rows held in the real part (the rest are in the imaginary part).
    let split: Int
    /// Nodes the kernel reaches along each axis (its value is 0 beyond).
    let reachColumns: Int
    let reachRows: Int
    /// The transform's rows and columns (no prime factor above 5).
    let rows: Int
    let columns: Int
    /// Two planes (weights and weighted values), or one split in halves.
    let channels: Int

    init(xAxis: GaussianAxis, yAxis: GaussianAxis, radius: Double, channels: Int) {
        let pad = 2 * CubicBinning.padding
        width = xAxis.count + pad
        height = yAxis.count + pad
        reachColumns = Int(min(radius / xAxis.step, Double(width))) + 1
        reachRows = Int(min(radius / yAxis.step, Double(height))) + 1
        split = channels == 2 ? height : (height + 1) / 2
        let tall = max(split, height - split)
        // A row's convolution is read only on the plane's own columns, so
        // it may wrap onto the margin: a period of width + reach keeps every
        // point off the columns read on the other side (and the kernel's
        // 2 reach + 1 columns apart). Each half's rows are read on its
        // spill either side of the cut as well, so they need a margin of
        // reach below and above.
        var best = (rows: 0, columns: 0, work: Double.infinity)
        for m in ComplexFFT.goodSizes(atLeast: tall + 2 * reachRows) {
            for n in ComplexFFT.goodSizes(atLeast: max(width + reachColumns, 2 * reachColumns + 1)) {
                let work =
                    Double(m) * Double(n) * (ComplexFFT.workPerElement(m) + ComplexFFT.workPerElement(n))
                if work < best.work { best = (m, n, work) }
            }
        }
        rows = best.rows
        columns = best.columns
        self.channels = channels
    }

    /// The same planes packed without the transform's margins: `rows` is
    /// ``filledRows`` and `columns` is `width`, so binning into it takes
    /// about the grid's doubles, and each row is then copied into the
    /// transform's buffers of `layout` at the same offset (``RadiusClassFill``
    /// keeps many planes until their transforms).
    init(packing layout: DiscConvolutionLayout) {
        width = layout.width
        height = layout.height
        split = layout.split
        reachColumns = layout.reachColumns
        reachRows = layout.reachRows
        rows = layout.filledRows
        columns = layout.width
        channels = layout.channels
    }

    /// Hands the grid's rows (`rows` × `columns` nodes) out of the
    /// transformed buffers `re` and `im` laid out as this layout says, in
    /// blocks of 16 rows on all cores: each row's own half plus the other
    /// half's spill near the cut, or, with two channels, its weights and
    /// weighted values side by side. With one channel, `adding` (if given)
    /// writes each row's addend (another convolution's, ``CoarseGrid``) into
    /// the row first. Sums below `floor` (the transform's rounding) are 0.
    func emitRows(
        re: UnsafePointer<Double>, im: UnsafePointer<Double>, rows: Int, columns: Int, floor: Double,
        control: ComputeControl, adding: ((_ row: Int, _ into: UnsafeMutablePointer<Double>) -> Void)? = nil,
        emit: (Int, UnsafePointer<Double>?) -> Void
    ) throws {
        let pad = CubicBinning.padding, n = self.columns, m = self.rows
        let split = self.split, reachRows = self.reachRows, channels = self.channels
        precondition(adding == nil || channels == 1, "an addend to the one channel only")
        try Parallel.forEachRange(of: rows, size: 16, control: control) { block in
            let sums = UnsafeMutablePointer<Double>.allocate(capacity: channels * columns)
            defer { sums.deallocate() }
            for r in block {
                let y = r + pad
                if channels == 2 {
                    let a = re + y * n + pad, v = im + y * n + pad
                    for c in 0..<columns {
                        sums[c] = a[c] < floor ? 0 : a[c]
                        sums[columns + c] = v[c]
                    }
                } else {
                    let own = y < split ? re + y * n : im + (y - split) * n
                    let spill: UnsafePointer<Double>? =
                        y < split
                        ? (y >= split - reachRows ? im + (y - split + m) * n : nil)
                        : (y < split + reachRows ? re + y * n : nil)
                    if let adding {
                        adding(r, sums)
                        for c in 0..<columns {
                            let s = own[pad + c] + (spill?[pad + c] ?? 0) + sums[c]
                            sums[c] = s < floor ? 0 : s
                        }
                    } else {
                        for c in 0..<columns {
                            let s = own[pad + c] + (spill?[pad + c] ?? 0)
                            sums[c] = s < floor ? 0 : s
                        }
                    }
                }
                emit(r, sums)
            }
        }
    }

    /// Transform rows that may hold binned weights (the ones below are zero).
    var filledRows: Int { channels == 2 ? height : max(split, height - split) }

    /// Doubles of the buffer: the real part, then the imaginary part.
    var count: Int { 2 * rows * columns }

    /// The buffer offset of plane row `y` (weights, or the one channel).
    @inline(__always) func offset(row y: Int) -> Int {
        (y < split ? y : y - split + rows) &* columns
    }

    /// The buffer offset of plane row `y` of the weighted values (two
    /// channels only).
    @inline(__always) func valueOffset(row y: Int) -> Int { (y + rows) &* columns }
}
