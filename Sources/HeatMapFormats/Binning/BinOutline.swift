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
    /// A convex cell of the equal-area plane that reaches past the plane's
    /// rim (``rimRadius``) is cut there first (``onTheSphere(_:projection:)``).
    static func densified(_ corners: [PlanePoint], projection: PlaneProjection) -> [PlanePoint] {
        guard projection.isGeographic, corners.count >= 2 else { return corners }
        if projection.kind == .equalArea, corners.contains(where: { !isOnTheSphere($0) }) {
            return onTheSphere(corners, projection: projection)
        }
        var out: [PlanePoint] = []
        out.reserveCapacity(corners.count * 8)
        for i in corners.indices {
            let a = corners[i], b = corners[(i + 1) % corners.count]
            out.append(a)
            out += interior(a, b, projection: projection)
        }
        return out
    }

    /// The radius (plane metres) a cell is cut at: just inside the equal-area
    /// plane's rim, the circle of radius 2R that is one point of the sphere
    /// (the antipode of the plane's centre); past it the plane holds no
    /// place. A circle 10⁻⁷ of its radius inside unprojects to the small
    /// circle 5.7 km round that antipode: far enough that the unprojection,
    /// ill-conditioned at the rim, keeps the tips of neighbouring cells
    /// apart (at 10⁻⁹, 570 m, they crossed).
    static let rimRadius = 2 * PlaneProjection.authalicRadius * (1 - 1e-7)

    /// Whether a plane point lies within ``rimRadius``.
    @inline(__always) static func isOnTheSphere(_ p: PlanePoint) -> Bool {
        p.x * p.x + p.y * p.y <= rimRadius * rimRadius
    }

    /// ``densified(_:projection:)`` of a convex cell (corners in order
    /// round it) that reaches past the rim: the part within
    /// ``rimRadius``, its edges densified as ever up to where they meet
    /// that circle, and the circle between an edge's exit and the next
    /// one's entry followed every 2° of its angle. Once unprojected, the
    /// cell is a wedge whose tip is a short arc 5.7 km from the antipode
    /// (the rim it reached). Cuts on an edge two cells share are made from
    /// the edge's ends in a fixed order, so both cells get the same points.
    private static func onTheSphere(_ corners: [PlanePoint], projection: PlaneProjection) -> [PlanePoint] {
        var out: [PlanePoint] = []
        var exit: PlanePoint?
        var firstEntry: PlanePoint?
        func arrive(at entry: PlanePoint) {
            if let e = exit {
                out += arc(from: e, to: entry)
            } else if firstEntry == nil {
                firstEntry = entry
            }
            exit = nil
        }
        for i in corners.indices {
            let a = corners[i], b = corners[(i + 1) % corners.count]
            let ain = isOnTheSphere(a), bin = isOnTheSphere(b)
            let cuts = rimCrossings(a, b)
            switch (ain, bin) {
            case (true, true):
                out.append(a)
                out += interior(a, b, projection: projection)
            case (true, false):
                guard let c = cuts.last else { out.append(a); continue }
                out.append(a)
                out += interior(a, c, projection: projection)
                out.append(c)
                exit = c
            case (false, true):
                guard let c = cuts.first else { continue }
                arrive(at: c)
                out.append(c)
                out += interior(c, b, projection: projection)
            case (false, false):
                guard cuts.count == 2 else { continue }
                arrive(at: cuts[0])
                out.append(cuts[0])
                out += interior(cuts[0], cuts[1], projection: projection)
                out.append(cuts[1])
                exit = cuts[1]
            }
        }
        // The arc from the last exit round to the first entry closes the ring.
        if let e = exit, let f = firstEntry { out += arc(from: e, to: f) }
        return out
    }

    /// Where segment a–b meets the circle of ``rimRadius``, in order from
    /// a: none, one or two points (solved from the segment's ends in a
    /// fixed order, whichever way it is asked, so two cells agree).
    private static func rimCrossings(_ a: PlanePoint, _ b: PlanePoint) -> [PlanePoint] {
        let swap = (a.x, a.y) > (b.x, b.y)
        let (p, q) = swap ? (b, a) : (a, b)
        let dx = q.x - p.x, dy = q.y - p.y
        // |p + t d|² = r²: t² |d|² + 2 t p·d + |p|² − r² = 0.
        let aa = dx * dx + dy * dy, bb = p.x * dx + p.y * dy
        let cc = p.x * p.x + p.y * p.y - rimRadius * rimRadius
        let disc = bb * bb - aa * cc
        guard aa > 0, disc > 0 else { return [] }
        let root = disc.squareRoot()
        let ts = [(-bb - root) / aa, (-bb + root) / aa].filter { $0 > 0 && $0 < 1 }
        var points = ts.map { t in
            PlanePoint(x: p.x + dx * t, y: p.y + dy * t)
        }
        if swap { points.reverse() }
        return points
    }

    /// Points on the circle of ``rimRadius`` strictly between `e` and `n`
    /// (on it), counter-clockwise the short way, every 2° at most.
    private static func arc(from e: PlanePoint, to n: PlanePoint) -> [PlanePoint] {
        let from = atan2(e.y, e.x)
        var sweep = atan2(n.y, n.x) - from
        while sweep <= -Double.pi { sweep += 2 * Double.pi }
        while sweep > Double.pi { sweep -= 2 * Double.pi }
        let steps = Int((abs(sweep) / (Double.pi / 90)).rounded(.up))
        guard steps > 1 else { return [] }
        return (1..<steps).map { k in
            let angle = from + sweep * Double(k) / Double(steps)
            return PlanePoint(x: rimRadius * cos(angle), y: rimRadius * sin(angle))
        }
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
