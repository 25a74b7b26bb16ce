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
    public static let authalicRadius = 6_371_007.181
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
    /// smallest longitude arc holding them and the middle of their latitudes.
    public static func fitted<S: Sequence>(_ kind: MapProjection, to coordinates: S) -> PlaneProjection
    where S.Element == LocationCoordinate2D {
        guard kind != .planar else { return PlaneProjection(kind: .planar) }
        var lo = Double.infinity, hi = -Double.infinity
        var longitudes: [Double] = []
        for c in coordinates {
            lo = min(lo, c.latitude); hi = max(hi, c.latitude)
            longitudes.append(c.longitude)
        }
        guard let arc = LongitudeArc.smallest(containing: longitudes), lo <= hi else {
            return PlaneProjection(kind: kind)
        }
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

    /// Projects latitude/longitude in degrees to the plane.
    public func project(latitude: Double, longitude: Double) -> PlanePoint {
        let rad = Double.pi / 180
        switch kind {
        case .planar:
            return PlanePoint(x: longitude, y: latitude)
        case .equalArea:
            let phi = latitude * rad, phi0 = centreLatitude * rad
            let dl = LongitudeArc.normalized(longitude - centreLongitude) * rad
            let cosc = sin(phi0) * sin(phi) + cos(phi0) * cos(phi) * cos(dl)
            // The antipode has no image; nudging keeps the map total.
            let k = (2 / max(1 + cosc, 1e-15)).squareRoot()
            let r = PlaneProjection.authalicRadius
            return PlanePoint(x: r * k * cos(phi) * sin(dl),
                              y: r * k * (cos(phi0) * sin(phi) - sin(phi0) * cos(phi) * cos(dl)))
        case .equirectangular:
            let r = PlaneProjection.authalicRadius
            let dl = LongitudeArc.normalized(longitude - centreLongitude) * rad
            return PlanePoint(x: r * dl * cos(centreLatitude * rad), y: r * (latitude - centreLatitude) * rad)
        case .webMercator:
            let r = PlaneProjection.mercatorRadius
            let lim = PlaneProjection.mercatorLatitudeLimit
            let phi = min(max(latitude, -lim), lim) * rad
            let dl = LongitudeArc.normalized(longitude - centreLongitude) * rad
            return PlanePoint(x: r * dl, y: r * log(tan(.pi / 4 + phi / 2)))
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
struct Unprojection: Sendable {
    let kind: MapProjection
    let centreLatitude: Double, centreLongitude: Double
    let sinPhi0: Double, cosPhi0: Double, cosLatitude: Double

    init(_ projection: PlaneProjection) {
        let deg = 180 / Double.pi
        kind = projection.kind
        centreLatitude = projection.centreLatitude
        centreLongitude = projection.centreLongitude
        let phi0 = projection.centreLatitude / deg
        sinPhi0 = sin(phi0)
        cosPhi0 = cos(phi0)
        cosLatitude = max(cos(projection.centreLatitude / deg), 1e-12)
    }

    @inline(__always) func coordinate(_ p: PlanePoint) -> LocationCoordinate2D {
        let deg = 180 / Double.pi
        switch kind {
        case .planar:
            return LocationCoordinate2D(latitude: p.y, longitude: p.x)
        case .equalArea:
            let r = PlaneProjection.authalicRadius
            let rho = (p.x * p.x + p.y * p.y).squareRoot()
            if rho < 1e-9 { return LocationCoordinate2D(latitude: centreLatitude, longitude: centreLongitude) }
            // c = 2 asin(s): its sine and cosine follow from s without
            // trigonometry (half the cost of unprojecting a point).
            let s = min(rho / (2 * r), 1)
            let sinC = 2 * s * (1 - s * s).squareRoot(), cosC = 1 - 2 * s * s
            let lat = asin(min(max(cosC * sinPhi0 + p.y * sinC * cosPhi0 / rho, -1), 1))
            let dl = atan2(p.x * sinC, rho * cosPhi0 * cosC - p.y * sinPhi0 * sinC)
            return LocationCoordinate2D(latitude: lat * deg, longitude: centreLongitude + dl * deg)
        case .equirectangular:
            let r = PlaneProjection.authalicRadius
            return LocationCoordinate2D(latitude: centreLatitude + p.y / r * deg,
                                        longitude: centreLongitude + p.x / (r * cosLatitude) * deg)
        case .webMercator:
            let r = PlaneProjection.mercatorRadius
            let lat = (2 * atan(exp(p.y / r)) - .pi / 2) * deg
            return LocationCoordinate2D(latitude: lat, longitude: centreLongitude + p.x / r * deg)
        }
    }
}
