/// Writes n / 10^decimals as a plain decimal with trailing zeros dropped
/// ("12.5", "-0.03", "0"), straight into bytes: the writers' hot loop, with
/// no allocation and one pass per digit.
enum FixedDecimal {
    /// The most bytes one number takes (sign, 19 digits, point, leading zeros).
    static let maximumLength = 40

    /// Writes the number ending just before `end` and returns where it starts.
    /// `decimals` is 0...18; n may be any Int64.
    @inline(__always)
    static func write(_ n: Int64, decimals: Int, endingAt end: UnsafeMutablePointer<UInt8>)
        -> UnsafeMutablePointer<UInt8> {
        var p = end
        if n == 0 { p -= 1; p.pointee = UInt8(ascii: "0"); return p }
        var m = n.magnitude
        // Most positions carry fewer decimals than the grid: drop the zeros first.
        var d = decimals
        while d >= 4, m % 10_000 == 0 { m /= 10_000; d -= 4 }
        while d > 0, m % 10 == 0 { m /= 10; d -= 1 }
        if d > 0 {
            for _ in 0..<d {
                p -= 1; p.pointee = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: m % 10); m /= 10
            }
            p -= 1; p.pointee = UInt8(ascii: ".")
        }
        repeat {
            p -= 1; p.pointee = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: m % 10); m /= 10
        } while m > 0
        if n < 0 { p -= 1; p.pointee = UInt8(ascii: "-") }
        return p
    }
}
