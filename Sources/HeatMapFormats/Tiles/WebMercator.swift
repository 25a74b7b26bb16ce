import Foundation
import HeatMapContouring
import HeatMapCore
import HeatMapDensity

/// Web Mercator as tiles use it: world coordinates u (east) and v (south)
/// in 0...1 over the square of latitudes ±85.05°, a zoom-z tile 1/2^z of
/// it. Longitudes outside ±180° give u outside 0...1 (continuous across
/// the antimeridian); the tile column wraps when stored.
enum WebMercator {
    static let latitudeLimit = PlaneProjection.mercatorLatitudeLimit
    /// The equator's length on the Web Mercator sphere, metres.
    static let circumference = 2 * Double.pi * PlaneProjection.mercatorRadius

    @inline(__always) static func u(longitude: Double) -> Double { (longitude + 180) / 360 }

    @inline(__always) static func v(latitude: Double) -> Double {
        let phi = min(max(latitude, -latitudeLimit), latitudeLimit) * .pi / 180
        return 0.5 - asinh(tan(phi)) / (2 * .pi)
    }

    @inline(__always) static func longitude(u: Double) -> Double { u * 360 - 180 }

    @inline(__always) static func latitude(v: Double) -> Double {
        atan(sinh(.pi * (1 - 2 * v))) * 180 / .pi
    }

    /// World units per metre on the ground at `latitude` (the scale
    /// grows as 1/cos φ away from the equator).
    static func unitsPerMetre(latitude: Double) -> Double {
        1 / (circumference * max(cos(min(abs(latitude), latitudeLimit) * .pi / 180), 1e-9))
    }
}
