import HeatMapCore

/// Branch-free sweeps over a run of points, two points a vector step: the
/// passes every batch takes before its grid (the box of the points, the
/// check of their values) were scalar loops with a compare and a branch
/// per coordinate, about 7 % of a fixed quartic grid's CPU time at 6
/// cells on 10⁶ points (docs/performance.md).
///
/// Whether every value is finite is one sum: v − v is 0 for a finite v and
/// NaN otherwise, and a NaN stays in a sum. O(n), no allocation.
enum PointSweep {
    typealias Pair = SIMD2<Double>

    /// The pair of doubles at `p + i`.
    @inline(__always) static func pair(_ p: UnsafePointer<Double>, _ i: Int) -> Pair {
        UnsafeRawPointer(p + i).loadUnaligned(as: Pair.self)
    }

    /// The lanes' smaller values (a vector min: the select of b where b < a).
    @inline(__always) static func lower(_ a: Pair, _ b: Pair) -> Pair { a.replacing(with: b, where: b .< a) }
    /// The lanes' larger values.
    @inline(__always) static func higher(_ a: Pair, _ b: Pair) -> Pair { a.replacing(with: b, where: b .> a) }

    /// The box of points `range` of `x` and `y`, or nil when a coordinate
    /// among them is not finite.
    static func box(x: UnsafePointer<Double>, y: UnsafePointer<Double>, range: Range<Int>) -> PlaneBox? {
        var low = (x: Pair(repeating: .infinity), y: Pair(repeating: .infinity))
        var high = (x: -low.x, y: -low.y)
        var poison = Pair.zero
        var i = range.lowerBound
        while i + 2 <= range.upperBound {
            let px = pair(x, i), py = pair(y, i)
            poison += (px - px) + (py - py)
            low = (lower(low.x, px), lower(low.y, py))
            high = (higher(high.x, px), higher(high.y, py))
            i += 2
        }
        if i < range.upperBound {
            let px = Pair(repeating: x[i]), py = Pair(repeating: y[i])
            poison += (px - px) + (py - py)
            low = (lower(low.x, px), lower(low.y, py))
            high = (higher(high.x, px), higher(high.y, py))
        }
        guard poison == .zero else { return nil }
        return PlaneBox(minX: low.x.min(), minY: low.y.min(), maxX: high.x.max(), maxY: high.y.max())
    }

    /// Σ w over points `range`, in input order, when every x, y, w (and
    /// value) among them is finite and every w ≥ 0; nil otherwise.
    static func weightSum(
        x: UnsafePointer<Double>, y: UnsafePointer<Double>, weight: UnsafePointer<Double>,
        value: UnsafePointer<Double>?, range: Range<Int>
    ) -> Double? {
        var poison = Pair.zero
        var lowest = Pair(repeating: .infinity)
        // The sum stays one scalar chain in input order: the totals (and
        // the grids normalised by them) are the same bit for bit.
        var sum = 0.0
        var i = range.lowerBound
        while i + 2 <= range.upperBound {
            let px = pair(x, i), py = pair(y, i), pw = pair(weight, i)
            poison += (px - px) + (py - py) + (pw - pw)
            if let value {
                let pv = pair(value, i)
                poison += pv - pv
            }
            lowest = lower(lowest, pw)
            sum += pw[0]
            sum += pw[1]
            i += 2
        }
        if i < range.upperBound {
            let w = weight[i]
            let v = value?[i] ?? 0
            poison += Pair((x[i] - x[i]) + (y[i] - y[i]), (w - w) + (v - v))
            lowest = lower(lowest, Pair(repeating: w))
            sum += w
        }
        // −0 passes, as w ≥ 0 does.
        guard poison == .zero, lowest.min() >= 0 else { return nil }
        return sum
    }
}
