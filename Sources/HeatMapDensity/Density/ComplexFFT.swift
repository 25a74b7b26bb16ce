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
    // The loop over t runs two lanes per SSE2 register (``FFTLanes``),
    // the odd last one alone; index arithmetic wraps (the buffers bound
    // it), so nothing traps in the loop and it stays in registers.

    /// Runs `butterfly` at t = 0..<s: two lanes at a time, then the odd last lane.
    @inline(__always)
    private static func lanes(_ s: Int, _ pair: (_ t: Int) -> Void, _ single: (_ t: Int) -> Void) {
        var t = 0
        while t &+ 1 < s {
            pair(t)
            t &+= 2
        }
        if t < s { single(t) }
    }

    private static func radix2(
        _ xr: UnsafeMutablePointer<Double>, _ xi: UnsafeMutablePointer<Double>,
        _ yr: UnsafeMutablePointer<Double>, _ yi: UnsafeMutablePointer<Double>,
        _ m: Int, _ s: Int, _ wr: UnsafePointer<Double>, _ wi: UnsafePointer<Double>
    ) {
        @inline(__always) func butterfly<V: FFTLanes>(
            _ t: Int, _ a0: Int, _ a1: Int, _ b0: Int, _ b1: Int, _ c: V, _ d: V
        ) {
            let ur = V(at: xr + (a0 &+ t)), ui = V(at: xi + (a0 &+ t)), vr = V(at: xr + (a1 &+ t)),
                vi = V(at: xi + (a1 &+ t))
            (ur + vr).store(yr + (b0 &+ t))
            (ui + vi).store(yi + (b0 &+ t))
            let er = ur - vr, ei = ui - vi
            (er * c - ei * d).store(yr + (b1 &+ t))
            (er * d + ei * c).store(yi + (b1 &+ t))
        }
        for j in 0..<m {
            let c = wr[j], d = wi[j]
            let a0 = s &* j, a1 = s &* (j &+ m), b0 = s &* 2 &* j, b1 = b0 &+ s
            let c2 = SIMD2(repeating: c), d2 = SIMD2(repeating: d)
            lanes(s, { t in butterfly(t, a0, a1, b0, b1, c2, d2) }, { t in butterfly(t, a0, a1, b0, b1, c, d) })
        }
    }

    private static func radix4(
        _ xr: UnsafeMutablePointer<Double>, _ xi: UnsafeMutablePointer<Double>,
        _ yr: UnsafeMutablePointer<Double>, _ yi: UnsafeMutablePointer<Double>,
        _ m: Int, _ s: Int, _ wr: UnsafePointer<Double>, _ wi: UnsafePointer<Double>
    ) {
        @inline(__always) func butterfly<V: FFTLanes>(
            _ a0: Int, _ a1: Int, _ a2: Int, _ a3: Int, _ b0: Int, _ b1: Int, _ b2: Int, _ b3: Int,
            _ w: (c1: V, d1: V, c2: V, d2: V, c3: V, d3: V)
        ) {
            let x0r = V(at: xr + a0), x0i = V(at: xi + a0), x1r = V(at: xr + a1), x1i = V(at: xi + a1)
            let x2r = V(at: xr + a2), x2i = V(at: xi + a2), x3r = V(at: xr + a3), x3i = V(at: xi + a3)
            let s02r = x0r + x2r, s02i = x0i + x2i, d02r = x0r - x2r, d02i = x0i - x2i
            let s13r = x1r + x3r, s13i = x1i + x3i, d13r = x1r - x3r, d13i = x1i - x3i
            (s02r + s13r).store(yr + b0)
            (s02i + s13i).store(yi + b0)
            // ω₄ = −i: b1 = d02 − i d13, b3 = d02 + i d13.
            let e1r = d02r + d13i, e1i = d02i - d13r
            let e2r = s02r - s13r, e2i = s02i - s13i
            let e3r = d02r - d13i, e3i = d02i + d13r
            (e1r * w.c1 - e1i * w.d1).store(yr + b1)
            (e1r * w.d1 + e1i * w.c1).store(yi + b1)
            (e2r * w.c2 - e2i * w.d2).store(yr + b2)
            (e2r * w.d2 + e2i * w.c2).store(yi + b2)
            (e3r * w.c3 - e3i * w.d3).store(yr + b3)
            (e3r * w.d3 + e3i * w.c3).store(yi + b3)
        }
        for j in 0..<m {
            let w = (
                c1: wr[3 &* j], d1: wi[3 &* j], c2: wr[3 &* j &+ 1], d2: wi[3 &* j &+ 1],
                c3: wr[3 &* j &+ 2], d3: wi[3 &* j &+ 2]
            )
            let a0 = s &* j, a1 = s &* (j &+ m), a2 = s &* (j &+ 2 &* m), a3 = s &* (j &+ 3 &* m)
            let b0 = s &* 4 &* j, b1 = b0 &+ s, b2 = b1 &+ s, b3 = b2 &+ s
            let v = (
                c1: SIMD2(repeating: w.c1), d1: SIMD2(repeating: w.d1), c2: SIMD2(repeating: w.c2),
                d2: SIMD2(repeating: w.d2), c3: SIMD2(repeating: w.c3), d3: SIMD2(repeating: w.d3)
            )
            lanes(
                s, { t in butterfly(a0 &+ t, a1 &+ t, a2 &+ t, a3 &+ t, b0 &+ t, b1 &+ t, b2 &+ t, b3 &+ t, v) },
                { t in butterfly(a0 &+ t, a1 &+ t, a2 &+ t, a3 &+ t, b0 &+ t, b1 &+ t, b2 &+ t, b3 &+ t, w) })
        }
    }

    private static func radix3(
        _ xr: UnsafeMutablePointer<Double>, _ xi: UnsafeMutablePointer<Double>,
        _ yr: UnsafeMutablePointer<Double>, _ yi: UnsafeMutablePointer<Double>,
        _ m: Int, _ s: Int, _ wr: UnsafePointer<Double>, _ wi: UnsafePointer<Double>
    ) {
        let h = 3.0.squareRoot() / 2
        @inline(__always) func butterfly<V: FFTLanes>(
            _ a0: Int, _ a1: Int, _ a2: Int, _ b0: Int, _ b1: Int, _ b2: Int,
            _ w: (c1: V, d1: V, c2: V, d2: V), _ h: V, _ half: V
        ) {
            let x0r = V(at: xr + a0), x0i = V(at: xi + a0), x1r = V(at: xr + a1), x1i = V(at: xi + a1)
            let x2r = V(at: xr + a2), x2i = V(at: xi + a2)
            let sr = x1r + x2r, si = x1i + x2i
            let tr = x0r - half * sr, ti = x0i - half * si
            // (a1 − a2) × (−i √3/2)
            let ur = h * (x1i - x2i), ui = -(h * (x1r - x2r))
            (x0r + sr).store(yr + b0)
            (x0i + si).store(yi + b0)
            let e1r = tr + ur, e1i = ti + ui, e2r = tr - ur, e2i = ti - ui
            (e1r * w.c1 - e1i * w.d1).store(yr + b1)
            (e1r * w.d1 + e1i * w.c1).store(yi + b1)
            (e2r * w.c2 - e2i * w.d2).store(yr + b2)
            (e2r * w.d2 + e2i * w.c2).store(yi + b2)
        }
        let h2 = SIMD2(repeating: h), half2 = SIMD2<Double>(repeating: 0.5)
        for j in 0..<m {
            let w = (c1: wr[2 &* j], d1: wi[2 &* j], c2: wr[2 &* j &+ 1], d2: wi[2 &* j &+ 1])
            let v = (
                c1: SIMD2(repeating: w.c1), d1: SIMD2(repeating: w.d1), c2: SIMD2(repeating: w.c2),
                d2: SIMD2(repeating: w.d2)
            )
            let a0 = s &* j, a1 = s &* (j &+ m), a2 = s &* (j &+ 2 &* m)
            let b0 = s &* 3 &* j, b1 = b0 &+ s, b2 = b1 &+ s
            lanes(
                s, { t in butterfly(a0 &+ t, a1 &+ t, a2 &+ t, b0 &+ t, b1 &+ t, b2 &+ t, v, h2, half2) },
                { t in butterfly(a0 &+ t, a1 &+ t, a2 &+ t, b0 &+ t, b1 &+ t, b2 &+ t, w, h, 0.5) })
        }
    }

    private static func radix5(
        _ xr: UnsafeMutablePointer<Double>, _ xi: UnsafeMutablePointer<Double>,
        _ yr: UnsafeMutablePointer<Double>, _ yi: UnsafeMutablePointer<Double>,
        _ m: Int, _ s: Int, _ wr: UnsafePointer<Double>, _ wi: UnsafePointer<Double>
    ) {
        let k = (
            c1: cos(2 * Double.pi / 5), c2: cos(4 * Double.pi / 5),
            s1: sin(2 * Double.pi / 5), s2: sin(4 * Double.pi / 5)
        )
        @inline(__always) func butterfly<V: FFTLanes>(
            _ t: Int, _ a0: Int, _ sm: Int, _ b0: Int, _ s: Int, _ k: (c1: V, c2: V, s1: V, s2: V),
            _ w: (c1: V, d1: V, c2: V, d2: V, c3: V, d3: V, c4: V, d4: V)
        ) {
            let a0 = a0 &+ t, a1 = a0 &+ sm, a2 = a1 &+ sm, a3 = a2 &+ sm, a4 = a3 &+ sm
            let x0r = V(at: xr + a0), x0i = V(at: xi + a0)
            let x1r = V(at: xr + a1), x1i = V(at: xi + a1), x4r = V(at: xr + a4), x4i = V(at: xi + a4)
            let x2r = V(at: xr + a2), x2i = V(at: xi + a2), x3r = V(at: xr + a3), x3i = V(at: xi + a3)
            let t1r = x1r + x4r, t1i = x1i + x4i
            let t2r = x2r + x3r, t2i = x2i + x3i
            let t3r = x1r - x4r, t3i = x1i - x4i
            let t4r = x2r - x3r, t4i = x2i - x3i
            let b0 = b0 &+ t
            (x0r + t1r + t2r).store(yr + b0)
            (x0i + t1i + t2i).store(yi + b0)
            let p1r = x0r + k.c1 * t1r + k.c2 * t2r, p1i = x0i + k.c1 * t1i + k.c2 * t2i
            let p2r = x0r + k.c2 * t1r + k.c1 * t2r, p2i = x0i + k.c2 * t1i + k.c1 * t2i
            // q = s1 t3 + s2 t4 and q' = s2 t3 − s1 t4, times −i.
            let q1r = k.s1 * t3i + k.s2 * t4i, q1i = -(k.s1 * t3r + k.s2 * t4r)
            let q2r = k.s2 * t3i - k.s1 * t4i, q2i = -(k.s2 * t3r - k.s1 * t4r)
            @inline(__always) func store(_ b: Int, _ er: V, _ ei: V, _ c: V, _ d: V) {
                (er * c - ei * d).store(yr + b)
                (er * d + ei * c).store(yi + b)
            }
            store(b0 &+ s, p1r + q1r, p1i + q1i, w.c1, w.d1)
            store(b0 &+ 2 &* s, p2r + q2r, p2i + q2i, w.c2, w.d2)
            store(b0 &+ 3 &* s, p2r - q2r, p2i - q2i, w.c3, w.d3)
            store(b0 &+ 4 &* s, p1r - q1r, p1i - q1i, w.c4, w.d4)
        }
        let k2 = (
            c1: SIMD2(repeating: k.c1), c2: SIMD2(repeating: k.c2), s1: SIMD2(repeating: k.s1),
            s2: SIMD2(repeating: k.s2)
        )
        let sm = s &* m
        for j in 0..<m {
            let o = 4 &* j
            let w = (
                c1: wr[o], d1: wi[o], c2: wr[o &+ 1], d2: wi[o &+ 1], c3: wr[o &+ 2], d3: wi[o &+ 2],
                c4: wr[o &+ 3], d4: wi[o &+ 3]
            )
            let v = (
                c1: SIMD2(repeating: w.c1), d1: SIMD2(repeating: w.d1), c2: SIMD2(repeating: w.c2),
                d2: SIMD2(repeating: w.d2), c3: SIMD2(repeating: w.c3), d3: SIMD2(repeating: w.d3),
                c4: SIMD2(repeating: w.c4), d4: SIMD2(repeating: w.d4)
            )
            let a0 = s &* j, b0 = s &* 5 &* j
            lanes(s, { t in butterfly(t, a0, sm, b0, s, k2, v) }, { t in butterfly(t, a0, sm, b0, s, k, w) })
        }
    }
}

/// One lane (a `Double`) or two (a `SIMD2<Double>`, one SSE2 register) of
/// a butterfly: the same operations in the same order either way, so both
/// give the same bits.
protocol FFTLanes {
    /// The lanes at `p` (unaligned).
    init(at p: UnsafeMutablePointer<Double>)
    func store(_ p: UnsafeMutablePointer<Double>)
    static func + (a: Self, b: Self) -> Self
    static func - (a: Self, b: Self) -> Self
    static func * (a: Self, b: Self) -> Self
    static prefix func - (a: Self) -> Self
}

extension Double: FFTLanes {
    @inline(__always) init(at p: UnsafeMutablePointer<Double>) { self = p.pointee }
    @inline(__always) func store(_ p: UnsafeMutablePointer<Double>) { p.pointee = self }
}

extension SIMD2: FFTLanes where Scalar == Double {
    @inline(__always) init(at p: UnsafeMutablePointer<Double>) {
        self = UnsafeRawPointer(p).loadUnaligned(as: SIMD2<Double>.self)
    }
    @inline(__always) func store(_ p: UnsafeMutablePointer<Double>) {
        UnsafeMutableRawPointer(p).storeBytes(of: self, as: SIMD2<Double>.self)
    }
}
