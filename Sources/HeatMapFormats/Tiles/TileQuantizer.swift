import HeatMapContouring
import HeatMapCore
import HeatMapDensity

/// Contour rings and lines rounded to a tile's integer grid, kept valid:
/// rounding can make neighbouring vertices equal, fold a thin spike onto
/// itself or collapse a ring to a line; those are removed, and a ring whose
/// winding no longer matches its role (exterior positive, hole negative, as
/// MVT 2.1 reads the surveyor's formula with y down) is dropped.
enum TileQuantizer {
    /// A ring rounded, without its closing vertex: nil when fewer than
    /// three vertices or no area remain, or the sign of its area is not
    /// `exterior`'s (positive for exteriors). O(n).
    static func ring(_ ring: [PlanePoint], exterior: Bool) -> [TilePoint]? {
        var out: [TilePoint] = []
        out.reserveCapacity(ring.count)
        for p in ring { push(rounded(p), onto: &out) }
        // Close the ring: the end may fold back over its start.
        while out.count >= 2, out[out.count - 1] == out[0] { out.removeLast() }
        var changed = true
        while changed && out.count >= 3 {
            changed = false
            let n = out.count
            // The joint at the start and the one at the end.
            if isFold(out[n - 1], out[0], out[1]) {
                out.removeFirst()
                changed = true
            } else if isFold(out[n - 2], out[n - 1], out[0]) {
                out.removeLast()
                changed = true
            }
        }
        guard out.count >= 3 else { return nil }
        let area = doubleArea(out)
        guard exterior ? area > 0 : area < 0 else { return nil }
        return out
    }

    /// Bands rounded as the tile writes them: per level, per polygon, the
    /// exterior then the holes (``polygons(_:)``).
    typealias RoundedBands = [[[[TilePoint]]]]

    /// The polygons of one band as ``ring(_:exterior:)`` rounds them: each
    /// polygon's rounded exterior and the holes that survive it, a polygon
    /// whose exterior does not survive left out whole (as the tile writes
    /// them). O(n).
    static func polygons(_ polygons: [PlanePolygon]) -> [[[TilePoint]]] {
        polygons.compactMap { polygon in
            guard let exterior = ring(polygon.exterior, exterior: true) else { return nil }
            return [exterior] + polygon.holes.compactMap { ring($0, exterior: false) }
        }
    }

    /// Every band rounded (``polygons(_:)``), once for both the check and
    /// the writing. O(n).
    static func rounded(_ bands: [[PlanePolygon]]) -> RoundedBands { bands.map(polygons) }

    /// Whether every band stays valid once rounded: no ring touching or
    /// crossing itself or another, no hole out of its exterior, by OGC's
    /// rules as GEOS applies them, exactly on the integers. Rounding keeps
    /// the contours of the tile's own lattice valid (the level space keeps
    /// neighbouring boundaries a unit apart); a simplified line may pass
    /// within a unit of another boundary's vertex, which rounding can then
    /// put on the wrong side. About O(n log n) in vertices.
    static func roundsValid(_ bands: RoundedBands, control: ComputeControl) -> Bool {
        bands.allSatisfy { band in
            let rings = RingContactCheck.rings(
                ofPolygons: band.map { $0.map { $0.map { FixedPoint(x: Int64($0.x), y: Int64($0.y)) } } })
            return rings.isEmpty || RingContactCheck.offenders(rings, control: control).isEmpty
        }
    }

    /// A line rounded, repeated vertices dropped; nil with fewer than two. O(n).
    static func line(_ line: [PlanePoint]) -> [TilePoint]? {
        var out: [TilePoint] = []
        out.reserveCapacity(line.count)
        for p in line {
            let q = rounded(p)
            if out.last != q { out.append(q) }
        }
        return out.count >= 2 ? out : nil
    }

    /// Twice the signed area (surveyor's formula), exact in integers.
    static func doubleArea(_ ring: [TilePoint]) -> Int64 {
        var s: Int64 = 0
        var prev = ring[ring.count - 1]
        for p in ring {
            s += Int64(prev.x) * Int64(p.y) - Int64(p.x) * Int64(prev.y)
            prev = p
        }
        return s
    }

    @inline(__always) private static func rounded(_ p: PlanePoint) -> TilePoint {
        TilePoint(x: Int32(p.x.rounded()), y: Int32(p.y.rounded()))
    }

    /// Appends `q`, first undoing any fold it makes with the last two.
    private static func push(_ q: TilePoint, onto out: inout [TilePoint]) {
        if out.last == q { return }
        while out.count >= 2, isFold(out[out.count - 2], out[out.count - 1], q) {
            out.removeLast()
            if out.last == q { return }
        }
        out.append(q)
    }

    /// Whether b is a zero-width spike between a and c: the three on one
    /// line and the path turning back at b (or c equal to a).
    @inline(__always) private static func isFold(_ a: TilePoint, _ b: TilePoint, _ c: TilePoint) -> Bool {
        let abx = Int64(b.x) - Int64(a.x), aby = Int64(b.y) - Int64(a.y)
        let bcx = Int64(c.x) - Int64(b.x), bcy = Int64(c.y) - Int64(b.y)
        guard abx * bcy - aby * bcx == 0 else { return false }
        return abx * bcx + aby * bcy <= 0
    }
}
