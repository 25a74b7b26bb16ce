import Foundation

/// A projection fitted to one data set: the kind, and the centre it is
/// taken about. Maps coordinates to the plane and back; O(1) per point.
public struct PlaneProjection: Sendable, Hashable, Codable {
    /// The kind of projection.
    public var kind: MapProjection
    /// Centre latitude in degrees (unused for `.planar`).
    public var centreLatitude: Double
    /// Centre longitude in degrees in [-180, 180) (unused for `.planar`).
    public var centreLongitude: Double

    /// Radius of the sphere with the WGS 84 ellipsoid's area (metres), for
    /// equal-area and equirectangular.
    public static let authalicRadius = AuthalicSphere.radius
    /// The sphere radius of web mercator (EPSG:3857).
    public static let mercatorRadius = 6_378_137.0
    /// Web mercator's latitude limit in degrees.
    public static let mercatorLatitudeLimit = 85.051_128_779_806_59

    /// Creates a projection about the given centre.
    public init(kind: MapProjection, centreLatitude: Double = 0, centreLongitude: Double = 0) {
        self.kind = kind
        self.centreLatitude = centreLatitude
        self.centreLongitude = LongitudeArc.normalized(centreLongitude)
    }

    /// A projection of `kind` centred on the coordinates: the middle of the
    /// smallest longitude arc holding them (`LongitudeArc.smallest(containing:)`)
    /// and the middle of their latitudes. Non-finite coordinates are passed over. O(n).
    public static func fitted<S: Sequence>(_ kind: MapProjection, to coordinates: S) -> PlaneProjection
    where S.Element == LocationCoordinate2D {
        guard kind != .planar else { return PlaneProjection(kind: .planar) }
        var lo = Double.infinity, hi = -Double.infinity
        var bins = LongitudeBins()
        for c in coordinates where c.latitude.isFinite && c.longitude.isFinite {
            lo = min(lo, c.latitude); hi = max(hi, c.latitude)
            bins.add(c.longitude)
        }
        return centred(kind, latitudes: lo, hi, arc: bins.smallestArc())
    }

    /// The projection of `kind` about the middle of the latitudes `lo`…`hi`
    /// and of `arc`: how every fitted projection is centred. Centred on
    /// (0, 0) when there are no points (no arc, `lo` > `hi`).
    package static func centred(_ kind: MapProjection, latitudes lo: Double, _ hi: Double, arc: LongitudeArc?)
        -> PlaneProjection
    {
        guard kind != .planar else { return PlaneProjection(kind: .planar) }
        guard let arc, lo <= hi else { return PlaneProjection(kind: kind) }
        return PlaneProjection(kind: kind, centreLatitude: (lo + hi) / 2, centreLongitude: arc.centre)
    }

    /// Whether coordinates are degrees (false for `.planar`).
    public var isGeographic: Bool { kind != .planar }

    /// How many square plane units make one unit of reported area:
    /// 1e6 (m² per km²) for geographic projections, 1 for planar.
    public var areaUnitScale: Double { isGeographic ? 1e6 : 1 }

    /// The unit of density values, e.g. "per km²".
    public var densityUnits: String { isGeographic ? "per km²" : "per square unit" }

    /// Projects a coordinate to the plane.
    public func project(_ c: LocationCoordinate2D) -> PlanePoint {
        project(latitude: c.latitude, longitude: c.longitude)
    }

    /// Projects latitude/longitude in degrees to the plane. For many
    /// points, `PointProjector` keeps the centre's sines. O(1).
    public func project(latitude: Double, longitude: Double) -> PlanePoint {
        PointProjector(self).plane(latitude: latitude, longitude: longitude)
    }

    /// Whether the projection maps `c` to a place: both numbers finite and,
    /// for a geographic projection, the latitude in [-90, 90] (inside
    /// ±``mercatorLatitudeLimit`` for web mercator, which maps no place
    /// past it). Any finite longitude is a place (taken modulo 360°);
    /// planar projections take any finite pair. The coordinate queries
    /// answer "nothing there" for a coordinate this refuses. O(1).
    public func maps(_ c: LocationCoordinate2D) -> Bool {
        guard c.latitude.isFinite, c.longitude.isFinite else { return false }
        switch kind {
        case .planar: return true
        case .webMercator: return abs(c.latitude) < Self.mercatorLatitudeLimit
        case .equalArea, .equirectangular: return !PointRule.isOutside(latitude: c.latitude)
        }
    }

    /// Maps a plane point back to a coordinate. Longitudes come back in
    /// centre ± 180°, not wrapped: callers that need [-180, 180] wrap (and
    /// split geometry at the antimeridian) themselves.
    public func unproject(_ p: PlanePoint) -> LocationCoordinate2D {
        Unprojection(self).coordinate(p)
    }
}

/// ``PlaneProjection/unproject(_:)`` with the centre's sines and cosines
/// worked out once, for unprojecting many points (the same values, bit for
/// bit: each is computed by the same expression, only not again per point).
package struct Unprojection: Sendable {
    package let kind: MapProjection
    package let centreLatitude: Double, centreLongitude: Double
    let cosLatitude: Double
    package let equalArea: EqualAreaInverse

    package init(_ projection: PlaneProjection) {
        let deg = 180 / Double.pi
        kind = projection.kind
        centreLatitude = projection.centreLatitude
        centreLongitude = projection.centreLongitude
        let phi0 = projection.centreLatitude / deg
        let cosPhi0 = cos(phi0)
        cosLatitude = max(cosPhi0, 1e-12)
        equalArea = EqualAreaInverse(
            centreLatitude: centreLatitude, centreLongitude: centreLongitude,
            sinPhi0: sin(phi0), cosPhi0: cosPhi0)
    }

    /// Hands `body` each point's index and ``coordinate(_:)``, in order,
    /// the same bits as point by point, only batched where that pays
    /// (equal-area: see ``EqualAreaInverse``). O(n).
    @inline(__always) package func forEachCoordinate(
        _ plane: UnsafeBufferPointer<PlanePoint>,
        _ body: (Int, LocationCoordinate2D) -> Void
    ) {
        if kind == .equalArea { return equalArea.forEachCoordinate(plane, body) }
        for (i, p) in plane.enumerated() { body(i, coordinate(p)) }
    }

    /// Points `plane[i]` to `out[i]` as (longitude, latitude), x/y for
    /// planar. O(n).
    package func lonLat(_ plane: UnsafeBufferPointer<PlanePoint>, into out: UnsafeMutablePointer<PlanePoint>) {
        forEachCoordinate(plane) { i, c in out[i] = PlanePoint(x: c.longitude, y: c.latitude) }
    }

    /// One plane point's coordinate (longitude in centre ± 180°, not
    /// wrapped). O(1).
    @inline(__always) package func coordinate(_ p: PlanePoint) -> LocationCoordinate2D {
        let deg = 180 / Double.pi
        switch kind {
        case .planar:
            return LocationCoordinate2D(latitude: p.y, longitude: p.x)
        case .equalArea:
            return equalArea.coordinate(p)
        case .equirectangular:
            let r = PlaneProjection.authalicRadius
            return LocationCoordinate2D(
                latitude: centreLatitude + p.y / r * deg,
                longitude: centreLongitude + p.x / (r * cosLatitude) * deg)
        case .webMercator:
            let r = PlaneProjection.mercatorRadius
            // 2·atan(e^v) − π/2 = 2·atan((e^v − 1)/(e^v + 1)), without
            // the subtraction's cancellation near the equator.
            let m = expm1(p.y / r)
            let lat = ArcTangent.twice(m, over: m + 2) * deg
            return LocationCoordinate2D(latitude: lat, longitude: centreLongitude + p.x / r * deg)
        }
    }
}
