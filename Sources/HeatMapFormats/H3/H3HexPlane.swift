import Foundation
import HeatMapContouring
import HeatMapCore
import HeatMapDensity

/// A point in a face's hexagon plane: x along the i axis, one unit the
/// distance between neighbouring cell centres.
struct HexPoint: Equatable, Sendable {
    package var x: Double
    package var y: Double

    var magnitude: Double { (x * x + y * y).squareRoot() }

    /// The centre of a cell.
    @inline(__always) package init(_ c: CoordIJK) {
        let i = c.i - c.k, j = c.j - c.k
        x = Double(i) - 0.5 * Double(j)
        y = Double(j) * H3Constants.sqrt3Over2
    }

    @inline(__always) package init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    /// Where the line p0–p1 crosses the line p2–p3.
    static func intersection(_ p0: HexPoint, _ p1: HexPoint, _ p2: HexPoint, _ p3: HexPoint) -> HexPoint {
        let s1x = p1.x - p0.x, s1y = p1.y - p0.y
        let s2x = p3.x - p2.x, s2y = p3.y - p2.y
        let t = (s2x * (p0.y - p2.y) - s2y * (p0.x - p2.x)) / (-s2x * s1y + s1x * s2y)
        return HexPoint(x: p0.x + t * s1x, y: p0.y + t * s1y)
    }

    /// Whether two points agree to within single-precision epsilon (how the
    /// reference decides that a face edge passes through a cell corner).
    func almostEquals(_ o: HexPoint) -> Bool {
        abs(x - o.x) < Double(Float.ulpOfOne) && abs(y - o.y) < Double(Float.ulpOfOne)
    }

    /// The cell containing this point (the hexagon quantization the
    /// reference takes from DGGRID).
    package func cell() -> CoordIJK {
        let a1 = abs(x), a2 = abs(y)
        let x2 = a2 * H3Constants.inverseSin60
        let x1 = a1 + x2 / 2
        let m1 = Int(x1), m2 = Int(x2)
        let r1 = x1 - Double(m1), r2 = x2 - Double(m2)
        var i: Int, j: Int
        if r1 < 0.5 {
            if r1 < 1.0 / 3 {
                i = m1
                j = r2 < (1 + r1) / 2 ? m2 : m2 + 1
            } else {
                j = r2 < 1 - r1 ? m2 : m2 + 1
                i = (1 - r1) <= r2 && r2 < 2 * r1 ? m1 + 1 : m1
            }
        } else {
            if r1 < 2.0 / 3 {
                j = r2 < 1 - r1 ? m2 : m2 + 1
                i = (2 * r1 - 1) < r2 && r2 < 1 - r1 ? m1 : m1 + 1
            } else {
                i = m1 + 1
                j = r2 < r1 / 2 ? m2 : m2 + 1
            }
        }
        // fold across the axes
        if x < 0 {
            if j % 2 == 0 {
                i -= 2 * (i - j / 2)
            } else {
                i -= 2 * (i - (j + 1) / 2) + 1
            }
        }
        if y < 0 {
            i -= (2 * j + 1) / 2
            j = -j
        }
        return CoordIJK(i, j, 0).normalized()
    }
}
