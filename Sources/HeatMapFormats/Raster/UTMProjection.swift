import Foundation
import HeatMapContouring
import HeatMapCore
import HeatMapDensity

/// Universal Transverse Mercator on WGS 84 (EPSG:326zz north, 327zz
/// south), by Krüger's series in n to the fourth order (Karney 2011),
/// which is accurate to well under a millimetre within a zone.
struct UTMProjection: Sendable, Hashable {
    /// Zone 1...60.
    let zone: Int
    /// Whether the zone is the southern one (false northing 10,000 km).
    package let south: Bool

    package static let a = 6_378_137.0, f = 1 / 298.257_223_563, k0 = 0.9996
    package static let n = f / (2 - f)
    static let meridianRadius: Double = {
        let n2 = n * n
        return a / (1 + n) * (1 + n2 / 4 + n2 * n2 / 64)
    }()
    static let alpha: [Double] = {
        let n2 = n * n, n3 = n2 * n, n4 = n3 * n
        return [
            n / 2 - 2 * n2 / 3 + 5 * n3 / 16 + 41 * n4 / 180,
            13 * n2 / 48 - 3 * n3 / 5 + 557 * n4 / 1440,
            61 * n3 / 240 - 103 * n4 / 140,
            49561 * n4 / 161280
        ]
    }()
    static let beta: [Double] = {
        let n2 = n * n, n3 = n2 * n, n4 = n3 * n
        return [
            n / 2 - 2 * n2 / 3 + 37 * n3 / 96 - n4 / 360,
            n2 / 48 + n3 / 15 - 437 * n4 / 1440,
            17 * n3 / 480 - 37 * n4 / 840,
            4397 * n4 / 161280
        ]
    }()
    static let delta: [Double] = {
        let n2 = n * n, n3 = n2 * n, n4 = n3 * n
        return [
            2 * n - 2 * n2 / 3 - 2 * n3 + 116 * n4 / 45,
            7 * n2 / 3 - 8 * n3 / 5 - 227 * n4 / 45,
            56 * n3 / 15 - 136 * n4 / 35,
            4279 * n4 / 630
        ]
    }()

    /// The zone of an EPSG code, nil unless it is 32601–32660 or 32701–32760.
    package init?(epsg: Int) {
        let z = epsg % 100
        guard (32601...32660).contains(epsg) || (32701...32760).contains(epsg), z >= 1 else { return nil }
        zone = z
        south = epsg >= 32701
    }

    /// The central meridian in degrees.
    var centralMeridian: Double { Double(6 * zone - 183) }

    /// Easting and northing (metres) of a WGS 84 latitude and longitude (degrees).
    func forward(latitude: Double, longitude: Double) -> PlanePoint {
        let rad = Double.pi / 180, n = UTMProjection.n
        let phi = latitude * rad, dl = (longitude - centralMeridian) * rad
        let e = 2 * n.squareRoot() / (1 + n)
        let t = sinh(atanh(sin(phi)) - e * atanh(e * sin(phi)))
        let xi = atan2(t, cos(dl)), eta = atanh(sin(dl) / (1 + t * t).squareRoot())
        var x = eta, y = xi
        for (j, a) in UTMProjection.alpha.enumerated() {
            let k = 2 * Double(j + 1)
            x += a * cos(k * xi) * sinh(k * eta)
            y += a * sin(k * xi) * cosh(k * eta)
        }
        let s = UTMProjection.k0 * UTMProjection.meridianRadius
        return PlanePoint(x: 500_000 + s * x, y: (south ? 10_000_000 : 0) + s * y)
    }

    /// WGS 84 latitude and longitude (degrees) of an easting and northing.
    func inverse(_ p: PlanePoint) -> LocationCoordinate2D {
        let s = UTMProjection.k0 * UTMProjection.meridianRadius
        let xi = (p.y - (south ? 10_000_000 : 0)) / s, eta = (p.x - 500_000) / s
        var xi1 = xi, eta1 = eta
        for (j, b) in UTMProjection.beta.enumerated() {
            let k = 2 * Double(j + 1)
            xi1 -= b * sin(k * xi) * cosh(k * eta)
            eta1 -= b * cos(k * xi) * sinh(k * eta)
        }
        let chi = asin(min(max(sin(xi1) / cosh(eta1), -1), 1))
        var phi = chi
        for (j, d) in UTMProjection.delta.enumerated() { phi += d * sin(2 * Double(j + 1) * chi) }
        let deg = 180 / Double.pi
        return LocationCoordinate2D(latitude: phi * deg, longitude: centralMeridian + atan2(sinh(eta1), cos(xi1)) * deg)
    }
}
