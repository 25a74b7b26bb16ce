import HeatMapContouring
import HeatMapCore
import HeatMapDensity

/// Writes n / 10^decimals as a plain decimal with trailing zeros dropped
/// ("12.5", "-0.03", "0"), straight into bytes and backwards: the writers'
/// hot loop, with no allocation.
///
/// One value per decimals (``of(_:)``) holds the constants of its divisions.
/// A number whose integer part has at most 8 digits and whose fraction has
/// at most 8 digits once its trailing zeros are dropped (every longitude or
/// latitude rounded to up to 8 decimals on the exporter's grid) takes a
/// path without a division or a branch on its digits: the integer part and
/// the fraction come out of one multiply; the fraction's eight digits are
/// two lookups of four in a table, in one 64-bit word, and so is an
/// integer part below 10^4 (a bigger one is spread into a word by a few
/// multiplies and masks); the counts of zero bytes at the words' ends give
/// the digits to keep, and the words are stored whole. Any other number is
/// written a digit pair at a time (``writeSlowly``), to the same text.
///
/// Sendable: its only pointer is to a table written once and never changed.
struct FixedDecimal: @unchecked Sendable {
    /// The most bytes one number takes (sign, 19 digits, point, leading zeros).
    static let maximumLength = 40
    /// Bytes below the start of a number that ``write(_:endingAt:)`` may
    /// overwrite with scratch (it stores whole words): a buffer needs this
    /// much room in front of the text written into it.
    static let scratchBytes = 8

    /// The decimals, 0...18.
    package let decimals: Int
    /// Zeros dropped before the split: `decimals` − 8 of them when there
    /// are more than 8 decimals, so that at most 8 are left.
    private let dropped: UInt64
    /// The low bits of a number that must be clear: 2^dropped − 1.
    private let droppedMask: UInt64
    /// 5^−dropped modulo 2^64: times a multiple of 5^dropped, the exact
    /// quotient; times anything else, a number above ``quotientLimit``.
    private let inverseOfFives: UInt64
    /// The largest quotient the fast path takes: it is a whole quotient,
    /// and its integer part has at most 8 digits.
    private let quotientLimit: UInt64
    /// 10^(decimals − dropped), the fraction's scale.
    private let scale: UInt64
    /// ⌈2^(64 + shift) / scale⌉: q × reciprocal / 2^(64 + shift) is
    /// q / scale rounded down for every q up to ``quotientLimit``.
    private let reciprocal: UInt64
    private let shift: UInt64
    /// 10^(8 − decimals + dropped): the fraction as eight digits.
    private let widening: UInt64
    /// ``fourDigits``, held here so that the hot loop reads it without the
    /// lazy global's check.
    private let digitGroups: UnsafePointer<UInt32>

    /// The four digits of every number below 10^4, leading zeros included,
    /// each 0...9, most significant in the lowest byte.
    private nonisolated(unsafe) static let fourDigits: UnsafePointer<UInt32> = {
        let table = UnsafeMutablePointer<UInt32>.allocate(capacity: 10_000)
        for k in 0..<10_000 {
            table[k] = UInt32(k / 1000) | UInt32(k / 100 % 10) << 8 | UInt32(k / 10 % 10) << 16 | UInt32(k % 10) << 24
        }
        return UnsafePointer(table)
    }()

    /// The writer for `decimals` (0...18).
    @inline(__always) package static func of(_ decimals: Int) -> FixedDecimal { all[decimals] }

    private static let all = (0...18).map(FixedDecimal.init(decimals:))

    private init(decimals: Int) {
        self.decimals = decimals
        let drop = max(decimals - 8, 0), kept = decimals - drop
        dropped = UInt64(drop)
        droppedMask = (1 << UInt64(drop)) - 1
        let fives = TensDivisor.fives(drop)
        inverseOfFives = TensDivisor.inverseOfFives(drop)
        var tens: UInt64 = 1
        for _ in 0..<kept { tens *= 10 }
        scale = tens
        quotientLimit = min(UInt64.max / fives, 100_000_000 * tens - 1)
        // With shift = 3 × kept (kept ≥ 1), 2^(64 + shift) ≥ 10^8 × scale²,
        // which makes the rounded-up reciprocal exact below the limit, and
        // 2^(64 + shift) / scale < 2^64, so it fits a word.
        shift = UInt64(3 * kept)
        if kept > 0 {
            let (q, r) = tens.dividingFullWidth((high: 1 << shift, low: 0))
            reciprocal = q + (r == 0 ? 0 : 1)
        } else {
            reciprocal = 0
        }
        var wide: UInt64 = 1
        for _ in kept..<8 { wide *= 10 }
        widening = wide
        digitGroups = FixedDecimal.fourDigits
    }

    /// Writes the number ending just before `end` and returns where it
    /// starts; up to ``scratchBytes`` bytes before the start are
    /// overwritten with scratch. n may be any Int64.
    @inline(__always)
    package func write(_ n: Int64, endingAt end: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8> {
        let m = n.magnitude
        let q = (m &>> dropped) &* inverseOfFives
        guard m & droppedMask == 0, q <= quotientLimit else {
            return FixedDecimal.writeSlowly(n, decimals: decimals, endingAt: end)
        }
        var integer = q, fraction: UInt64 = 0
        if scale > 1 {
            integer = q.multipliedFullWidth(by: reciprocal).high >> shift
            fraction = q &- integer &* scale
        }
        var p = end
        // The fraction's digits, first digit in the lowest byte; its trailing
        // zeros are the word's zero high bytes (all eight when it is 0).
        let wide = fraction &* widening
        let high = (wide &* 109_951_163) >> 40
        let f =
            UInt64(digitGroups[Int(truncatingIfNeeded: high)])
            | UInt64(digitGroups[Int(truncatingIfNeeded: wide &- high &* 10_000)]) << 32
        let shown = 8 &- f.leadingZeroBitCount &>> 3
        FixedDecimal.store((f | FixedDecimal.zeros) &<< UInt64(64 &- 8 &* shown), endingAt: p)
        p -= shown
        (p - 1).pointee = UInt8(ascii: ".")
        p -= (shown &+ 7) &>> 3
        if integer < 10_000 {
            let i = digitGroups[Int(truncatingIfNeeded: integer)]
            UnsafeMutableRawPointer(p - 4).storeBytes(of: (i | 0x3030_3030).littleEndian, as: UInt32.self)
            p -= 4 &- (i | 1 << 24).trailingZeroBitCount &>> 3
        } else {
            // The integer part's leading zeros are the word's zero low bytes;
            // the last digit always stays.
            let i = FixedDecimal.digits(integer)
            FixedDecimal.store(i | FixedDecimal.zeros, endingAt: p)
            p -= 8 &- (i | 1 << 56).trailingZeroBitCount &>> 3
        }
        (p - 1).pointee = UInt8(ascii: "-")
        p -= Int(truncatingIfNeeded: UInt64(bitPattern: n) >> 63)
        return p
    }

    /// "0" in every byte.
    private static let zeros: UInt64 = 0x3030_3030_3030_3030

    /// The eight decimal digits of x (below 10^8), most significant in the
    /// lowest byte, each 0...9: x splits into two halves of four digits
    /// (32-bit lanes), each half into two pairs (16-bit lanes), each pair
    /// into two digits (bytes), every lane at once. The multiply-shifts
    /// divide exactly in their ranges: × 109951163 >> 40 by 10^4 below
    /// 10^8, × 10486 >> 20 by 100 below 10^4, × 103 >> 10 by 10 below 100.
    @inline(__always) static func digits(_ x: UInt64) -> UInt64 {
        let high = (x &* 109_951_163) >> 40
        var v = high | (x &- high &* 10_000) << 32
        let hundreds = ((v &* 10_486) >> 20) & 0x0000_007F_0000_007F
        v = hundreds | (v &- hundreds &* 100) << 16
        let tens = ((v &* 103) >> 10) & 0x000F_000F_000F_000F
        return tens | (v &- tens &* 10) << 8
    }

    /// The eight bytes of `word` (lowest first) just before `end`.
    @inline(__always) private static func store(_ word: UInt64, endingAt end: UnsafeMutablePointer<UInt8>) {
        UnsafeMutableRawPointer(end - 8).storeBytes(of: word.littleEndian, as: UInt64.self)
    }

    /// The same text as ``write(_:endingAt:)`` for any number, a digit pair
    /// at a time and exactly within its bytes; one division per pair.
    static func writeSlowly(_ n: Int64, decimals: Int, endingAt end: UnsafeMutablePointer<UInt8>)
        -> UnsafeMutablePointer<UInt8>
    {
        var p = end
        if n == 0 { p -= 1; p.pointee = UInt8(ascii: "0"); return p }
        var m = n.magnitude
        var d = decimals
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
