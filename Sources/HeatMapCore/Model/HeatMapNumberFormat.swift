import Foundation

/// Number text that reads well in legends and tooltips: "0.3" (never
/// "0.30000000000000004"), "1.5", "215,000", "2.5×10⁻⁶".
///
/// Values are rounded to a few significant digits, and a short exact form
/// is preferred when one exists (0.1 + 0.2 shows as "0.3"). Numbers of
/// five or more integer digits are grouped with commas; magnitudes below
/// 10⁻⁴ or from 10¹⁵ up use powers of ten. Output does not depend on the
/// locale. Each call is O(significant digits).
public enum HeatMapNumberFormat {
    /// `value` with at most `significantDigits` significant digits (1...15).
    public static func string(_ value: Double, significantDigits: Int = 3) -> String {
        let cap = min(max(significantDigits, 1), 15)
        guard value.isFinite else { return value.isNaN ? "NaN" : (value > 0 ? "∞" : "−∞") }
        if value == 0 { return "0" }
        return render(value, digits: shortestDigits(value, cap: cap))
    }

    /// Texts for a list of values that tell distinct values apart: digits
    /// are added (beyond `significantDigits`, up to 15) until no two
    /// different values read the same. O(n × digits).
    public static func strings(_ values: [Double], significantDigits: Int = 3) -> [String] {
        var cap = min(max(significantDigits, 1), 15)
        while true {
            let texts = values.map { v -> String in
                guard v.isFinite, v != 0 else { return string(v) }
                return render(v, digits: shortestDigits(v, cap: cap))
            }
            var seen: [String: Double] = [:]
            var clash = false
            for (t, v) in zip(texts, values) {
                if let other = seen[t], other != v { clash = true; break }
                seen[t] = v
            }
            if !clash || cap >= 15 { return texts }
            cap += 1
        }
    }

    /// "value units", e.g. "0.5 per km²"; just the number when `units` is empty.
    public static func label(_ value: Double, units: String, significantDigits: Int = 3) -> String {
        join(string(value, significantDigits: significantDigits), units)
    }

    /// Joins a number text and its units with a space (no space for "%").
    package static func join(_ number: String, _ units: String) -> String {
        let u = units.trimmingCharacters(in: .whitespaces)
        if u.isEmpty { return number }
        return u == "%" ? number + u : number + " " + u
    }

    /// The fewest significant digits (≤ cap) that give back `value` to
    /// about 12 digits, or `cap` when none does.
    private static func shortestDigits(_ value: Double, cap: Int) -> Int {
        for digits in 1..<cap {
            let text = String(format: "%.\(digits - 1)e", value)
            if let back = Double(text), abs(back - value) <= abs(value) * 1e-12 { return digits }
        }
        return cap
    }

    /// `value` rounded to `digits` significant digits, in fixed or power-of-ten form.
    private static func render(_ value: Double, digits: Int) -> String {
        // %e rounds once, correctly, and tells the decimal exponent after rounding.
        let scientific = String(format: "%.\(digits - 1)e", value)
        guard let eIndex = scientific.firstIndex(of: "e"),
            let exponent = Int(scientific[scientific.index(after: eIndex)...])
        else { return scientific }
        let sign = value < 0 ? "−" : ""
        if exponent < -4 || exponent >= 15 {
            var mantissa = String(scientific[..<eIndex])
            if mantissa.hasPrefix("-") { mantissa.removeFirst() }
            mantissa = trimZeros(mantissa)
            return sign + mantissa + "×10" + superscript(exponent)
        }
        let decimals = max(0, digits - 1 - exponent)
        var fixed = String(format: "%.\(decimals)f", abs(value))
        fixed = trimZeros(fixed)
        return sign + grouped(fixed)
    }

    /// Drops trailing zeros after a decimal point, and the point itself.
    private static func trimZeros(_ text: String) -> String {
        guard text.contains(".") else { return text }
        var t = Substring(text)
        while t.hasSuffix("0") { t = t.dropLast() }
        if t.hasSuffix(".") { t = t.dropLast() }
        return String(t)
    }

    /// Commas between thousands when the integer part has five or more digits.
    private static func grouped(_ text: String) -> String {
        let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let integer = Array(parts[0])
        guard integer.count >= 5 else { return text }
        var out = ""
        for (i, ch) in integer.enumerated() {
            if i > 0 && (integer.count - i) % 3 == 0 { out.append(",") }
            out.append(ch)
        }
        return parts.count > 1 ? out + "." + parts[1] : out
    }

    private static func superscript(_ n: Int) -> String {
        let digits: [Character] = ["⁰", "¹", "²", "³", "⁴", "⁵", "⁶", "⁷", "⁸", "⁹"]
        let body = String(abs(n)).map { digits[Int(String($0)) ?? 0] }
        return (n < 0 ? "⁻" : "") + String(body)
    }
}

/// Compact, locale-free number text for SVG coordinates and data attributes.
package enum NumberText {
    /// `value` rounded to `decimals` (0...6) places, trailing zeros dropped,
    /// never "-0". Values are clamped to ±1e12 so text stays short.
    package static func fixed(_ value: Double, decimals: Int) -> String {
        guard value.isFinite else { return "0" }
        let d = min(max(decimals, 0), 6)
        var scale: Int64 = 1
        for _ in 0..<d { scale *= 10 }
        let v = min(max(value, -1e12), 1e12)
        let scaled = Int64((v * Double(scale)).rounded())
        if scaled == 0 { return "0" }
        let negative = scaled < 0
        let magnitude = negative ? -scaled : scaled
        var text = String(magnitude / scale)
        var fraction = magnitude % scale
        if fraction != 0 {
            var width = d
            while fraction % 10 == 0 { fraction /= 10; width -= 1 }
            text += "." + String(fraction).leftPadded(to: width)
        }
        return negative ? "-" + text : text
    }

    /// A data value for machine reading: up to 10 significant digits,
    /// plain decimal or e-notation, shortest form ("0.3", "1200", "2.5e-07").
    package static func data(_ value: Double) -> String {
        guard value.isFinite else { return value.isNaN ? "NaN" : (value > 0 ? "Infinity" : "-Infinity") }
        if value == 0 { return "0" }
        var text = String(format: "%.10g", value)
        // %g keeps trailing zeros only in the mantissa of e-notation; trim them.
        if let e = text.firstIndex(of: "e") {
            var mantissa = String(text[..<e])
            if mantissa.contains(".") {
                while mantissa.hasSuffix("0") { mantissa.removeLast() }
                if mantissa.hasSuffix(".") { mantissa.removeLast() }
            }
            text = mantissa + String(text[e...])
        }
        return text
    }
}
