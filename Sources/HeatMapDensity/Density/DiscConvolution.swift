import Foundation
import HeatMapCore

/// The circular convolution of a complex grid with a real kernel, by the
/// Fourier transform: rows × columns nodes, both lengths with no prime
/// factor above 5 (``ComplexFFT/goodSize(atLeast:)``).
///
/// The kernel being real, the real and imaginary parts of the grid are
/// convolved independently: they carry two real images at the price of
/// one complex transform. The kernel is sampled at node offsets
/// (i δx, j δy), |i| ≤ `reachColumns`, |j| ≤ `reachRows`, and stored
/// wrapped around the grid; its spectrum is worked out once, on creation.
/// Each convolution is a 2-D transform, a product and the inverse:
/// O(rows · columns · log(rows · columns)), rows and column blocks spread
/// over every core. Memory: the spectrum, rows × columns doubles.
struct DiscConvolution: @unchecked Sendable {
    let rows: Int
    let columns: Int
    private let rowTransform: ComplexFFT
    private let columnTransform: ComplexFFT
    /// The kernel's spectrum divided by rows × columns (the inverse
    /// transform's factor), real since the kernel is even.
    private let spectrum: GridBuffer

    /// Columns transformed together, as the lanes of one ``ComplexFFT``.
    static let block = 16

    /// - Parameter kernel: the kernel's value at node offset (i, j), for
    ///   |i| ≤ reachColumns, |j| ≤ reachRows; it must be even in i and in j.
    init(
        rows: Int, columns: Int, reachRows: Int, reachColumns: Int,
        control: ComputeControl, kernel: (_ i: Int, _ j: Int) -> Double
    ) throws {
        self.rows = rows
        self.columns = columns
        rowTransform = ComplexFFT(count: columns)
        columnTransform = ComplexFFT(count: rows)
        let cells = rows * columns
        guard let re = GridBuffer(count: cells), let im = GridBuffer(count: cells) else {
            throw DensityStorage.outOfMemory
        }
        let scale = 1 / Double(cells)
        for j in -reachRows...reachRows {
            let row = re.base + ((j + rows) % rows) * columns
            for i in -reachColumns...reachColumns { row[(i + columns) % columns] = kernel(i, j) * scale }
        }
        spectrum = re
        // Only the kernel's own rows are non-zero before the row pass.
        let kernelRows = (-reachRows...reachRows).map { ($0 + rows) % rows }
        try transform(re: re.base, im: im.base, control: control, between: nil, rows: Array(Set(kernelRows)))
    }

    /// Convolves the grid in `re` and `im` (rows × columns each, row-major)
    /// with the kernel, in place.
    func convolve(re: UnsafeMutablePointer<Double>, im: UnsafeMutablePointer<Double>, control: ComputeControl) throws {
        try transform(re: re, im: im, control: control, between: spectrum.base)
    }

    /// The forward 2-D transform; with `between`, the product by it and
    /// the inverse transform too. Rows first; then each block of columns,
    /// copied out once, goes forward, through the product and back while
    /// it is in cache; then the rows back.
    private func transform(
        re: UnsafeMutablePointer<Double>, im: UnsafeMutablePointer<Double>,
        control: ComputeControl, between factor: UnsafePointer<Double>?, rows nonzero: [Int]? = nil
    ) throws {
        try transformRows(re: re, im: im, control: control, only: nonzero)
        let block = DiscConvolution.block, rows = self.rows, columns = self.columns
        let blocks = (columns + block - 1) / block
        let transform = columnTransform
        try Parallel.forEach(blocks) { b in
            try control.checkCancellation()
            let lanes = min(block, columns - b * block), c0 = b * block
            let work = UnsafeMutablePointer<Double>.allocate(capacity: 4 * rows * lanes)
            defer { work.deallocate() }
            let br = work, bi = work + rows * lanes, wr = bi + rows * lanes, wi = wr + rows * lanes
            for r in 0..<rows {
                (br + r * lanes).update(from: re + r * columns + c0, count: lanes)
                (bi + r * lanes).update(from: im + r * columns + c0, count: lanes)
            }
            transform.transform(re: br, im: bi, workRe: wr, workIm: wi, lanes: lanes)
            if let factor {
                for r in 0..<rows {
                    let f = factor + r * columns + c0, x = br + r * lanes, y = bi + r * lanes
                    for l in 0..<lanes {
                        x[l] *= f[l]
                        y[l] *= f[l]
                    }
                }
                // The inverse: the forward transform of the swapped parts.
                transform.transform(re: bi, im: br, workRe: wi, workIm: wr, lanes: lanes)
            }
            for r in 0..<rows {
                (re + r * columns + c0).update(from: br + r * lanes, count: lanes)
                (im + r * columns + c0).update(from: bi + r * lanes, count: lanes)
            }
        }
        if factor != nil { try transformRows(re: im, im: re, control: control) }
    }

    /// Transforms every row, or only the rows `only` lists (the others
    /// being zero).
    private func transformRows(
        re: UnsafeMutablePointer<Double>, im: UnsafeMutablePointer<Double>, control: ComputeControl,
        only: [Int]? = nil
    ) throws {
        let columns = self.columns, transform = rowTransform
        let list = only ?? Array(0..<rows)
        let band = 16
        try Parallel.forEach((list.count + band - 1) / band) { b in
            try control.checkCancellation()
            let work = UnsafeMutablePointer<Double>.allocate(capacity: 2 * columns)
            defer { work.deallocate() }
            for r in list[b * band..<min(list.count, (b + 1) * band)] {
                transform.transform(
                    re: re + r * columns, im: im + r * columns, workRe: work, workIm: work + columns, lanes: 1)
            }
        }
    }
}
