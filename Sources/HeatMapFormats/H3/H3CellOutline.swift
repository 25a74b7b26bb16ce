import Foundation
import HeatMapContouring
import HeatMapCore
import HeatMapDensity

/// A cell's outline in continuous longitude/latitude (degrees), ready to be
/// split at ±180°: each edge densified along its great circle (an H3 edge is
/// straight in its face's gnomonic plane, which is a great-circle arc), so
/// that a point-in-polygon test in longitude/latitude agrees with the cell
/// assignment; a cell around a pole is closed along the pole's parallel.
enum H3CellOutline {
    /// The largest gap, degrees, between a densified edge and its great
    /// circle: well below the default 6-decimal output rounding.
    package static let tolerance = 1e-7
    /// Segments per edge at most.
    static let maximumSegments = 512

    static func ring(_ cell: H3Cell) -> [PlanePoint] {
        let verts = H3Boundary.vertices(of: cell.rawValue)
        var out: [PlanePoint] = []
        out.reserveCapacity(verts.count * 4)
        for i in verts.indices {
            let edge = densified(verts[i], verts[(i + 1) % verts.count])
            for p in edge.dropLast() {
                let lon = p.lon * 180 / .pi, lat = p.lat * 180 / .pi
                if let last = out.last {
                    out.append(PlanePoint(x: last.x + step(lon - LongitudeArc.normalized(last.x)), y: lat))
                } else {
                    out.append(PlanePoint(x: lon, y: lat))
                }
            }
        }
        guard let first = out.first, let last = out.last else { return out }
        // The way round: 0 for an ordinary cell, ±360 around a pole.
        let turn = (last.x + step(first.x - LongitudeArc.normalized(last.x))) - first.x
        if abs(turn) > 180 { return closedOverThePole(out, turn: turn) }
        return out
    }

    /// A ring round a pole (`turn` ±360: its last position runs into its
    /// first one turn on), closed over the pole along a seam
    /// (``LonLatGeometry/cappedOverPole(_:next:turn:pole:)``, as the
    /// contours' rings are), or along its first meridian if it crosses none.
    private static func closedOverThePole(_ ring: [PlanePoint], turn: Double) -> [PlanePoint] {
        let pole: Double = turn > 0 ? 90 : -90
        let next = PlanePoint(x: ring[0].x + turn, y: ring[0].y)
        return LonLatGeometry.cappedOverPole(ring, next: next, turn: turn, pole: pole)
            ?? ring + [next, PlanePoint(x: next.x, y: pole), PlanePoint(x: ring[0].x, y: pole)]
    }

    /// A longitude difference brought into (-180, 180].
    private static func step(_ d: Double) -> Double {
        var d = d
        while d > 180 { d -= 360 }
        while d <= -180 { d += 360 }
        return d
    }

    /// The points of the great-circle arc a → b (radians), a first and b
    /// last, evenly spaced and enough of them that the longitude/latitude
    /// chords stay within ``tolerance`` of the arc. Computed from the
    /// endpoints in a fixed order, so the two cells sharing an edge get the
    /// very same points.
    private static func densified(_ a: (lat: Double, lon: Double), _ b: (lat: Double, lon: Double)) -> [(
        lat: Double, lon: Double
    )] {
        let swap = (a.lat, a.lon) > (b.lat, b.lon)
        let (p, q) = swap ? (b, a) : (a, b)
        let u = H3Vector(lat: p.lat, lon: p.lon), v = H3Vector(lat: q.lat, lon: q.lon)
        let mid = H3Vector.combine(0.5, u, 0.5, v).normalized().geo
        var dLon = (q.lon - p.lon) * 180 / .pi
        while dLon > 180 { dLon -= 360 }
        while dLon <= -180 { dLon += 360 }
        var midLon = (mid.lon - p.lon) * 180 / .pi
        while midLon > 180 { midLon -= 360 }
        while midLon <= -180 { midLon += 360 }
        let gap = max(abs(midLon - dLon / 2), abs(mid.lat * 180 / .pi - (p.lat + q.lat) * 90 / .pi))
        // A chord's gap from its arc shrinks with the square of its length.
        let n = gap <= tolerance ? 1 : min(maximumSegments, Int((gap / tolerance).squareRoot().rounded(.up)))
        var points: [(lat: Double, lon: Double)] = [p]
        if n > 1 {
            let omega = acos(max(-1, min(1, u.dot(v))))
            let s = sin(omega)
            for k in 1..<n {
                let t = Double(k) / Double(n)
                let w =
                    s > 0
                    ? H3Vector.combine(sin((1 - t) * omega) / s, u, sin(t * omega) / s, v)
                    : H3Vector.combine(1 - t, u, t, v)
                points.append(w.normalized().geo)
            }
        }
        points.append(q)
        return swap ? points.reversed() : points
    }
}
