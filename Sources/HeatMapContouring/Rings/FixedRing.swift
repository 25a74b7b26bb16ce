import Foundation
import HeatMapCore
import HeatMapDensity

/// A position on the output's decimal grid: the coordinates times 10^d as
/// integers, so that validity after rounding is decided exactly.
package struct FixedPoint: Hashable {
    package var x: Int64
    package var y: Int64

    package init(x: Int64, y: Int64) {
        self.x = x
        self.y = y
    }
}

/// An open ring rounded to `decimals` decimals (coordinates × 10^decimals),
/// with no repeated consecutive positions and no spikes.
package struct FixedRing {
    package var points: [FixedPoint]
    package var decimals: Int

    package init(points: [FixedPoint], decimals: Int) {
        self.points = points
        self.decimals = decimals
    }

    /// The most decimals used: 10^15 × 2^51 / 10^15 keeps every scaled
    /// coordinate below 2^53 for |v| ≤ 2^51 / 10^15.
    package static let maximumDecimals = 15
    /// Scaled coordinates stay below this, so differences fit in Int64 and
    /// cross products in Int128.
    package static let scaledLimit = Double(1 << 51)

    package static let powers: [Double] = (0...maximumDecimals).map { pow(10, Double($0)) }
    static let integerPowers: [Int64] = (0...maximumDecimals).map { k in
        (0..<k).reduce(Int64(1)) { p, _ in p * 10 }
    }

    /// The most decimals with which coordinates up to `magnitude` still fit
    /// the exact integer range; negative for planar coordinates beyond
    /// 2⁵¹ (they are then rounded to tens, hundreds, …).
    package static func decimalsLimit(forMagnitude magnitude: Double) -> Int {
        guard magnitude.isFinite else { return 0 }
        var d = maximumDecimals
        while d > -300, magnitude * scale(d) >= scaledLimit { d -= 1 }
        return d
    }

    /// 10^d (d may be negative).
    package static func scale(_ d: Int) -> Double {
        d >= 0 ? powers[min(d, maximumDecimals)] : 1 / pow(10, Double(-d))
    }

    /// v × 10^d, dividing for negative d so that the step stays exact.
    @inline(__always) package static func scaled(_ v: Double, _ d: Int) -> Double {
        d >= 0 ? v * powers[min(d, maximumDecimals)] : v / pow(10, Double(-d))
    }

    /// v rounded half away from zero (as `rounded()`), when that lies below
    /// 2^52 in magnitude; nil otherwise and for NaN. Inline arithmetic
    /// instead of a call into the C library, for the writers' hot loop.
    @inline(__always) package static func roundedInteger(_ v: Double) -> Int64? {
        let bound = 0x1p52  // twice scaledLimit, written out: a literal costs no lookup
        guard abs(v) < 0x1p51 else { return abs(v) < bound ? roundedLarge(v) : nil }
        // v + 1.5 · 2^52 lies in [2^52, 2^53), where a double's step is 1:
        // the sum is v rounded to the nearest integer (ties to even), held
        // in the low bits of its pattern, with no conversion to check.
        let shifter = 0x1.8p52
        let r = Int64(bitPattern: (v + shifter).bitPattern) &- Int64(bitPattern: shifter.bitPattern)
        // The rest is exact (r lies within ½ of v); a tie that went to the
        // even neighbour toward zero goes one step away from it instead.
        let rest = v - Double(r)
        let up: Int64 = rest == 0.5 && v > 0 ? 1 : 0
        let down: Int64 = rest == -0.5 && v < 0 ? 1 : 0
        return r &+ up &- down
    }

    /// ``roundedInteger(_:)`` for 2^51 ≤ |v| < 2^52, where a double's step
    /// is ½ and the integer part and the remainder (in −1…1) are exact:
    /// twice the remainder cut toward zero is the step away from zero a
    /// half takes (up to 2^52 itself, which is refused).
    private static func roundedLarge(_ v: Double) -> Int64? {
        let whole = Int64(v), rest = v - Double(whole)
        let r = whole + Int64(rest * 2)
        return abs(r) < 1 << 52 ? r : nil
    }

    /// n / 10^d as a double.
    @inline(__always) package static func value(_ n: Int64, _ d: Int) -> Double {
        d >= 0 ? Double(n) / powers[min(d, maximumDecimals)] : Double(n) * pow(10, Double(-d))
    }

    /// The ring rounded with `precision` and cleaned: repeated positions
    /// and spikes (a vertex where the ring turns back on itself) removed,
    /// turned to run counter-clockwise (true) or clockwise (false). Nil
    /// when fewer than three positions or no area remain. O(n).
    package static func rounded(_ ring: [PlanePoint], precision: VertexPrecision, counterClockwise: Bool) -> FixedRing?
    {
        var bounds = FixedBox.empty
        return rounded(ring, precision: precision, counterClockwise: counterClockwise, bounds: &bounds)
    }

    /// The same, and `bounds` widened to hold every position as rounded,
    /// before the cleaning drops any (none when a coordinate is not
    /// finite): the box of the ring found in the same pass.
    package static func rounded(
        _ ring: [PlanePoint], precision: VertexPrecision, counterClockwise: Bool, bounds: inout FixedBox
    ) -> FixedRing? {
        // Rounded straight onto the cleaning stack: one array, one pass;
        // with no position raised (nearly always), every one at the base
        // decimals without asking.
        var valid = true
        let uniform = precision.isUniform
        var box = bounds
        var cleaned = [FixedPoint](unsafeUninitializedCapacity: ring.count) { buffer, count in
            var stack = CleanStack(buffer)
            ring.withUnsafeBufferPointer { ring in
                for p in ring {
                    guard let f = uniform ? precision.fixedAtBase(p) : precision.fixed(p) else {
                        valid = false
                        break
                    }
                    box.minX = min(box.minX, f.x)
                    box.maxX = max(box.maxX, f.x)
                    box.minY = min(box.minY, f.y)
                    box.maxY = max(box.maxY, f.y)
                    stack.push(f)
                }
            }
            count = valid ? stack.count : 0
        }
        guard valid else { return nil }
        bounds = box
        CleanStack.fixSeam(&cleaned)
        guard cleaned.count >= 3 else { return nil }
        let area = twiceArea(cleaned)
        guard area != 0 else { return nil }
        if (area > 0) != counterClockwise { cleaned.reverse() }
        return FixedRing(points: cleaned, decimals: precision.limit)
    }

    /// Removes repeated consecutive positions and spikes, also across the
    /// ring's seam. O(n).
    package static func clean(_ input: [FixedPoint]) -> [FixedPoint] {
        var cleaned = [FixedPoint](unsafeUninitializedCapacity: input.count) { buffer, count in
            var stack = CleanStack(buffer)
            for p in input { stack.push(p) }
            count = stack.count
        }
        CleanStack.fixSeam(&cleaned)
        return cleaned
    }

    /// Twice the signed area (positive counter-clockwise), exact. O(n).
    static func twiceArea(_ pts: [FixedPoint]) -> Int128 {
        guard pts.count >= 3 else { return 0 }
        var s: Int128 = 0
        var prev = pts[pts.count - 1]
        let origin = pts[0]
        for p in pts {
            // Relative to the first point keeps the products small.
            // As in ``ExactPredicates/cross(_:_:_:_:)``: differences and one
            // cross product need no check; only the running sum keeps one.
            s += ExactPredicates.cross(prev.x &- origin.x, prev.y &- origin.y, p.x &- origin.x, p.y &- origin.y)
            prev = p
        }
        return s
    }

    /// The coordinates as doubles.
    package func coordinate(_ p: FixedPoint) -> PlanePoint {
        PlanePoint(x: FixedRing.value(p.x, decimals), y: FixedRing.value(p.y, decimals))
    }
}

/// Positions pushed one by one with repeats and spikes taken off as they
/// come (``FixedRing/clean(_:)``): clean inside at every step, the seam
/// fixed at the end. It fills a buffer the caller sized for every position
/// (the stack never holds more than it was given), so a push neither grows
/// nor checks an array.
private struct CleanStack {
    private let s: UnsafeMutableBufferPointer<FixedPoint>
    package private(set) var count = 0

    package init(_ buffer: UnsafeMutableBufferPointer<FixedPoint>) { s = buffer }

    @inline(__always) mutating func push(_ p: FixedPoint) {
        if count > 0, s[count - 1] == p { return }
        s[count] = p
        count += 1
        while count >= 3, ExactPredicates.isSpike(s[count - 3], s[count - 2], s[count - 1]) {
            let c = s[count - 1]
            count -= 2
            if count == 0 || s[count - 1] != c {
                s[count] = c
                count += 1
            }
        }
    }

    /// Fixes the seam where the last vertex meets the first; no positions
    /// are left when fewer than three remain.
    static func fixSeam(_ s: inout [FixedPoint]) {
        var guardCount = s.count + 2
        while s.count >= 3, guardCount > 0 {
            guardCount -= 1
            let n = s.count
            if s[n - 1] == s[0] { s.removeLast(); continue }
            if ExactPredicates.isSpike(s[n - 2], s[n - 1], s[0]) { s.removeLast(); continue }
            if ExactPredicates.isSpike(s[n - 1], s[0], s[1]) { s.removeFirst(); continue }
            break
        }
        if s.count < 3 { s = [] }
    }
}
