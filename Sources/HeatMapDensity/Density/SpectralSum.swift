import Foundation
import HeatMapCore

/// A sum of circular convolutions, each grid with its own real, even
/// kernel, by the Fourier transform: Σₖ Zₖ ∗ Kₖ on rows × columns nodes
/// (both lengths with no prime factor above 5).
///
/// The transform being linear, the products Ẑₖ K̂ₖ are summed in the
/// frequency domain and transformed back once: a term costs one forward
/// transform of its grid (and a quarter of one for its kernel's spectrum:
/// two kernels share a transform, of which half the columns are needed),
/// the sum one inverse. A kernel that is real
/// and even has a real spectrum, so the real and imaginary parts of each
/// grid are convolved independently: they carry two real images.
///
/// Memory: the sum, one working grid and the kernels' spectra, rows ×
/// columns complex numbers each, allocated once (a fresh grid of a
/// million nodes costs about 10 ms of page faults). Rows and column
/// blocks spread over every core.
struct SpectralSum: @unchecked Sendable {
    let rows: Int
    let columns: Int
    private let passes: GridPasses
    /// Σ Ẑₖ K̂ₖ, then (after ``inverse(control:)``) the sum of the convolutions.
    let sumRe: GridBuffer
    let sumIm: GridBuffer
    /// The working grid of ``add(re:im:width:filledRows:spectrum:control:)``,
    /// zero at first: each term overwrites the rows below its `filledRows`
    /// whole, and no term writes the rest.
    private let workRe: GridBuffer
    private let workIm: GridBuffer
    /// The spectra of ``spectra(reachRows:reachColumns:control:kernels:)``,
    /// overwritten by each call.
    private let kernelRe: GridBuffer
    private let kernelIm: GridBuffer

    init(rows: Int, columns: Int) throws {
        self.rows = rows
        self.columns = columns
        passes = GridPasses(rows: rows, columns: columns)
        let cells = rows * columns
        guard let a = GridBuffer(zeroedOnAllCores: cells), let b = GridBuffer(zeroedOnAllCores: cells),
            let c = GridBuffer(zeroedOnAllCores: cells), let d = GridBuffer(zeroedOnAllCores: cells),
            let e = GridBuffer(zeroedOnAllCores: cells), let f = GridBuffer(zeroedOnAllCores: cells)
        else { throw DensityStorage.outOfMemory }
        (sumRe, sumIm, workRe, workIm, kernelRe, kernelIm) = (a, b, c, d, e, f)
    }

    /// The spectra of two kernels, each divided by rows × columns (the
    /// inverse transform's factor): kernel `a` sampled in the real part,
    /// `b` in the imaginary part, one forward transform. Each kernel must
    /// be even in i and in j and zero beyond |i| > reachColumns,
    /// |j| > reachRows. The buffers returned are the sum's own: the next
    /// call overwrites them.
    func spectra(
        reachRows: Int, reachColumns: Int, control: ComputeControl,
        kernels: (_ i: Int, _ j: Int) -> (a: Double, b: Double)
    ) throws -> (re: GridBuffer, im: GridBuffer) {
        let (re, im) = (kernelRe, kernelIm)
        let columns = self.columns, half = columns / 2 + 1
        let reachRows = min(reachRows, rows / 2), reachColumns = min(reachColumns, columns / 2)
        // Only the kernels' own rows are non-zero before the row pass, which
        // reads them whole; the column pass then reads the first `half`
        // columns of every row (the rest are mirrored from them below).
        let kernelRows = Set((-reachRows...reachRows).map { ($0 + rows) % rows }).sorted()
        var isKernelRow = [Bool](repeating: false, count: rows)
        for r in kernelRows { isKernelRow[r] = true }
        try Parallel.forEachRange(of: rows, size: 16, control: control) { block in
            for r in block {
                let width = isKernelRow[r] ? columns : half
                (re.base + r * columns).update(repeating: 0, count: width)
                (im.base + r * columns).update(repeating: 0, count: width)
            }
        }
        let scale = 1 / Double(rows * columns)
        for j in -reachRows...reachRows {
            let r = ((j + rows) % rows) * columns
            for i in -reachColumns...reachColumns {
                let (a, b) = kernels(i, j)
                re.base[r + (i + columns) % columns] = a * scale
                im.base[r + (i + columns) % columns] = b * scale
            }
        }
        try passes.transformRows(re: re.base, im: im.base, only: kernelRows, control: control)
        // A kernel even in i has a spectrum even in u: the columns past
        // the middle are those before it, mirrored.
        try passes.transformColumns(re: re.base, im: im.base, columnsBelow: half, control: control) { _ in }
        try Parallel.forEachRange(of: rows, size: 16, control: control) { block in
            for r in block {
                let a = re.base + r * columns, c = im.base + r * columns
                for u in half..<columns {
                    a[u] = a[columns - u]
                    c[u] = c[columns - u]
                }
            }
        }
        return (re, im)
    }

    /// Adds the transform of a grid times `spectrum` (real) to the sum: the
    /// grid's real and imaginary parts are each `filledRows` rows of
    /// `width` values, `width` apart, the real part's from `re`, the
    /// imaginary part's from `im`, zero elsewhere. Each row is copied into
    /// ``workRe`` and ``workIm`` as it is transformed, on all cores, and
    /// then cleared where it was read, while in cache: the grid is left
    /// zero for the next term. Returns Σ |value| of each part, added row
    /// by row in order (the same bits on any number of cores).
    func add(
        clearing re: UnsafeMutablePointer<Double>, im: UnsafeMutablePointer<Double>, width: Int, filledRows: Int,
        spectrum: UnsafePointer<Double>, control: ComputeControl
    ) throws -> (re: Double, im: Double) {
        let columns = self.columns
        precondition(width <= columns && filledRows <= rows, "a term larger than the transform")
        let workRe = self.workRe.base, workIm = self.workIm.base
        let rowSums = UnsafeMutablePointer<Double>.allocate(capacity: 2 * max(filledRows, 1))
        defer { rowSums.deallocate() }
        try passes.transformRows(re: workRe, im: workIm, only: Array(0..<filledRows), control: control) { r, a, b in
            let x = re + r * width, y = im + r * width
            a.update(from: x, count: width)
            b.update(from: y, count: width)
            (a + width).update(repeating: 0, count: columns - width)
            (b + width).update(repeating: 0, count: columns - width)
            var sx = 0.0, sy = 0.0
            for c in 0..<width {
                sx += abs(x[c])
                sy += abs(y[c])
            }
            (rowSums[2 * r], rowSums[2 * r + 1]) = (sx, sy)
            x.update(repeating: 0, count: width)
            y.update(repeating: 0, count: width)
        }
        var magnitude = (re: 0.0, im: 0.0)
        for r in 0..<filledRows {
            magnitude.re += rowSums[2 * r]
            magnitude.im += rowSums[2 * r + 1]
        }
        let re = workRe, im = workIm
        let sumRe = self.sumRe.base, sumIm = self.sumIm.base
        try passes.transformColumns(re: re, im: im, writeBack: false, control: control) { block in
            let lanes = block.lanes, c0 = block.firstColumn
            for r in 0..<self.rows {
                let f = spectrum + r * columns + c0, x = block.re + r * lanes, y = block.im + r * lanes
                let sr = sumRe + r * columns + c0, si = sumIm + r * columns + c0
                for l in 0..<lanes {
                    sr[l] += x[l] * f[l]
                    si[l] += y[l] * f[l]
                }
            }
        }
        return magnitude
    }

    /// Transforms the sum back: ``sumRe`` and ``sumIm`` then hold the
    /// sum of the convolutions of the terms' real and imaginary parts.
    func inverse(control: ComputeControl) throws {
        // The inverse: the forward transform of the swapped parts.
        try passes.transformColumns(re: sumIm.base, im: sumRe.base, control: control) { _ in }
        try passes.transformRows(re: sumIm.base, im: sumRe.base, control: control)
    }
}
