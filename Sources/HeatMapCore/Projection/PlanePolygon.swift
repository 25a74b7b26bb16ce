import Foundation

/// A polygon in the projection plane. Rings are open (the last vertex is
/// not repeated) and have no repeated consecutive vertices; the exterior is
/// counter-clockwise and holes are clockwise (x east, y north).
public struct PlanePolygon: Sendable, Hashable {
    /// The outer ring.
    public var exterior: [PlanePoint]
    /// The holes, each inside the exterior.
    public var holes: [[PlanePoint]]

    /// Creates a polygon from its rings.
    public init(exterior: [PlanePoint], holes: [[PlanePoint]] = []) {
        self.exterior = exterior
        self.holes = holes
    }

    /// The bounding box of the exterior. O(vertices).
    public var bounds: PlaneBox {
        var box = PlaneBox.empty
        for p in exterior { box.formUnion(p) }
        return box
    }

    /// Area of the exterior minus the holes (square plane units). O(vertices).
    public var area: Double {
        holes.reduce(PlaneRing.signedArea(exterior)) { $0 + PlaneRing.signedArea($1) }
    }
}

/// Small helpers on open rings of plane points.
package enum PlaneRing {
    /// Shoelace area: positive for counter-clockwise rings. O(n).
    ///
    /// Taken about the first vertex, so that rings far from the origin
    /// (projected metres) keep their precision.
    package static func signedArea(_ ring: [PlanePoint]) -> Double {
        guard ring.count >= 3 else { return 0 }
        let o = ring[0]
        var s = 0.0
        var px = ring[ring.count - 1].x - o.x, py = ring[ring.count - 1].y - o.y
        for p in ring {
            let x = p.x - o.x, y = p.y - o.y
            s += px * y - x * py
            px = x; py = y
        }
        return s / 2
    }

    /// Where `p` lies against the ring: 1 inside, 0 on the boundary, −1
    /// outside (crossing number with an exact on-edge test). O(n).
    package static func locate(_ p: PlanePoint, in ring: [PlanePoint]) -> Int {
        guard ring.count >= 3 else { return -1 }
        var inside = false
        var j = ring.count - 1
        for i in 0..<ring.count {
            let a = ring[j], b = ring[i]
            // On-segment test first, so boundary points answer consistently.
            let cross = (b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x)
            if cross == 0,
                p.x >= min(a.x, b.x), p.x <= max(a.x, b.x),
                p.y >= min(a.y, b.y), p.y <= max(a.y, b.y)
            {
                return 0
            }
            if (b.y > p.y) != (a.y > p.y) {
                let x = a.x + (p.y - a.y) * (b.x - a.x) / (b.y - a.y)
                if p.x < x { inside.toggle() }
            }
            j = i
        }
        return inside ? 1 : -1
    }
}
