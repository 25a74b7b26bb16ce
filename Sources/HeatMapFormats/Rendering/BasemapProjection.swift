import Foundation
import HeatMapContouring
import HeatMapCore
import HeatMapDensity

/// Basemap geometry in a picture's plane.
enum BasemapProjection {
    /// The lines in `projection`'s plane, cut where the projection tears:
    /// at the far hemisphere for the azimuthal equal-area projection, and
    /// at the seam opposite the centre meridian for the cylindrical ones.
    /// Planar projections take x = longitude, y = latitude as given. O(positions).
    package static func lines(_ lines: [[LocationCoordinate2D]], _ projection: PlaneProjection) -> [[PlanePoint]] {
        var out: [[PlanePoint]] = []
        let rad = Double.pi / 180
        let sinPhi0 = sin(projection.centreLatitude * rad), cosPhi0 = cos(projection.centreLatitude * rad)
        let projector = PointProjector(projection)
        for line in lines {
            var current: [PlanePoint] = []
            var previousOffset: Double?
            for c in line {
                let offset = LongitudeArc.normalized(c.longitude - projection.centreLongitude)
                var tear = false
                switch projection.kind {
                case .planar:
                    break
                case .equalArea:
                    let cosc = sinPhi0 * sin(c.latitude * rad) + cosPhi0 * cos(c.latitude * rad) * cos(offset * rad)
                    if cosc < 0 {
                        // Beyond the horizon: leave this vertex out and break the line.
                        if current.count > 1 { out.append(current) }
                        current = []
                        previousOffset = nil
                        continue
                    }
                case .equirectangular, .webMercator:
                    if let p = previousOffset, abs(offset - p) > 180 { tear = true }
                }
                if tear {
                    if current.count > 1 { out.append(current) }
                    current = []
                }
                current.append(projector.plane(latitude: c.latitude, longitude: c.longitude))
                previousOffset = offset
            }
            if current.count > 1 { out.append(current) }
        }
        return out
    }

    /// Rings in `projection`'s plane, each kept whole so it can be filled.
    /// Cylindrical projections unwrap a ring's longitudes from its first
    /// vertex, so a ring across the seam stays one shape (drawn just past
    /// the seam); the azimuthal projection leaves out rings that come
    /// within 20° of the antipode, where the map folds. O(positions).
    static func rings(_ rings: [[LocationCoordinate2D]], _ projection: PlaneProjection) -> [[PlanePoint]] {
        let rad = Double.pi / 180
        let sinPhi0 = sin(projection.centreLatitude * rad), cosPhi0 = cos(projection.centreLatitude * rad)
        let nearAntipode = cos(160 * rad)
        let projector = PointProjector(projection)
        // x grows linearly with the longitude offset in both cylindrical projections.
        let period =
            4
            * projection.project(
                latitude: projection.centreLatitude,
                longitude: projection.centreLongitude + 90
            ).x
        var out: [[PlanePoint]] = []
        out.reserveCapacity(rings.count)
        ringLoop: for ring in rings where ring.count >= 3 {
            var points: [PlanePoint] = []
            points.reserveCapacity(ring.count)
            switch projection.kind {
            case .planar:
                for c in ring { points.append(projector.plane(latitude: c.latitude, longitude: c.longitude)) }
            case .equalArea:
                for c in ring {
                    let offset = LongitudeArc.normalized(c.longitude - projection.centreLongitude)
                    let cosc = sinPhi0 * sin(c.latitude * rad) + cosPhi0 * cos(c.latitude * rad) * cos(offset * rad)
                    if cosc < nearAntipode { continue ringLoop }
                    points.append(projector.plane(latitude: c.latitude, longitude: c.longitude))
                }
            case .equirectangular, .webMercator:
                var unwrapped = LongitudeArc.normalized(ring[0].longitude - projection.centreLongitude)
                var previous = ring[0].longitude
                for c in ring {
                    unwrapped += LongitudeArc.normalized(c.longitude - previous)
                    previous = c.longitude
                    var p = projector.plane(latitude: c.latitude, longitude: c.longitude)
                    let normal = LongitudeArc.normalized(c.longitude - projection.centreLongitude)
                    let turns = ((unwrapped - normal) / 360).rounded()
                    if turns != 0 { p.x += turns * period }
                    points.append(p)
                }
            }
            out.append(points)
        }
        return out
    }
}
