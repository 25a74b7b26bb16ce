import Foundation
import HeatMapCore

/// One row of the x pass: out[c] = Σₘ Σⱼ inₘ[c − j] · kₘ[j] for a few input
/// rows and kernels, register-blocked eight outputs at a time so that the
/// sums stay in registers (one load and one multiply-add per tap per four
/// outputs), with zero padding instead of edge tests.
struct RowConvolver {
    package let columns: Int
    /// J: taps on each side.
    package let half: Int
    /// Kernels, each 2J + 1 taps (index j + J).
    let kernels: [[Double]]
    /// Padded input rows: J zeros, the row, J + 8 zeros.
    private let padded: UnsafeMutablePointer<Double>
    /// `columns` + 8 outputs.
    package let output: UnsafeMutablePointer<Double>
    private let stride: Int
    private let taps: UnsafeMutablePointer<Double>

    package init(columns: Int, kernels: [[Double]]) {
        self.columns = columns
        self.kernels = kernels
        half = (kernels[0].count - 1) / 2
        stride = columns + 2 * half + 8
        padded = .allocate(capacity: stride * kernels.count)
        padded.initialize(repeating: 0, count: stride * kernels.count)
        output = .allocate(capacity: columns + 8)
        taps = .allocate(capacity: kernels.count * (2 * half + 1))
        for (m, k) in kernels.enumerated() {
            // Reversed, so that tap i multiplies input c + i.
            for i in 0..<k.count { taps[m * k.count + i] = k[k.count - 1 - i] }
        }
    }

    /// Frees the buffers (the convolver is a per-task scratch object).
    func deallocate() {
        padded.deallocate()
        output.deallocate()
        taps.deallocate()
    }

    /// The input row of kernel m, to be filled (`columns` values).
    package func input(_ m: Int) -> UnsafeMutablePointer<Double> { padded + m * stride + half }

    /// Computes `output[0..<columns]` from the inputs of kernels 0..<count.
    /// Inputs flagged empty are skipped.
    package func run(count: Int, empty: (Int) -> Bool) {
        run(inputs: 0..<count, empty: empty)
    }

    /// Computes `output[0..<columns]` = Σ over the inputs in `inputs` (not
    /// flagged empty) of input ∗ its kernel.
    package func run(inputs: Range<Int>, empty: (Int) -> Bool) {
        let width = 2 * half + 1
        let pairs = width / 2
        var c = 0
        while c < columns {
            // Two sums, even and odd taps, so that the additions of one tap
            // need not wait for the previous one's.
            var even = SIMD8<Double>(), odd = SIMD8<Double>()
            for m in inputs where !empty(m) {
                let k = taps + m * width
                // output c ← Σᵢ k[i]·in[c − J + i], in padded coordinates c + i.
                let row = UnsafeRawPointer(padded + m * stride + c)
                for p in 0..<pairs {
                    let i = 2 * p
                    even += k[i] * row.loadUnaligned(fromByteOffset: i * 8, as: SIMD8<Double>.self)
                    odd += k[i + 1] * row.loadUnaligned(fromByteOffset: (i + 1) * 8, as: SIMD8<Double>.self)
                }
                let last = width - 1
                even += k[last] * row.loadUnaligned(fromByteOffset: last * 8, as: SIMD8<Double>.self)
            }
            UnsafeMutableRawPointer(output + c).storeBytes(of: even + odd, as: SIMD8<Double>.self)
            c += 8
        }
    }
}
