import HeatMapContouring

/// Exact division by a power of ten, 10^k = 2^k · 5^k, without a divide:
/// a multiple of 10^k shifted right by k is a multiple of 5^k, which times
/// the inverse of 5^k modulo 2^64 is the quotient; anything else gives a
/// product above (2^64 − 1) / 5^k (Granlund and Montgomery, "Division by
/// invariant integers using multiplication", 1994, §9).
struct TensDivisor {
    /// The most zeros looked for: 10^18 is the largest power in Int64.
    static let largestExponent = 18
    static let powers: [Int64] = (0...largestExponent).map { k in (0..<k).reduce(Int64(1)) { r, _ in r * 10 } }
    private static let inverses = (0...largestExponent).map(inverseOfFives)
    private static let limits = (0...largestExponent).map { UInt64.max / fives($0) }

    /// 5^k (k ≤ 27 fits in 64 bits).
    static func fives(_ k: Int) -> UInt64 {
        (0..<k).reduce(UInt64(1)) { r, _ in r &* 5 }
    }

    /// The inverse of 5^k modulo 2^64: Newton's iteration doubles the
    /// correct low bits of an odd number's inverse, and an odd number is
    /// its own inverse modulo 8, so five steps give all 64.
    static func inverseOfFives(_ k: Int) -> UInt64 {
        let five = fives(k)
        var inverse = five
        for _ in 0..<5 { inverse = inverse &* (2 &- five &* inverse) }
        return inverse
    }

    let exponent: Int
    private let inverse: UInt64

    init(exponent: Int) {
        self.exponent = exponent
        inverse = Self.inverses[exponent]
    }

    /// Whether 10^k divides v.
    @inline(__always) static func divides(_ v: Int64, _ k: Int) -> Bool {
        let m = v.magnitude
        return m.trailingZeroBitCount >= k && (m >> UInt64(k)) &* inverses[k] <= limits[k]
    }

    /// The largest 10^k (k ≤ 18) that divides every coordinate of `points`
    /// and their differences; 10^0 for none, and when a coordinate reaches
    /// 2^62 (a difference could then wrap round, and only the wrapping
    /// sum gives it back). O(n): k only falls.
    static func largest(dividing points: [FixedPoint]) -> TensDivisor {
        var k = largestExponent
        for p in points {
            if p.x.magnitude >= 1 << 62 || p.y.magnitude >= 1 << 62 { return TensDivisor(exponent: 0) }
            while k > 0, !divides(p.x, k) || !divides(p.y, k) { k -= 1 }
        }
        return TensDivisor(exponent: k)
    }

    /// v / 10^k, for a v that 10^k divides.
    @inline(__always) func quotient(_ v: Int64) -> Int64 {
        let q = Int64(bitPattern: (v.magnitude >> UInt64(exponent)) &* inverse)
        return v < 0 ? 0 &- q : q
    }
}
