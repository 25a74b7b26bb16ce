import Foundation
import HeatMapCore
import HeatMapDensity

/// `gdal_contour`'s level forms, as thresholds inside a grid's range:
/// `-i I -off O` (every O + k·I) and `-e B` (every Bᵏ, k an integer).
package enum IntervalLevels {
    /// Why levels could not be made.
    package struct Failure: Error, Sendable, Hashable, CustomStringConvertible {
        /// What is wrong.
        package var description: String
    }

    /// The most thresholds either form may give: as many as `--levels` allows.
    package static let limit = 1000

    /// O + k·I for every integer k with the value strictly inside
    /// (minimum, maximum). O(levels), whatever the offset: it is first
    /// reduced to its remainder modulo I (exact in floating point), so a
    /// far offset neither loses the levels to rounding nor makes a count
    /// that cannot step (k + 1 == k past 2⁵³).
    package static func interval(_ interval: Double, offset: Double = 0, minimum: Double, maximum: Double) throws
        -> [Double]
    {
        guard interval > 0, interval.isFinite, offset.isFinite else {
            throw Failure(description: "the interval must be a positive number")
        }
        guard minimum < maximum else { return [] }
        let offset = offset.truncatingRemainder(dividingBy: interval)
        let first = ((minimum - offset) / interval).rounded(.down), last = ((maximum - offset) / interval).rounded(.up)
        guard first.isFinite, last.isFinite, last - first <= Double(limit) + 1 else {
            let count = (maximum - minimum) / interval
            let shown = count.isFinite && count < 1e15 ? "about \(Int(count.rounded()))" : "more than \(limit)"
            throw Failure(
                description:
                    "interval \(interval) gives \(shown) levels over the range \(minimum) … \(maximum) (at most \(limit), as --levels); use a larger interval"
            )
        }
        var out: [Double] = []
        for step in 0...Int(last - first) {
            let v = offset + (first + Double(step)) * interval
            if v > minimum && v < maximum && (out.last.map { v > $0 } ?? true) { out.append(v) }
        }
        guard out.count <= limit else {
            throw Failure(
                description:
                    "interval \(interval) gives \(out.count) levels over the range \(minimum) … \(maximum) (at most \(limit), as --levels); use a larger interval"
            )
        }
        return out
    }

    /// 0 and Bᵏ for every integer k ≥ 0 (1, B, B², …), those strictly inside
    /// (minimum, maximum): the levels `gdal_contour -e B` uses. O(levels).
    package static func exponential(base: Double, minimum: Double, maximum: Double) throws -> [Double] {
        guard base > 1, base.isFinite else {
            throw Failure(description: "the exponential base must be a number above 1")
        }
        guard minimum < maximum else { return [] }
        var out: [Double] = minimum < 0 && maximum > 0 ? [0] : []
        var v = 1.0
        while v < maximum && out.count <= limit {
            if v > minimum { out.append(v) }
            v *= base
        }
        return out
    }
}
