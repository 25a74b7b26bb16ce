import Foundation

/// A position on the output's decimal grid: the coordinates times 10^d as
/// integers, so that validity after rounding is decided exactly.
struct FixedPoint: Hashable {
    var x: Int64
    var y: Int64
}

/// An open ring rounded to `decimals` decimals (coordinates × 10^decimals),
/// with no repeated consecutive positions and no spikes.
struct FixedRing {
    var points: [FixedPoint]
    var decimals: Int

    /// The most decimals used: 10^15 × 2^51 / 10^15 keeps every scaled
    /// coordinate below 2^53 for |v| ≤ 2^51 / 10^15.
    static let maximumDecimals = 15
    /// Scaled coordinates stay below this, so differences fit in Int64 and
    /// cross products in Int128.
    static let scaledLimit = Double(1 << 51)

    static let powers: [Double] = (0...maximumDecimals).map { pow(10, Double($0)) }
    static let integerPowers: [Int64] = (0...maximumDecimals).map { k in (0..<k).reduce(Int64(1)) { p, _ in p * 10 } }

    /// The most decimals with which coordinates up to `magnitude` still fit
    /// the exact integer range; negative for planar coordinates beyond
    /// 2⁵¹ (they are then rounded to tens, hundreds, …).
    static func decimalsLimit(forMagnitude magnitude: Double) -> Int {
        guard magnitude.isFinite else { return 0 }
        var d = maximumDecimals
        while d > -300, magnitude * scale(d) >= scaledLimit { d -= 1 }
        return d
    }

    /// 10^d (d may be negative).
    static func scale(_ d: Int) -> Double {
        d >= 0 ? powers[min(d, maximumDecimals)] : 1 / pow(10, Double(-d))
    }

    /// v × 10^d, dividing for negative d so that the step stays exact.
    @inline(__always) static func scaled(_ v: Double, _ d: Int) -> Double {
        d >= 0 ? v * powers[min(d, maximumDecimals)] : v / pow(10, Double(-d))
    }

    /// n / 10^d as a double.
    @inline(__always) static func value(_ n: Int64, _ d: Int) -> Double {
        d >= 0 ? Double(n) / powers[min(d, maximumDecimals)] : Double(n) * pow(10, Double(-d))
    }

    /// The ring rounded with `precision` and cleaned: repeated positions
    /// and spikes (a vertex where the ring turns back on itself) removed,
    /// turned to run counter-clockwise (true) or clockwise (false). Nil
    /// when fewer than three positions or no area remain. O(n).
    static func rounded(_ ring: [PlanePoint], precision: VertexPrecision, counterClockwise: Bool) -> FixedRing? {
        // Rounded straight onto the cleaning stack: one array, one pass.
        var stack = CleanStack(capacity: ring.count)
        for p in ring {
            guard let f = precision.fixed(p) else { return nil }
            stack.push(f)
        }
        var cleaned = stack.finish()
        guard cleaned.count >= 3 else { return nil }
        let area = twiceArea(cleaned)
        guard area != 0 else { return nil }
        if (area > 0) != counterClockwise { cleaned.reverse() }
        return FixedRing(points: cleaned, decimals: precision.limit)
    }

    /// Removes repeated consecutive positions and spikes, also across the
    /// ring's seam. O(n).
    static func clean(_ input: [FixedPoint]) -> [FixedPoint] {
        var stack = CleanStack(capacity: input.count)
        for p in input { stack.push(p) }
        return stack.finish()
    }

    /// Twice the signed area (positive counter-clockwise), exact. O(n).
    static func twiceArea(_ pts: [FixedPoint]) -> Int128 {
        guard pts.count >= 3 else { return 0 }
        var s: Int128 = 0
        var prev = pts[pts.count - 1]
        let origin = pts[0]
        for p in pts {
            // Relative to the first point keeps the products small.
            let ax = Int128(prev.x - origin.x), ay = Int128(prev.y - origin.y)
            let bx = Int128(p.x - origin.x), by = Int128(p.y - origin.y)
            s += ax * by - bx * ay
            prev = p
        }
        return s
    }

    /// The coordinates as doubles.
    func coordinate(_ p: FixedPoint) -> PlanePoint {
        PlanePoint(x: FixedRing.value(p.x, decimals), y: FixedRing.value(p.y, decimals))
    }
}

/// Positions pushed one by one with repeats and spikes taken off as they
/// come (``FixedRing/clean(_:)``): clean inside at every step, the seam
/// fixed at the end.
private struct CleanStack {
    private var s: [FixedPoint] = []

    init(capacity: Int) { s.reserveCapacity(capacity) }

    @inline(__always) mutating func push(_ p: FixedPoint) {
        if s.last == p { return }
        s.append(p)
        while s.count >= 3, ExactPredicates.isSpike(s[s.count - 3], s[s.count - 2], s[s.count - 1]) {
            let c = s.removeLast()
            s.removeLast()
            if s.last != c { s.append(c) }
        }
    }

    /// The clean ring, or no positions when fewer than three remain.
    mutating func finish() -> [FixedPoint] {
        // Fix the seam where the last vertex meets the first.
        var guardCount = s.count + 2
        while s.count >= 3, guardCount > 0 {
            guardCount -= 1
            let n = s.count
            if s[n - 1] == s[0] { s.removeLast(); continue }
            if ExactPredicates.isSpike(s[n - 2], s[n - 1], s[0]) { s.removeLast(); continue }
            if ExactPredicates.isSpike(s[n - 1], s[0], s[1]) { s.removeFirst(); continue }
            break
        }
        return s.count >= 3 ? s : []
    }
}
