import HeatMapCore
import HeatMapDensity

/// Where an isoline crosses a grid edge, and what counts as inside.
///
/// Rule (docs/contour-rules.md, degenerate cases): a node is inside a level when its value
/// is ≥ the threshold, so a node exactly at the threshold is inside. The
/// crossing on an edge between an inside node h and an outside node l sits
/// at the linear-interpolation fraction f = (v_h − t)/(v_h − v_l) from h,
/// mapped affinely into [ε, 1 − ε] with ε = 1e-9 of the edge. So:
/// - a crossing never lands on a node, even when v_h = t: no two crossings
///   of one level share a point, rings never touch themselves or each other,
///   and there are no zero-length edges;
/// - the map is strictly increasing, so the crossings of ascending
///   thresholds on one edge stay ordered (higher levels nearer h) and
///   levels nest;
/// - positions move by at most ε of a cell from plain interpolation.
///
/// Undefined (NaN) nodes are replaced, before contouring, by a floor value
/// below every threshold (see ``floorValue(minimum:maximum:thresholds:)``):
/// they are outside every level and crossings next to them are placed by
/// interpolating towards that floor, level by level, so levels stay apart.
enum CrossingRule {
    /// The clamp, in edge lengths.
    package static let epsilon = 1e-9

    /// The fraction from node a to node b where the isoline at `t` crosses
    /// the edge; exactly one of `va`, `vb` is ≥ `t`. Always in [ε, 1 − ε].
    @inline(__always) package static func fraction(_ va: Double, _ vb: Double, _ t: Double) -> Double {
        if va >= t {
            return epsilon + (1 - 2 * epsilon) * ratio(va - t, va - vb)
        } else {
            return 1 - (epsilon + (1 - 2 * epsilon) * ratio(vb - t, vb - va))
        }
    }

    /// num / den in [0, 1]; ½ when undefined (infinite values).
    @inline(__always) private static func ratio(_ num: Double, _ den: Double) -> Double {
        let f = num / den
        if f >= 0 && f <= 1 { return f }
        return f.isNaN ? 0.5 : min(max(f, 0), 1)
    }

    /// The value undefined nodes take: below the smallest of the defined
    /// values and the thresholds by the whole value range (at least 1), so
    /// interpolation towards it places each level's crossing differently.
    static func floorValue(minimum: Double, maximum: Double, thresholds: [Double]) -> Double {
        let lo = min(minimum, thresholds.first ?? minimum)
        let hi = max(maximum, thresholds.last ?? maximum)
        let span = hi - lo
        let margin = span.isFinite && span > 0 ? span : max(abs(lo), 1)
        let floor = lo - margin
        return floor.isFinite ? floor : -Double.greatestFiniteMagnitude
    }
}
