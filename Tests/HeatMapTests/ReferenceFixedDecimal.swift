// The formatter as it was before its word-at-a-time fast path, word for word
// but for its name: the reference FixedDecimalTests compare the writer with.

/// Writes n / 10^decimals as a plain decimal with trailing zeros dropped
/// ("12.5", "-0.03", "0"), straight into bytes: the writers' hot loop, with
/// no allocation and one division per two digits.
enum ReferenceFixedDecimal {
    /// The most bytes one number takes (sign, 19 digits, point, leading zeros).
    static let maximumLength = 40

    /// Writes the number ending just before `end` and returns where it starts.
    /// `decimals` is 0...18; n may be any Int64.
    @inline(__always)
    static func write(_ n: Int64, decimals: Int, endingAt end: UnsafeMutablePointer<UInt8>)
        -> UnsafeMutablePointer<UInt8>
    {
        var p = end
        if n == 0 { p -= 1; p.pointee = UInt8(ascii: "0"); return p }
        var m = n.magnitude
        // Most positions carry fewer decimals than the grid: drop the zeros first.
        var d = decimals
        // Longitude/latitude sit on a grid of 13 decimals and are mostly
        // rounded to 6: one test takes the usual seven zeros.
        if d >= 7, m % 10_000_000 == 0 { m /= 10_000_000; d -= 7 }
        while d >= 4, m % 10_000 == 0 { m /= 10_000; d -= 4 }
        while d > 0, m % 10 == 0 { m /= 10; d -= 1 }
        if d > 0 {
            while d >= 2 {
                let q = m / 100
                p -= 2; writePair(UInt32(truncatingIfNeeded: m &- q &* 100), at: p)
                m = q; d -= 2
            }
            if d == 1 { p -= 1; p.pointee = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: m % 10); m /= 10 }
            p -= 1; p.pointee = UInt8(ascii: ".")
        }
        while m >= 100 {
            let q = m / 100
            p -= 2; writePair(UInt32(truncatingIfNeeded: m &- q &* 100), at: p)
            m = q
        }
        if m >= 10 {
            p -= 2; writePair(UInt32(truncatingIfNeeded: m), at: p)
        } else {
            p -= 1; p.pointee = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: m)
        }
        if n < 0 { p -= 1; p.pointee = UInt8(ascii: "-") }
        return p
    }

    /// The two digits of `pair` (0...99) at p and p + 1.
    @inline(__always) private static func writePair(_ pair: UInt32, at p: UnsafeMutablePointer<UInt8>) {
        // pair × 103 / 1024 is pair / 10 for every pair below 100.
        let tens = (pair &* 103) >> 10
        p.pointee = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: tens)
        (p + 1).pointee = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: pair &- tens &* 10)
    }
}
