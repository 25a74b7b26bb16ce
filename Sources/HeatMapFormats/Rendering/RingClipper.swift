import Foundation
import HeatMapContouring
import HeatMapCore
import HeatMapDensity

/// Cuts a ring to a box for filling (Sutherland–Hodgman against the four
/// sides). A ring that leaves and re-enters the box comes back as one ring
/// with edges along the box's border, which fill nothing extra under the
/// even-odd rule; so each ring can be clipped on its own.
enum RingClipper {
    /// The part of `ring` inside `box`: the ring itself when it lies
    /// inside, nothing when its bounds miss the box. O(points).
    package static func clip(_ ring: [PlanePoint], to box: PlaneBox) -> [PlanePoint] {
        var bounds = PlaneBox.empty
        for p in ring { bounds.formUnion(p) }
        if bounds.isEmpty || bounds.maxX < box.minX || bounds.minX > box.maxX
            || bounds.maxY < box.minY || bounds.minY > box.maxY
        {
            return []
        }
        if bounds.minX >= box.minX, bounds.maxX <= box.maxX, bounds.minY >= box.minY, bounds.maxY <= box.maxY {
            return ring
        }
        var points = ring
        points = cut(points, inside: { $0.x >= box.minX }, cross: { a, b in along(a, b, x: box.minX) })
        points = cut(points, inside: { $0.x <= box.maxX }, cross: { a, b in along(a, b, x: box.maxX) })
        points = cut(points, inside: { $0.y >= box.minY }, cross: { a, b in along(a, b, y: box.minY) })
        points = cut(points, inside: { $0.y <= box.maxY }, cross: { a, b in along(a, b, y: box.maxY) })
        return points.count >= 3 ? points : []
    }

    /// One Sutherland–Hodgman pass against a half-plane.
    private static func cut(
        _ ring: [PlanePoint], inside: (PlanePoint) -> Bool,
        cross: (PlanePoint, PlanePoint) -> PlanePoint
    ) -> [PlanePoint] {
        guard let last = ring.last else { return [] }
        var out: [PlanePoint] = []
        out.reserveCapacity(ring.count + 4)
        var previous = last, previousInside = inside(last)
        for p in ring {
            let pInside = inside(p)
            if pInside != previousInside { out.append(cross(previous, p)) }
            if pInside { out.append(p) }
            previous = p
            previousInside = pInside
        }
        return out
    }

    private static func along(_ a: PlanePoint, _ b: PlanePoint, x: Double) -> PlanePoint {
        let t = (x - a.x) / (b.x - a.x)
        return PlanePoint(x: x, y: a.y + t * (b.y - a.y))
    }

    private static func along(_ a: PlanePoint, _ b: PlanePoint, y: Double) -> PlanePoint {
        let t = (y - a.y) / (b.y - a.y)
        return PlanePoint(x: a.x + t * (b.x - a.x), y: y)
    }
}
