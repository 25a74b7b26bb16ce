import HeatMapCore
import HeatMapDensity

/// Four points whose hull bounds where smoothing can move a segment.
struct Quad {
    package var x: (Double, Double, Double, Double)
    package var y: (Double, Double, Double, Double)

    /// Whether the two hulls are certainly apart: some pair of points of
    /// either quad gives a normal along which the projections do not overlap
    /// (the hull edges are among those pairs), by a gap that beats rounding.
    /// At most 12 normals of 8 projections each, no allocation.
    func isApart(from other: Quad) -> Bool {
        let (ax0, ax1, ax2, ax3) = x, (ay0, ay1, ay2, ay3) = y
        let (bx0, bx1, bx2, bx3) = other.x, (by0, by1, by2, by3) = other.y
        // Two-argument max throughout: the variadic one builds an array.
        let scaleA = max(
            max(max(abs(ax0), abs(ay0)), max(abs(ax1), abs(ay1))), max(max(abs(ax2), abs(ay2)), max(abs(ax3), abs(ay3)))
        )
        let scaleB = max(
            max(max(abs(bx0), abs(by0)), max(abs(bx1), abs(by1))), max(max(abs(bx2), abs(by2)), max(abs(bx3), abs(by3)))
        )
        let scale = max(scaleA, scaleB)
        @inline(__always) func apart(_ ux: Double, _ uy: Double, _ vx: Double, _ vy: Double) -> Bool {
            let nx = vy - uy, ny = ux - vx
            let length = abs(nx) + abs(ny)
            guard length > 0 else { return false }
            let a0 = ax0 * nx + ay0 * ny, a1 = ax1 * nx + ay1 * ny
            let a2 = ax2 * nx + ay2 * ny, a3 = ax3 * nx + ay3 * ny
            let b0 = bx0 * nx + by0 * ny, b1 = bx1 * nx + by1 * ny
            let b2 = bx2 * nx + by2 * ny, b3 = bx3 * nx + by3 * ny
            let minA = min(min(a0, a1), min(a2, a3)), maxA = max(max(a0, a1), max(a2, a3))
            let minB = min(min(b0, b1), min(b2, b3)), maxB = max(max(b0, b1), max(b2, b3))
            let tolerance = 1e-12 * scale * length
            return maxA < minB - tolerance || maxB < minA - tolerance
        }
        // Every pair of points is an axis to try; the segment's own
        // direction (points 1 and 2) first, as it parts parallel isolines.
        return apart(ax1, ay1, ax2, ay2) || apart(bx1, by1, bx2, by2)
            || apart(ax0, ay0, ax1, ay1) || apart(bx0, by0, bx1, by1)
            || apart(ax2, ay2, ax3, ay3) || apart(bx2, by2, bx3, by3)
            || apart(ax0, ay0, ax2, ay2) || apart(bx0, by0, bx2, by2)
            || apart(ax1, ay1, ax3, ay3) || apart(bx1, by1, bx3, by3)
            || apart(ax0, ay0, ax3, ay3) || apart(bx0, by0, bx3, by3)
    }
}
