import Foundation
import HeatMapContouring
import HeatMapCore
import HeatMapDensity

/// Overlap of a convex polygon's interior with a closed box, by the
/// separating-axis theorem.
enum ConvexOverlap {
    /// Whether the open interior of a convex polygon (corners in order)
    /// meets the closed box: no axis among the box's two and the polygon's
    /// edge normals separates their projections. O(corners²).
    package static func polygon(_ corners: [PlanePoint], overlaps box: PlaneBox) -> Bool {
        guard corners.count >= 3, !box.isEmpty else { return false }
        var lo = Double.infinity, hi = -Double.infinity
        for c in corners { lo = min(lo, c.x); hi = max(hi, c.x) }
        guard lo < box.maxX, box.minX < hi else { return false }
        lo = .infinity; hi = -.infinity
        for c in corners { lo = min(lo, c.y); hi = max(hi, c.y) }
        guard lo < box.maxY, box.minY < hi else { return false }
        let boxCorners = [
            PlanePoint(x: box.minX, y: box.minY), PlanePoint(x: box.maxX, y: box.minY),
            PlanePoint(x: box.maxX, y: box.maxY), PlanePoint(x: box.minX, y: box.maxY)
        ]
        for k in 0..<corners.count {
            let a = corners[k], b = corners[(k + 1) % corners.count]
            let nx = -(b.y - a.y), ny = b.x - a.x
            var pLo = Double.infinity, pHi = -Double.infinity
            for c in corners {
                let d = c.x * nx + c.y * ny
                pLo = min(pLo, d); pHi = max(pHi, d)
            }
            var bLo = Double.infinity, bHi = -Double.infinity
            for c in boxCorners {
                let d = c.x * nx + c.y * ny
                bLo = min(bLo, d); bHi = max(bHi, d)
            }
            if !(pLo < bHi && bLo < pHi) { return false }
        }
        return true
    }
}
