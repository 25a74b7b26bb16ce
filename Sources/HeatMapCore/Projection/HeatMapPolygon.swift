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
    /// ring's side of ±180° (geographic polygons only). O(vertices).
    public func contains(_ coordinate: LocationCoordinate2D) -> Bool {
        let ref = coordinates.first?.longitude ?? 0
        let x = isGeographic ? HeatMapPolygon.unwrap(coordinate.longitude, near: ref) : coordinate.longitude
        let p = PlanePoint(x: x, y: coordinate.latitude)
        let outer = coordinates.map { PlanePoint(x: $0.longitude, y: $0.latitude) }
        guard PlaneRing.locate(p, in: outer) >= 0 else { return false }
        for hole in interiorPolygons {
            if PlaneRing.locate(p, in: hole.map { PlanePoint(x: $0.longitude, y: $0.latitude) }) >= 0 { return false }
        }
        return true
    }

    static func unwrap(_ longitude: Double, near reference: Double) -> Double {
        var l = longitude
        while l - reference > 180 { l -= 360 }
        while reference - l > 180 { l += 360 }
        return l
    }
}
