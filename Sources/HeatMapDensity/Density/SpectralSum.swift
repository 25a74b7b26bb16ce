import Foundation
import HeatMapCore

/// A sum of circular convolutions, each grid with its own real, even
/// kernel, by the Fourier transform: Σₖ Zₖ ∗ Kₖ on rows × columns nodes
/// (both lengths with no prime factor above 5).
///
/// The transform being linear, the products Ẑₖ K̂ₖ are summed in the
/// frequency domain and transformed back once: a term costs one forward
/// transform of its grid (and half of one for its kernel's spectrum, two
/// kernels sharing a transform), the sum one inverse. A kernel that is real
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
    /// A working grid for the caller's terms, zero at first:
    /// ``add(re:im:filledRows:spectrum:control:)`` overwrites the rows
    /// below `filledRows` and leaves the others as it found them, so a
    /// caller that writes those rows whole keeps the rest zero.
    let workRe: GridBuffer
    let workIm: GridBuffer
    /// The spectra of ``spectra(reachRows:reachColumns:control:kernels:)``,
    /// overwritten by each call.
    private let kernelRe: GridBuffer
    private let kernelIm: GridBuffer

    init(rows: Int, columns: Int) throws {
        self.rows = rows
        self.columns = columns
        passes = GridPasses(rows: rows, columns: columns)
        let cells = rows * columns
        guard let a = GridBuffer(count: cells), let b = GridBuffer(count: cells),
            let c = GridBuffer(count: cells), let d = GridBuffer(count: cells),
            let e = GridBuffer(count: cells), let f = GridBuffer(count: cells)
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
        re.base.update(repeating: 0, count: rows * columns)
        im.base.update(repeating: 0, count: rows * columns)
        let scale = 1 / Double(rows * columns)
        let reachRows = min(reachRows, rows / 2), reachColumns = min(reachColumns, columns / 2)
        for j in -reachRows...reachRows {
            let r = ((j + rows) % rows) * columns
            for i in -reachColumns...reachColumns {
                let (a, b) = kernels(i, j)
                re.base[r + (i + columns) % columns] = a * scale
                im.base[r + (i + columns) % columns] = b * scale
            }
        }
        // Only the kernels' own rows are non-zero before the row pass.
        let kernelRows = Set((-reachRows...reachRows).map { ($0 + rows) % rows }).sorted()
        try passes.transformRows(re: re.base, im: im.base, only: kernelRows, control: control)
        try passes.transformColumns(re: re.base, im: im.base, control: control) { _ in }
        return (re, im)
    }

    /// Adds the transform of the grid in `re` and `im` (rows × columns
    /// each, zero from row `filledRows` on) times `spectrum` (real) to the
    /// sum; the grid is overwritten.
    func add(
        re: UnsafeMutablePointer<Double>, im: UnsafeMutablePointer<Double>, filledRows: Int,
        spectrum: UnsafePointer<Double>, control: ComputeControl
    ) throws {
        try passes.transformRows(re: re, im: im, only: Array(0..<min(filledRows, rows)), control: control)
        let columns = self.columns, sumRe = self.sumRe.base, sumIm = self.sumIm.base
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
    }

    /// Transforms the sum back: ``sumRe`` and ``sumIm`` then hold the
    /// sum of the convolutions of the terms' real and imaginary parts.
    func inverse(control: ComputeControl) throws {
        // The inverse: the forward transform of the swapped parts.
        try passes.transformColumns(re: sumIm.base, im: sumRe.base, control: control) { _ in }
        try passes.transformRows(re: sumIm.base, im: sumRe.base, control: control)
    }
}
