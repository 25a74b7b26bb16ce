import Foundation
import HeatMapContouring
import HeatMapCore
import HeatMapDensity

/// A plane cell's outline made honest for longitude/latitude output: each
/// straight edge of the binning plane is curved once unprojected, so it is
/// cut into pieces (in the plane, evenly, then unprojected by the caller)
/// until every longitude/latitude chord stays within ``tolerance`` of the
/// true edge. A point-in-polygon join in longitude/latitude then gives the
/// tool's own counts.
enum BinOutline {
    /// The largest gap, degrees, between a chord and the unprojected edge:
    /// well below the default 6-decimal output rounding.
    package static let tolerance = 1e-7
    /// Pieces per edge at most.
    static let maximumPieces = 256

    /// The corners with points added along each edge; unchanged for a planar projection.
    static func densified(_ corners: [PlanePoint], projection: PlaneProjection) -> [PlanePoint] {
        guard projection.isGeographic, corners.count >= 2 else { return corners }
        var out: [PlanePoint] = []
        out.reserveCapacity(corners.count * 8)
        for i in corners.indices {
            let a = corners[i], b = corners[(i + 1) % corners.count]
            out.append(a)
            out += interior(a, b, projection: projection)
        }
        return out
    }

    /// The points strictly between a and b. Computed from the endpoints in
    /// a fixed order, so that two cells sharing an edge get the same points.
    private static func interior(_ a: PlanePoint, _ b: PlanePoint, projection: PlaneProjection) -> [PlanePoint] {
        let swap = (a.x, a.y) > (b.x, b.y)
        let (p, q) = swap ? (b, a) : (a, b)
        let gp = projection.unproject(p), gq = projection.unproject(q)
        let gm = projection.unproject(PlanePoint(x: (p.x + q.x) / 2, y: (p.y + q.y) / 2))
        var dLon = gq.longitude - gp.longitude
        while dLon > 180 { dLon -= 360 }
        while dLon <= -180 { dLon += 360 }
        var mLon = gm.longitude - gp.longitude
        while mLon > 180 { mLon -= 360 }
        while mLon <= -180 { mLon += 360 }
        let gap = max(abs(mLon - dLon / 2), abs(gm.latitude - (gp.latitude + gq.latitude) / 2))
        guard gap.isFinite, gap > tolerance else { return [] }
        // A chord's gap from its curve shrinks with the square of its length.
        let n = min(maximumPieces, Int((gap / tolerance).squareRoot().rounded(.up)))
        var points = (1..<n).map { k -> PlanePoint in
            let t = Double(k) / Double(n)
            return PlanePoint(x: p.x + (q.x - p.x) * t, y: p.y + (q.y - p.y) * t)
        }
        if swap { points.reverse() }
        return points
    }
}
