/// Arctangents for unprojecting plane points in the half-angle form
/// 2·atan(num/den), |num| ≤ den: several times cheaper than the C library's
/// `asin` and `atan2`, within 2 ulps of the exact angle, and pure functions
/// of their arguments (a position shared by neighbouring rings unprojects
/// the same every time, however it is batched).
///
/// The work is split in two steps, ``reduce(_:over:)`` (the division) and
/// ``twice(_:)`` (the polynomial), so that a batch can run each step over
/// many points in turn: short dependency chains the processor overlaps,
/// where one long chain per point would leave it waiting.
package enum ArcTangent {
    /// A ratio num/den taken to |u| ≤ tan(π/8): atan(num/den) =
    /// ±(k·π/4 + atan(u)), the sign that of `num`.
    package struct Reduced {
        package var u: Double
        /// 0, or 1 where the ratio was taken about 1.
        package var k: Double
        /// Carries the sign of `num`.
        package var sign: Double
    }

    /// num/den reduced for the polynomial, for |num| ≤ den and den zero
    /// or normal (0/0 reduces to 0). O(1): one division.
    @inline(__always) package static func reduce(_ num: Double, over den: Double) -> Reduced {
        let n = num.magnitude
        // The least subnormal keeps 0/0 at 0 and leaves every normal den
        // as it is.
        let d = den + .leastNonzeroMagnitude
        // Above tan(π/8) the ratio t is taken about 1 instead,
        // atan(t) = π/4 + atan((t − 1)/(t + 1)).
        let k: Double = n > tanPiOver8 * d ? 1 : 0
        return Reduced(u: (n - k * d) / (d + k * n), k: k, sign: num)
    }

    /// 2·atan(num/den) in radians, in [-π/2, π/2], from its reduced ratio.
    /// O(1).
    @inline(__always) package static func twice(_ r: Reduced) -> Double {
        // 2·(k·π/4 + atan(u)), with k·π/2 added last in two parts.
        let angle = r.k * halfPiHigh + (2 * kernel(r.u) + r.k * halfPiLow)
        return Double(signOf: r.sign, magnitudeOf: angle)
    }

    /// 2·atan(num/den) in radians for |num| ≤ den, den zero or normal. O(1).
    @inline(__always) package static func twice(_ num: Double, over den: Double) -> Double {
        twice(reduce(num, over: den))
    }

    /// atan(u) for |u| ≤ tan(π/8): u + u·x·P(x), x = u². P is the minimax
    /// polynomial (relative error of atan 1.3e-18) that
    /// Scripts/derive-atan-kernel.py finds with the Remez algorithm in
    /// mpmath and rounds to these doubles; evaluated here in Estrin's
    /// order, the result is within 0.65 ulp of atan(u) (the script checks).
    @inline(__always) static func kernel(_ u: Double) -> Double {
        let x = u * u
        let x2 = x * x, x4 = x2 * x2
        let a0 = -0.333333333333332 + 0.19999999999953247 * x
        let a1 = -0.14285714280166595 + 0.11111110782156533 * x
        let a2 = -0.0909089772529288 + 0.07692059718124553 * x
        let a3 = -0.06663099211316668 + 0.058478593261222296 * x
        let a4 = -0.05039190655749666 + 0.03806214555747484 * x
        let b0 = a0 + a1 * x2, b1 = a2 + a3 * x2, b2 = a4 - 0.01790504553018658 * x2
        let p = b0 + x4 * (b1 + x4 * b2)
        return u + (u * x) * p
    }

    /// tan(π/8) = √2 − 1, where the reduction switches from 0 to 1.
    static let tanPiOver8 = 0.41421356237309503
    /// π/2 as the nearest double, and the rest of π/2.
    static let halfPiHigh = 1.5707963267948966
    static let halfPiLow = 6.123233995736766e-17
    /// π as the nearest double, and the rest of π.
    static let piHigh = 3.141592653589793
    static let piLow = 1.2246467991473532e-16
}

extension ArcTangent {
    /// `out[i]` = 2·atan(num[i]/den[i]) for i in 0 ..< count, the bits of
    /// ``twice(_:over:)``, in two loops over plain arrays — the reductions
    /// (the divisions), then the polynomials — that the compiler pairs
    /// into vector instructions. `scratch` holds `count` doubles (the
    /// reductions' k). O(count).
    @inline(__always) package static func twice(
        _ num: UnsafePointer<Double>, over den: UnsafePointer<Double>, into out: UnsafeMutablePointer<Double>,
        scratch k: UnsafeMutablePointer<Double>, count: Int
    ) {
        for i in 0..<count {
            let r = reduce(num[i], over: den[i])
            out[i] = r.u
            k[i] = r.k
        }
        for i in 0..<count {
            out[i] = twice(Reduced(u: out[i], k: k[i], sign: num[i]))
        }
    }
}
