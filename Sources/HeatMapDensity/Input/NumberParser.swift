import Foundation
import HeatMapCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// What a text field holds, read as a number.
enum ParsedNumber: Sendable, Hashable {
    /// A finite number.
    case number(Double)
    /// "nan" in any case.
    case nan
    /// "inf", "infinity" (either sign), or a value too large for a Double.
    case infinite(Double)
    /// Nothing but spaces.
    case empty
    /// A common missing-value marker: NA, N/A, null, none, nil, "-", "?".
    case missing
    /// Anything else.
    case invalid
}

/// Parses decimal numbers straight from bytes, without making a String.
///
/// Accepts `[+-]? (digits [. digits] | . digits) ([eE] [+-]? digits)?`
/// with surrounding spaces or tabs, and optionally a decimal comma. Short
/// numbers (≤ 19 significant digits with value < 2⁵³ and a power of ten
/// ≤ 22) take Clinger's exact fast path; the rest go through `strtod`,
/// which rounds correctly. O(length).
enum NumberParser {
    /// Parses `bytes`. With `decimalComma`, a single ',' is read as the
    /// decimal point (for semicolon- or tab-separated files from locales
    /// that write 3,5).
    package static func parse(_ bytes: UnsafeBufferPointer<UInt8>, decimalComma: Bool = false) -> ParsedNumber {
        var lo = 0, hi = bytes.count
        while lo < hi, bytes[lo] == 0x20 || bytes[lo] == 0x09 { lo += 1 }
        while hi > lo, bytes[hi - 1] == 0x20 || bytes[hi - 1] == 0x09 { hi -= 1 }
        guard lo < hi else { return .empty }

        var i = lo
        var negative = false
        if bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") {
            negative = bytes[i] == UInt8(ascii: "-")
            i += 1
        }
        var mantissa: UInt64 = 0
        var digits = 0  // significant digits taken into the mantissa
        var exponent = 0  // power of ten to apply to the mantissa
        var sawDigit = false
        var overflow = false
        // Integer part.
        while i < hi, bytes[i] &- 0x30 < 10 {
            sawDigit = true
            let d = UInt64(bytes[i] &- 0x30)
            if mantissa == 0 && d == 0 {
                // leading zero: not significant
            } else if digits < 19 {
                mantissa = mantissa * 10 + d
                digits += 1
            } else {
                overflow = true
                exponent += 1
            }
            i += 1
        }
        // Fraction.
        if i < hi, bytes[i] == UInt8(ascii: ".") || (decimalComma && bytes[i] == UInt8(ascii: ",")) {
            i += 1
            while i < hi, bytes[i] &- 0x30 < 10 {
                sawDigit = true
                let d = UInt64(bytes[i] &- 0x30)
                if mantissa == 0 && d == 0 {
                    exponent -= 1
                } else if digits < 19 {
                    mantissa = mantissa * 10 + d
                    digits += 1
                    exponent -= 1
                } else {
                    overflow = true
                }
                i += 1
            }
        }
        guard sawDigit else { return special(bytes, lo, hi) }
        // Exponent.
        if i < hi, bytes[i] | 0x20 == UInt8(ascii: "e") {
            i += 1
            var expNegative = false
            if i < hi, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") {
                expNegative = bytes[i] == UInt8(ascii: "-")
                i += 1
            }
            var e = 0
            var expDigits = 0
            while i < hi, bytes[i] &- 0x30 < 10 {
                if e < 100_000 { e = e * 10 + Int(bytes[i] &- 0x30) }
                expDigits += 1
                i += 1
            }
            guard expDigits > 0 else { return .invalid }
            exponent += expNegative ? -e : e
        }
        guard i == hi else { return .invalid }

        if !overflow, let v = exact(mantissa: mantissa, exponent: exponent, negative: negative) {
            return .number(v)
        }
        let v = slowParse(bytes, lo, hi, decimalComma: decimalComma)
        return v.isFinite ? .number(v) : .infinite(v)
    }

    /// ±mantissa × 10^exponent by Clinger's fast path, or nil when it does
    /// not apply (mantissa ≥ 2⁵³ or |exponent| > 22). The one place the
    /// fast path's arithmetic lives, so every parser rounds alike.
    @inline(__always)
    static func exact(mantissa: UInt64, exponent: Int, negative: Bool) -> Double? {
        guard mantissa < (1 << 53), exponent >= -22, exponent <= 22 else { return nil }
        // 10^k for k <= 22 is exact (5^22 < 2^53), and so is every step here.
        let scale = powerOfTen(exponent < 0 ? -exponent : exponent)
        let m = Double(mantissa)
        let v = exponent >= 0 ? m * scale : m / scale
        return negative ? -v : v
    }

    /// 10^k for k in 0...22, exact. A switch, not a static array: it
    /// compiles to a constant table, with no lazy initialisation to check
    /// on every call.
    @inline(__always)
    private static func powerOfTen(_ k: Int) -> Double {
        switch k {
        case 0: return 1e0
        case 1: return 1e1
        case 2: return 1e2
        case 3: return 1e3
        case 4: return 1e4
        case 5: return 1e5
        case 6: return 1e6
        case 7: return 1e7
        case 8: return 1e8
        case 9: return 1e9
        case 10: return 1e10
        case 11: return 1e11
        case 12: return 1e12
        case 13: return 1e13
        case 14: return 1e14
        case 15: return 1e15
        case 16: return 1e16
        case 17: return 1e17
        case 18: return 1e18
        case 19: return 1e19
        case 20: return 1e20
        case 21: return 1e21
        default: return 1e22
        }
    }

    /// strtod on a NUL-terminated copy (C locale: '.' is the decimal point).
    private static func slowParse(
        _ bytes: UnsafeBufferPointer<UInt8>, _ lo: Int, _ hi: Int,
        decimalComma: Bool
    ) -> Double {
        var text = [CChar](repeating: 0, count: hi - lo + 1)
        for k in lo..<hi {
            let b = bytes[k]
            text[k - lo] = CChar(bitPattern: decimalComma && b == UInt8(ascii: ",") ? UInt8(ascii: ".") : b)
        }
        return text.withUnsafeBufferPointer { strtod($0.baseAddress!, nil) }
    }

    /// nan, inf, infinity (signed, any case) and missing-value markers.
    private static func special(_ bytes: UnsafeBufferPointer<UInt8>, _ lo: Int, _ hi: Int) -> ParsedNumber {
        guard hi - lo <= 12 else { return .invalid }
        var word = ""
        for k in lo..<hi {
            word.unicodeScalars.append(Unicode.Scalar(bytes[k] | (bytes[k] >= 0x41 && bytes[k] <= 0x5a ? 0x20 : 0)))
        }
        var sign = 1.0
        var body = Substring(word)
        if let f = body.first, f == "+" || f == "-" {
            sign = f == "-" ? -1 : 1
            body = body.dropFirst()
        }
        switch body {
        case "nan": return .nan
        case "inf", "infinity": return .infinite(sign * .infinity)
        default: break
        }
        switch word {
        case "na", "n/a", "null", "none", "nil", "-", "?", "#n/a": return .missing
        default: return .invalid
        }
    }
}
