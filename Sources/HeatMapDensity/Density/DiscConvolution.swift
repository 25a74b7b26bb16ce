import Foundation
import HeatMapCore

/// The circular convolution of a complex grid with a real kernel, by the
/// Fourier transform: rows × columns nodes, both lengths with no prime
/// factor above 5 (``ComplexFFT/goodSize(atLeast:)``).
///
/// The kernel being real, the real and imaginary parts of the grid are
/// convolved independently: they carry two real images at the price of
/// one complex transform. The kernel is sampled at node offsets
/// (i δx, j δy), |i| ≤ `reachColumns`, |j| ≤ `reachRows`, and taken as
/// wrapped around the grid. Each convolution is a 2-D transform, a product
/// and the inverse: O(rows · columns · log(rows · columns)), rows and
/// column blocks spread over every core. Memory: the spectrum, rows ×
/// columns doubles.
struct DiscConvolution: @unchecked Sendable {
    let rows: Int
    let columns: Int
    private let passes: GridPasses
    /// The kernel's spectrum divided by rows × columns (the inverse
    /// transform's factor), real since the kernel is even.
    private let spectrum: GridBuffer

    /// - Parameter kernel: the kernel's value at node offset (i, j), for
    ///   |i| ≤ reachColumns, |j| ≤ reachRows; it must be even in i and in j,
    ///   and both reaches below half the transform's length.
    init(
        rows: Int, columns: Int, reachRows: Int, reachColumns: Int,
        control: ComputeControl, kernel: (_ i: Int, _ j: Int) -> Double
    ) throws {
        precondition(2 * reachRows < rows && 2 * reachColumns < columns, "kernel wider than half the transform")
        self.rows = rows
        self.columns = columns
        passes = GridPasses(rows: rows, columns: columns)
        guard let buffer = GridBuffer(count: rows * columns) else { throw DensityStorage.outOfMemory }
        spectrum = buffer
        try DiscConvolution.spectrum(
            of: kernel, reachRows: reachRows, reachColumns: reachColumns, rows: rows, columns: columns,
            into: buffer.base, control: control)
    }

    /// The spectrum of an even kernel, straight from its definition: with
    /// k even in i and in j, K(u, v) = Σⱼ Σᵢ k(i, j) cos(2π iu/n) cos(2π jv/m),
    /// summed over i then over j for u ≤ n/2 and v ≤ m/2, the rest by the
    /// spectrum's own symmetry. O((reachRows + 1) · n · m / 4), a small
    /// share of one transform of the grid for the kernels this serves.
    private static func spectrum(
        of kernel: (_ i: Int, _ j: Int) -> Double, reachRows: Int, reachColumns: Int, rows m: Int,
        columns n: Int, into out: UnsafeMutablePointer<Double>, control: ComputeControl
    ) throws {
        let scale = 1 / (Double(m) * Double(n))
        let cosN = (0..<n).map { cos(2 * Double.pi * Double($0) / Double(n)) }
        let cosM = (0..<m).map { cos(2 * Double.pi * Double($0) / Double(m)) }
        let halfN = n / 2 + 1, halfM = m / 2 + 1
        // byRow[j][u] = Σᵢ k(i, j) cos(2π iu/n) for u ≤ n/2, times 2 for j > 0
        // (rows j and −j), and the overall scale.
        var byRow = [Double](repeating: 0, count: (reachRows + 1) * halfN)
        for j in 0...reachRows {
            let factor = (j == 0 ? 1 : 2) * scale
            let weights = (0...reachColumns).map { i in (i == 0 ? 1 : 2) * kernel(i, j) * factor }
            for u in 0..<halfN {
                var sum = weights[0]
                var t = 0
                for i in 1..<(reachColumns + 1) {
                    t += u
                    if t >= n { t -= n }
                    sum += weights[i] * cosN[t]
                }
                byRow[j * halfN + u] = sum
            }
        }
        try byRow.withUnsafeBufferPointer { byRow in
            let byRow = byRow.baseAddress!
            try Parallel.forEachRange(of: halfM, size: 16, control: control) { block in
                for v in block {
                    let row = out + v * n
                    row.update(from: byRow, count: halfN)
                    var t = 0
                    for j in 1..<(reachRows + 1) {
                        t += v
                        if t >= m { t -= m }
                        let c = cosM[t], a = byRow + j * halfN
                        for u in 0..<halfN { row[u] += c * a[u] }
                    }
                    // K(n − u, v) = K(u, v); then K(u, m − v) = K(u, v).
                    for u in halfN..<n { row[u] = row[n - u] }
                    if v > 0, m - v != v { (out + (m - v) * n).update(from: row, count: n) }
                }
            }
        }
    }

    /// Convolves the grid in `re` and `im` (rows × columns each, row-major)
    /// with the kernel, in place. Rows from `filledRows` on must be zero in
    /// both; only the rows `wanted` lists come out convolved (the others
    /// hold the column pass's values).
    func convolve(
        re: UnsafeMutablePointer<Double>, im: UnsafeMutablePointer<Double>, filledRows: Int, wanted: [Int],
        control: ComputeControl
    ) throws {
        try passes.transformRows(re: re, im: im, only: Array(0..<min(filledRows, rows)), control: control)
        // Each block of columns goes forward, through the product by the
        // spectrum and back while it is in cache.
        let columns = self.columns, factor = UnsafePointer(spectrum.base)
        try passes.transformColumns(re: re, im: im, control: control) { block in
            let lanes = block.lanes, c0 = block.firstColumn
            for r in 0..<self.rows {
                let f = factor + r * columns + c0, x = block.re + r * lanes, y = block.im + r * lanes
                for l in 0..<lanes {
                    x[l] *= f[l]
                    y[l] *= f[l]
                }
            }
            // The inverse: the forward transform of the swapped parts.
            block.transform.transform(
                re: block.im, im: block.re, workRe: block.workIm, workIm: block.workRe, lanes: lanes)
        }
        try passes.transformRows(re: im, im: re, only: wanted, control: control)
    }
}
