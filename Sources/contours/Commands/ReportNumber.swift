import Foundation

/// A number as `info` reports it, in text and JSON alike, for points and
/// cells tables: whole numbers below 10¹⁵ as integers, others to six
/// significant digits (written as plain decimals from 10⁻⁴ up, so a
/// large value keeps its digits rather than an exponent); null when not
/// finite.
func reportNumber(_ v: Double) -> String {
    guard v.isFinite else { return "null" }
    if v == v.rounded(), abs(v) < 1e15 { return String(Int64(v)) }
    // Six significant digits read well and are enough for a report.
    let short = Double(String(format: "%.6g", v)) ?? v
    if short == short.rounded(), abs(short) < 1e15 { return String(Int64(short)) }
    return abs(short) >= 1e-4 ? "\(short)" : String(format: "%.6g", v)
}
