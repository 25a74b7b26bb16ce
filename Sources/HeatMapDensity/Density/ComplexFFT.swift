import Foundation

/// A discrete Fourier transform of one length n = 2^a · 3^b · 5^c, on
/// complex numbers kept as separate real and imaginary arrays:
/// X[k] = Σⱼ x[j] e^(−2πi jk/n).
///
/// Stockham's autosort form: one pass per radix (4, 2, 3 or 5), each
/// reading one buffer and writing the other, so no bit reversal is needed.
/// A transform may run over `lanes` interleaved sequences at once (element
/// j of lane l at index j × lanes + l): a block of grid columns is then
/// transformed with its lanes as the contiguous inner loop. O(n log n)
/// per lane; the inverse is the same transform with the real and
/// imaginary arrays swapped (and a division by n, left to the caller).
struct ComplexFFT: Sendable {
    /// The length.
    let count: Int
    /// The radix of each pass, in order.
    private let radices: [Int]
    /// Per pass, the twiddles w^(r j) (w = e^(−2πi/m·p) of that pass's
    /// length), for j < m and r in 1..<p: real parts, then imaginary.
    private let twiddles: [[Double]]

    /// The smallest length ≥ `n` with no prime factor above 5.
    static func goodSize(atLeast n: Int) -> Int {
        var m = max(n, 1)
        while true {
            var k = m
            for p in [2, 3, 5] { while k % p == 0 { k /= p } }
            if k == 1 { return m }
            m += 1
        }
    }

    /// The 5-smooth lengths from `n` up to 4/3 of it, the smallest first.
    static func goodSizes(atLeast n: Int) -> [Int] {
        var sizes: [Int] = []
        var m = goodSize(atLeast: n)
        while sizes.isEmpty || m * 3 <= max(n, 1) * 4 {
            sizes.append(m)
            m = goodSize(atLeast: m + 1)
        }
        return sizes
    }

    /// Rough work per element of a transform of length `n` (no prime
    /// factor above 5): per pass, the additions, multiplications, loads
    /// and stores of its butterfly per element, by radix (4: 12.5, 2: 9,
    /// 3: 13.3, 5: 18.4). A radix-3 or -5 pass resolves fewer factors of
    /// the length per unit of work than a radix-4 pass, so a slightly
    /// longer length of 2s can be the cheaper transform.
    static func workPerElement(_ n: Int) -> Double {
        var rest = max(n, 1), work = 0.0
        while rest % 4 == 0 {
            work += 12.5
            rest /= 4
        }
        for (p, w) in [(2, 9.0), (3, 13.3), (5, 18.4)] {
            while rest % p == 0 {
                work += w
                rest /= p
            }
        }
        return work
    }

    /// A plan for length `n`, which must have no prime factor above 5.
    init(count n: Int) {
        precondition(n >= 1 && ComplexFFT.goodSize(atLeast: n) == n, "FFT length \(n) has a prime factor above 5")
        count = n
        var rest = n, radices: [Int] = []
        while rest % 4 == 0 {
            radices.append(4)
            rest /= 4
        }
        while rest % 2 == 0 {
            radices.append(2)
            rest /= 2
        }
        while rest % 3 == 0 {
            radices.append(3)
            rest /= 3
        }
        while rest % 5 == 0 {
            radices.append(5)
            rest /= 5
        }
        self.radices = radices
        var tables: [[Double]] = []
        var length = n
        for p in radices {
            let m = length / p
            var table = [Double](repeating: 0, count: 2 * (p - 1) * m)
            for j in 0..<m {
                for r in 1..<p {
                    let angle = -2 * Double.pi * Double(r * j) / Double(length)
                    table[(j * (p - 1) + r - 1)] = cos(angle)
                    table[(p - 1) * m + j * (p - 1) + r - 1] = sin(angle)
                }
            }
            tables.append(table)
            length = m
        }
        twiddles = tables
    }

    /// Transforms `lanes` interleaved sequences in `re`/`im` (count × lanes
    /// values each) in place, using `workRe`/`workIm` (as large) as the
    /// other buffer of each pass.
    func transform(
        re: UnsafeMutablePointer<Double>, im: UnsafeMutablePointer<Double>,
        workRe: UnsafeMutablePointer<Double>, workIm: UnsafeMutablePointer<Double>, lanes: Int
    ) {
        var xr = re, xi = im, yr = workRe, yi = workIm
        var length = count, stride = lanes
        for (pass, p) in radices.enumerated() {
            let m = length / p
            twiddles[pass].withUnsafeBufferPointer { table in
                let wr = table.baseAddress!, wi = wr + (p - 1) * m
                switch p {
                case 4: ComplexFFT.radix4(xr, xi, yr, yi, m, stride, wr, wi)
                case 2: ComplexFFT.radix2(xr, xi, yr, yi, m, stride, wr, wi)
                case 3: ComplexFFT.radix3(xr, xi, yr, yi, m, stride, wr, wi)
                default: ComplexFFT.radix5(xr, xi, yr, yi, m, stride, wr, wi)
                }
            }
            swap(&xr, &yr)
            swap(&xi, &yi)
            length = m
            stride *= p
        }
        if xr != re {
            re.update(from: xr, count: count * lanes)
            im.update(from: xi, count: count * lanes)
        }
    }

    // Each pass: for j < m and t < s (s the stride so far), inputs
    // a_k = x[t + s(j + k m)], outputs y[t + s(p j + r)] = w^(r j) Σₖ a_k ω_p^(r k).

    private static func radix2(
        _ xr: UnsafeMutablePointer<Double>, _ xi: UnsafeMutablePointer<Double>,
        _ yr: UnsafeMutablePointer<Double>, _ yi: UnsafeMutablePointer<Double>,
        _ m: Int, _ s: Int, _ wr: UnsafePointer<Double>, _ wi: UnsafePointer<Double>
    ) {
        for j in 0..<m {
            let c = wr[j], d = wi[j]
            let a0 = s * j, a1 = s * (j + m), b0 = s * 2 * j, b1 = b0 + s
            for t in 0..<s {
                let ur = xr[a0 + t], ui = xi[a0 + t], vr = xr[a1 + t], vi = xi[a1 + t]
                yr[b0 + t] = ur + vr
                yi[b0 + t] = ui + vi
                let er = ur - vr, ei = ui - vi
                yr[b1 + t] = er * c - ei * d
                yi[b1 + t] = er * d + ei * c
            }
        }
    }

    private static func radix4(
        _ xr: UnsafeMutablePointer<Double>, _ xi: UnsafeMutablePointer<Double>,
        _ yr: UnsafeMutablePointer<Double>, _ yi: UnsafeMutablePointer<Double>,
        _ m: Int, _ s: Int, _ wr: UnsafePointer<Double>, _ wi: UnsafePointer<Double>
    ) {
        for j in 0..<m {
            let c1 = wr[3 * j], d1 = wi[3 * j], c2 = wr[3 * j + 1], d2 = wi[3 * j + 1]
            let c3 = wr[3 * j + 2], d3 = wi[3 * j + 2]
            let a0 = s * j, a1 = s * (j + m), a2 = s * (j + 2 * m), a3 = s * (j + 3 * m)
            let b0 = s * 4 * j, b1 = b0 + s, b2 = b1 + s, b3 = b2 + s
            for t in 0..<s {
                let x0r = xr[a0 + t], x0i = xi[a0 + t], x1r = xr[a1 + t], x1i = xi[a1 + t]
                let x2r = xr[a2 + t], x2i = xi[a2 + t], x3r = xr[a3 + t], x3i = xi[a3 + t]
                let s02r = x0r + x2r, s02i = x0i + x2i, d02r = x0r - x2r, d02i = x0i - x2i
                let s13r = x1r + x3r, s13i = x1i + x3i, d13r = x1r - x3r, d13i = x1i - x3i
                yr[b0 + t] = s02r + s13r
                yi[b0 + t] = s02i + s13i
                // ω₄ = −i: b1 = d02 − i d13, b3 = d02 + i d13.
                let e1r = d02r + d13i, e1i = d02i - d13r
                let e2r = s02r - s13r, e2i = s02i - s13i
                let e3r = d02r - d13i, e3i = d02i + d13r
                yr[b1 + t] = e1r * c1 - e1i * d1
                yi[b1 + t] = e1r * d1 + e1i * c1
                yr[b2 + t] = e2r * c2 - e2i * d2
                yi[b2 + t] = e2r * d2 + e2i * c2
                yr[b3 + t] = e3r * c3 - e3i * d3
                yi[b3 + t] = e3r * d3 + e3i * c3
            }
        }
    }

    private static func radix3(
        _ xr: UnsafeMutablePointer<Double>, _ xi: UnsafeMutablePointer<Double>,
        _ yr: UnsafeMutablePointer<Double>, _ yi: UnsafeMutablePointer<Double>,
        _ m: Int, _ s: Int, _ wr: UnsafePointer<Double>, _ wi: UnsafePointer<Double>
    ) {
        let h = 3.0.squareRoot() / 2
        for j in 0..<m {
            let c1 = wr[2 * j], d1 = wi[2 * j], c2 = wr[2 * j + 1], d2 = wi[2 * j + 1]
            let a0 = s * j, a1 = s * (j + m), a2 = s * (j + 2 * m)
            let b0 = s * 3 * j, b1 = b0 + s, b2 = b1 + s
            for t in 0..<s {
                let x0r = xr[a0 + t], x0i = xi[a0 + t], x1r = xr[a1 + t], x1i = xi[a1 + t]
                let x2r = xr[a2 + t], x2i = xi[a2 + t]
                let sr = x1r + x2r, si = x1i + x2i
                let tr = x0r - 0.5 * sr, ti = x0i - 0.5 * si
                // (a1 − a2) × (−i √3/2)
                let ur = h * (x1i - x2i), ui = -h * (x1r - x2r)
                yr[b0 + t] = x0r + sr
                yi[b0 + t] = x0i + si
                let e1r = tr + ur, e1i = ti + ui, e2r = tr - ur, e2i = ti - ui
                yr[b1 + t] = e1r * c1 - e1i * d1
                yi[b1 + t] = e1r * d1 + e1i * c1
                yr[b2 + t] = e2r * c2 - e2i * d2
                yi[b2 + t] = e2r * d2 + e2i * c2
            }
        }
    }

    private static func radix5(
        _ xr: UnsafeMutablePointer<Double>, _ xi: UnsafeMutablePointer<Double>,
        _ yr: UnsafeMutablePointer<Double>, _ yi: UnsafeMutablePointer<Double>,
        _ m: Int, _ s: Int, _ wr: UnsafePointer<Double>, _ wi: UnsafePointer<Double>
    ) {
        let c1 = cos(2 * Double.pi / 5), c2 = cos(4 * Double.pi / 5)
        let s1 = sin(2 * Double.pi / 5), s2 = sin(4 * Double.pi / 5)
        for j in 0..<m {
            let w = 4 * j
            let a0 = s * j, a1 = a0 + s * m, a2 = a1 + s * m, a3 = a2 + s * m, a4 = a3 + s * m
            let b0 = s * 5 * j
            for t in 0..<s {
                let x0r = xr[a0 + t], x0i = xi[a0 + t]
                let t1r = xr[a1 + t] + xr[a4 + t], t1i = xi[a1 + t] + xi[a4 + t]
                let t2r = xr[a2 + t] + xr[a3 + t], t2i = xi[a2 + t] + xi[a3 + t]
                let t3r = xr[a1 + t] - xr[a4 + t], t3i = xi[a1 + t] - xi[a4 + t]
                let t4r = xr[a2 + t] - xr[a3 + t], t4i = xi[a2 + t] - xi[a3 + t]
                yr[b0 + t] = x0r + t1r + t2r
                yi[b0 + t] = x0i + t1i + t2i
                let p1r = x0r + c1 * t1r + c2 * t2r, p1i = x0i + c1 * t1i + c2 * t2i
                let p2r = x0r + c2 * t1r + c1 * t2r, p2i = x0i + c2 * t1i + c1 * t2i
                // q = s1 t3 + s2 t4 and q' = s2 t3 − s1 t4, times −i.
                let q1r = s1 * t3i + s2 * t4i, q1i = -(s1 * t3r + s2 * t4r)
                let q2r = s2 * t3i - s1 * t4i, q2i = -(s2 * t3r - s1 * t4r)
                let outs = (
                    (p1r + q1r, p1i + q1i), (p2r + q2r, p2i + q2i),
                    (p2r - q2r, p2i - q2i), (p1r - q1r, p1i - q1i)
                )
                @inline(__always) func store(_ r: Int, _ e: (Double, Double)) {
                    let c = wr[w + r - 1], d = wi[w + r - 1]
                    yr[b0 + r * s + t] = e.0 * c - e.1 * d
                    yi[b0 + r * s + t] = e.0 * d + e.1 * c
                }
                store(1, outs.0)
                store(2, outs.1)
                store(3, outs.2)
                store(4, outs.3)
            }
        }
    }
}
