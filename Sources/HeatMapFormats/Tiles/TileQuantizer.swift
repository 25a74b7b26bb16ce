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
