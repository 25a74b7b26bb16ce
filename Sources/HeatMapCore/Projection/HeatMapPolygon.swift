import Foundation

/// One contour polygon: the region of a band (or level), with its holes.
///
/// Coordinates are geographic (latitude/longitude in degrees; planar x/y
/// for `.planar`), open rings (the last vertex joins the first), exterior
/// counter-clockwise and holes clockwise. Equal by ``id``.
public struct HeatMapPolygon: Sendable, Identifiable, Equatable {
    /// Two polygons are equal when their ids are.
    public static func == (lhs: HeatMapPolygon, rhs: HeatMapPolygon) -> Bool { lhs.id == rhs.id }

    /// The polygon's identity; deterministic, derived from its level and geometry.
    public let id: UUID
    /// Level index, 0 for the lowest threshold.
    public let level: Int
    /// The lower bound of the value inside (density units of the result).
    public let threshold: Double
    /// The exterior ring.
    public let coordinates: [LocationCoordinate2D]
    /// The holes: regions of the next level up, or dips below this level.
    public let interiorPolygons: [[LocationCoordinate2D]]

    /// Whether longitudes are degrees that may be unwrapped across ±180°
    /// (false for planar x/y).
    package let isGeographic: Bool

    /// Creates a polygon.
    public init(
        id: UUID, level: Int, threshold: Double, coordinates: [LocationCoordinate2D],
        interiorPolygons: [[LocationCoordinate2D]] = []
    ) {
        self.init(
            id: id, level: level, threshold: threshold, coordinates: coordinates,
            interiorPolygons: interiorPolygons, isGeographic: true)
    }

    package init(
        id: UUID, level: Int, threshold: Double, coordinates: [LocationCoordinate2D],
        interiorPolygons: [[LocationCoordinate2D]], isGeographic: Bool
    ) {
        self.id = id
        self.level = level
        self.threshold = threshold
        self.coordinates = coordinates
        self.interiorPolygons = interiorPolygons
        self.isGeographic = isGeographic
    }

    /// Whether `coordinate` lies inside the exterior and outside every hole
    /// (points on the exterior count as inside, points on a hole's edge as
    /// outside, so that neighbouring bands never both claim a point). The
    /// test is made in longitude/latitude, with longitudes unwrapped to the
    /// ring's side of ±180° (geographic polygons only); a ring round a pole
    /// (its longitudes go once round the globe) is closed over that pole,
    /// so the places poleward of it are inside it. No polygon contains a
    /// NaN, or a latitude past a pole (geographic polygons). O(vertices).
    public func contains(_ coordinate: LocationCoordinate2D) -> Bool {
        guard coordinate.latitude.isFinite, coordinate.longitude.isFinite,
            !isGeographic || !PointRule.isOutside(latitude: coordinate.latitude)
        else { return false }
        guard let outer = ring(coordinates, exterior: true), outer.locate(coordinate) >= 0 else { return false }
        for hole in interiorPolygons {
            if let ring = ring(hole, exterior: false), ring.locate(coordinate) >= 0 { return false }
        }
        return true
    }

    /// A ring as the point test takes it: its positions, closed over the
    /// pole it goes round (if any), and the longitude the query's is
    /// unwrapped near.
    private struct TestRing {
        var points: [PlanePoint]
        var middle: Double
        var isGeographic: Bool

        func locate(_ c: LocationCoordinate2D) -> Int {
            let x = isGeographic ? HeatMapPolygon.unwrap(c.longitude, near: middle) : c.longitude
            return PlaneRing.locate(PlanePoint(x: x, y: c.latitude), in: points)
        }
    }

    /// `positions` as a ``TestRing``, each step taken the short way round
    /// (a ring may jump a turn where it meets the plane's seam); nil when
    /// empty. A ring whose steps go once round the globe goes round a pole:
    /// an exterior going east (counter-clockwise) holds the north pole, one
    /// going west the south pole; a hole, running the other way, the same.
    private func ring(_ positions: [LocationCoordinate2D], exterior: Bool) -> TestRing? {
        guard let first = positions.first else { return nil }
        guard isGeographic else {
            return TestRing(
                points: positions.map { PlanePoint(x: $0.longitude, y: $0.latitude) }, middle: 0,
                isGeographic: false)
        }
        var points: [PlanePoint] = []
        points.reserveCapacity(positions.count + 3)
        var x = first.longitude
        for c in positions {
            x = HeatMapPolygon.unwrap(c.longitude, near: x)
            points.append(PlanePoint(x: x, y: c.latitude))
        }
        // The closing step the short way; the longitude the ring travels in all.
        let end = HeatMapPolygon.unwrap(first.longitude, near: x)
        let travelled = end - first.longitude
        guard abs(travelled) > 180 else {
            return TestRing(points: points, middle: first.longitude, isGeographic: true)
        }
        let pole = (travelled > 0) == exterior ? 90.0 : -90.0
        points += [
            PlanePoint(x: end, y: first.latitude), PlanePoint(x: end, y: pole),
            PlanePoint(x: first.longitude, y: pole)
        ]
        return TestRing(points: points, middle: first.longitude + travelled / 2, isGeographic: true)
    }

    static func unwrap(_ longitude: Double, near reference: Double) -> Double {
        var l = longitude
        // Far turns off are taken off at once: a step of 360 is lost in
        // the rounding of a longitude of 1e20, so stepping would not end.
        if abs(l - reference) > 3600 { l = reference + fmod(l - reference, 360) }
        while l - reference > 180 { l -= 360 }
        while reference - l > 180 { l += 360 }
        return l
    }
}
