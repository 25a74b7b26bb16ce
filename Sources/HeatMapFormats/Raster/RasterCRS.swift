import Foundation
import HeatMapContouring
import HeatMapCore
import HeatMapDensity

/// The coordinate reference system of a raster's plane, as far as the
/// package writes and understands it.
///
/// The geographic projections of ``PlaneProjection`` work on a sphere, so
/// their CRSs are spherical too: GDAL and PROJ then invert the plane with
/// the same formulas the density was computed with (their datum is a sphere
/// with no datum shift, so latitudes and longitudes come back as given).
public enum RasterCRS: Sendable, Hashable, CustomStringConvertible {
    /// Lambert azimuthal equal-area on the authalic sphere (R = 6,371,007.181 m),
    /// centred at the given latitude and longitude (degrees), metres.
    case lambertAzimuthalEqualArea(centreLatitude: Double, centreLongitude: Double)
    /// Equidistant cylindrical on the authalic sphere with true scale at
    /// `centreLatitude`, origin at the centre: x = R·Δλ·cos φ₀, y = R·(φ − φ₀).
    case equirectangular(centreLatitude: Double, centreLongitude: Double)
    /// Spherical web mercator (R = 6,378,137 m) with its central meridian
    /// at `centreLongitude`: EPSG:3857 shifted east by R·λ₀.
    case webMercator(centreLongitude: Double)
    /// A CRS named by its EPSG code (4326, 3857, a UTM zone, or one a user gave).
    case epsg(Int)

    /// The CRS of a projection's plane, nil for `.planar` (the caller knows
    /// what planar x/y are, if anyone does). Web mercator is EPSG:3857 with
    /// its central meridian at the data's centre (EPSG:3857 when that is 0).
    public static func of(_ projection: PlaneProjection) -> RasterCRS? {
        switch projection.kind {
        case .equalArea:
            return .lambertAzimuthalEqualArea(
                centreLatitude: projection.centreLatitude,
                centreLongitude: projection.centreLongitude)
        case .equirectangular:
            return .equirectangular(
                centreLatitude: projection.centreLatitude,
                centreLongitude: projection.centreLongitude)
        case .webMercator:
            return projection.centreLongitude == 0
                ? .epsg(3857) : .webMercator(centreLongitude: projection.centreLongitude)
        case .planar: return nil
        }
    }

    /// The CRS with an EPSG code where one says the same, and how far east
    /// of this CRS's x the returned one's lies: a web mercator centred on
    /// λ₀ is EPSG:3857 with x + R·λ₀.
    public var withEPSGCode: (crs: RasterCRS, eastingOffset: Double) {
        if case .webMercator(let lon) = self { return (.epsg(3857), PlaneProjection.mercatorRadius * lon * .pi / 180) }
        return (self, 0)
    }

    /// Whether an EPSG code names a geographic (degrees) CRS: the 4001–4999
    /// block, where EPSG keeps its geographic 2D CRSs.
    public static func isGeographicCode(_ code: Int) -> Bool { (4001...4999).contains(code) }

    /// A PROJ string (`+proj=…`), or `EPSG:N`.
    public var proj: String {
        let r = GridEncoding.number(PlaneProjection.authalicRadius)
        switch self {
        case let .lambertAzimuthalEqualArea(lat, lon):
            return
                "+proj=laea +lat_0=\(GridEncoding.number(lat)) +lon_0=\(GridEncoding.number(lon)) +x_0=0 +y_0=0 +R=\(r) +units=m +no_defs"
        case let .equirectangular(lat, lon):
            return
                "+proj=eqc +lat_ts=\(GridEncoding.number(lat)) +lat_0=\(GridEncoding.number(lat)) +lon_0=\(GridEncoding.number(lon)) +x_0=0 +y_0=0 +R=\(r) +units=m +no_defs"
        case let .webMercator(lon):
            return
                "+proj=merc +a=6378137 +b=6378137 +lat_ts=0 +lon_0=\(GridEncoding.number(lon)) +x_0=0 +y_0=0 +k=1 +units=m +nadgrids=@null +wktext +no_defs"
        case let .epsg(code):
            return "EPSG:\(code)"
        }
    }

    /// WKT (OGC 1, as `.prj` files hold it), nil for an EPSG code this
    /// package has no definition of (GDAL finds those by code).
    public var wkt: String? {
        let r = GridEncoding.number(PlaneProjection.authalicRadius)
        let sphere =
            "GEOGCS[\"Authalic sphere\",DATUM[\"Authalic_sphere\",SPHEROID[\"Authalic sphere\",\(r),0]],PRIMEM[\"Greenwich\",0],UNIT[\"degree\",0.0174532925199433]]"
        switch self {
        case let .lambertAzimuthalEqualArea(lat, lon):
            return
                "PROJCS[\"Lambert azimuthal equal-area (HeatMap)\",\(sphere),PROJECTION[\"Lambert_Azimuthal_Equal_Area\"],"
                + "PARAMETER[\"latitude_of_center\",\(GridEncoding.number(lat))],PARAMETER[\"longitude_of_center\",\(GridEncoding.number(lon))],"
                + "PARAMETER[\"false_easting\",0],PARAMETER[\"false_northing\",0],UNIT[\"metre\",1]]"
        case let .equirectangular(lat, lon):
            return "PROJCS[\"Equirectangular (HeatMap)\",\(sphere),PROJECTION[\"Equirectangular\"],"
                + "PARAMETER[\"standard_parallel_1\",\(GridEncoding.number(lat))],PARAMETER[\"central_meridian\",\(GridEncoding.number(lon))],"
                + "PARAMETER[\"false_easting\",0],PARAMETER[\"false_northing\",\(GridEncoding.number(-PlaneProjection.authalicRadius * lat * .pi / 180))],UNIT[\"metre\",1]]"
        case let .webMercator(lon):
            return
                "PROJCS[\"Web mercator (HeatMap)\",GEOGCS[\"WGS 84\",DATUM[\"WGS_1984\",SPHEROID[\"WGS 84\",6378137,298.257223563]],PRIMEM[\"Greenwich\",0],UNIT[\"degree\",0.0174532925199433]],"
                + "PROJECTION[\"Mercator_1SP\"],PARAMETER[\"central_meridian\",\(GridEncoding.number(lon))],PARAMETER[\"scale_factor\",1],PARAMETER[\"false_easting\",0],PARAMETER[\"false_northing\",0],"
                + "UNIT[\"metre\",1],EXTENSION[\"PROJ4\",\"\(proj)\"]]"
        case .epsg(4326):
            return
                "GEOGCS[\"WGS 84\",DATUM[\"WGS_1984\",SPHEROID[\"WGS 84\",6378137,298.257223563]],PRIMEM[\"Greenwich\",0],UNIT[\"degree\",0.0174532925199433],AUTHORITY[\"EPSG\",\"4326\"]]"
        case .epsg(3857):
            return
                "PROJCS[\"WGS 84 / Pseudo-Mercator\",GEOGCS[\"WGS 84\",DATUM[\"WGS_1984\",SPHEROID[\"WGS 84\",6378137,298.257223563]],PRIMEM[\"Greenwich\",0],UNIT[\"degree\",0.0174532925199433]],"
                + "PROJECTION[\"Mercator_1SP\"],PARAMETER[\"central_meridian\",0],PARAMETER[\"scale_factor\",1],PARAMETER[\"false_easting\",0],PARAMETER[\"false_northing\",0],"
                + "UNIT[\"metre\",1],EXTENSION[\"PROJ4\",\"+proj=merc +a=6378137 +b=6378137 +lat_ts=0 +lon_0=0 +x_0=0 +y_0=0 +k=1 +units=m +nadgrids=@null +wktext +no_defs\"],AUTHORITY[\"EPSG\",\"3857\"]]"
        case .epsg:
            return nil
        }
    }

    public var description: String {
        switch self {
        case .epsg(let code): return "EPSG:\(code)"
        default: return proj
        }
    }
}
