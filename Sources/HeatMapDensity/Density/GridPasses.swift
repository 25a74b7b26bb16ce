import Foundation
import HeatMapCore

/// The two passes of a 2-D Fourier transform of a rows × columns complex
/// grid held as separate real and imaginary parts, row-major: the rows in
/// bands, and the columns a block of ``block`` at a time, copied out into
/// contiguous lanes and transformed together. Both spread over every core.
/// Shared by ``DiscConvolution`` and ``SpectralSum``, which differ only in
/// what they do with a transformed block of columns.
struct GridPasses: Sendable {
    let rows: Int
    let columns: Int
    private let rowTransform: ComplexFFT
    private let columnTransform: ComplexFFT

    /// Columns transformed together, as the lanes of one ``ComplexFFT``.
    static let block = 16

    init(rows: Int, columns: Int) {
        self.rows = rows
        self.columns = columns
        rowTransform = ComplexFFT(count: columns)
        columnTransform = ComplexFFT(count: rows)
    }

    /// Transforms every row, or only the rows `only` lists (the others
    /// being zero, or not wanted); `load`, if given, first writes each
    /// row's real and imaginary parts, on the core that transforms it.
    func transformRows(
        re: UnsafeMutablePointer<Double>, im: UnsafeMutablePointer<Double>, only: [Int]? = nil,
        control: ComputeControl,
        load: ((_ row: Int, _ re: UnsafeMutablePointer<Double>, _ im: UnsafeMutablePointer<Double>) -> Void)? = nil
    ) throws {
        let columns = self.columns, transform = rowTransform
        let list = only ?? Array(0..<rows)
        let band = 16
        try Parallel.forEach((list.count + band - 1) / band) { b in
            try control.checkCancellation()
            let work = UnsafeMutablePointer<Double>.allocate(capacity: 2 * columns)
            defer { work.deallocate() }
            for r in list[b * band..<min(list.count, (b + 1) * band)] {
                load?(r, re + r * columns, im + r * columns)
                transform.transform(
                    re: re + r * columns, im: im + r * columns, workRe: work, workIm: work + columns, lanes: 1)
            }
        }
    }

    /// A block of transformed columns as ``transformColumns(re:im:writeBack:control:body:)``
    /// hands it out: `lanes` columns from `firstColumn`, element (r, l) at
    /// `r * lanes + l` of `re` and `im`, with work space of the same size
    /// for another transform of the block.
    struct ColumnBlock {
        let re: UnsafeMutablePointer<Double>
        let im: UnsafeMutablePointer<Double>
        let workRe: UnsafeMutablePointer<Double>
        let workIm: UnsafeMutablePointer<Double>
        let lanes: Int
        let firstColumn: Int
        /// The column transform, for a further pass over the block.
        let transform: ComplexFFT
    }

    /// Transforms every column, or only those below `columnsBelow` (the
    /// others not wanted), a block at a time; `body` sees each transformed
    /// block while it is in cache, before it is written back (if
    /// `writeBack`).
    func transformColumns(
        re: UnsafeMutablePointer<Double>, im: UnsafeMutablePointer<Double>, writeBack: Bool = true,
        columnsBelow: Int? = nil, control: ComputeControl, body: (ColumnBlock) -> Void
    ) throws {
        let block = GridPasses.block, rows = self.rows, columns = self.columns
        let transformed = min(columns, columnsBelow ?? columns)
        let transform = columnTransform
        try Parallel.forEach((transformed + block - 1) / block) { b in
            try control.checkCancellation()
            let lanes = min(block, transformed - b * block), c0 = b * block
            let work = UnsafeMutablePointer<Double>.allocate(capacity: 4 * rows * lanes)
            defer { work.deallocate() }
            let br = work, bi = work + rows * lanes, wr = bi + rows * lanes, wi = wr + rows * lanes
            for r in 0..<rows {
                GridPasses.copy(lanes, from: re + r * columns + c0, to: br + r * lanes)
                GridPasses.copy(lanes, from: im + r * columns + c0, to: bi + r * lanes)
            }
            transform.transform(re: br, im: bi, workRe: wr, workIm: wi, lanes: lanes)
            body(
                ColumnBlock(
                    re: br, im: bi, workRe: wr, workIm: wi, lanes: lanes, firstColumn: c0, transform: transform))
            guard writeBack else { return }
            for r in 0..<rows {
                GridPasses.copy(lanes, from: br + r * lanes, to: re + r * columns + c0)
                GridPasses.copy(lanes, from: bi + r * lanes, to: im + r * columns + c0)
            }
        }
    }

    /// Copies `count` doubles: a block's row of lanes is 128 bytes, too
    /// short for a call to `memmove` to pay, so a whole block is one
    /// unrolled loop.
    @inline(__always)
    private static func copy(_ count: Int, from source: UnsafePointer<Double>, to target: UnsafeMutablePointer<Double>)
    {
        if count == block {
            for l in 0..<block { target[l] = source[l] }
        } else {
            for l in 0..<count { target[l] = source[l] }
        }
    }
}
