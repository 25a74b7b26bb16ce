import Foundation
import HeatMapContouring
import HeatMapCore
import HeatMapDensity

/// Angles and areas on the unit sphere (radians), computed step for step
/// as the reference computes them (the same roundings give the same results).
enum H3Sphere {
    /// An angle in [0, 2π).
    @inline(__always) static func positiveAngle(_ rads: Double) -> Double {
        var t = rads < 0 ? rads + H3Constants.twoPi : rads
        if rads >= H3Constants.twoPi { t = t - H3Constants.twoPi }
        return t
    }

    /// The area of a counter-clockwise spherical polygon (radians), unit
    /// sphere: per edge, the signed area between it and the south pole
    /// (Cagnoli's formula), summed with compensation.
    static func polygonArea(_ verts: [(lat: Double, lon: Double)]) -> Double {
        var sum = 0.0, carry = 0.0
        for i in verts.indices {
            let a = verts[i], b = verts[(i + 1) % verts.count]
            let la = a.lat / 2 + .pi / 4, lb = b.lat / 2 + .pi / 4
            let sa = sin(la) * sin(lb), ca = cos(la) * cos(lb)
            let d = b.lon - a.lon
            let term = -2 * atan2(sa * sin(d), sa * cos(d) + ca)
            let y = term - carry
            let t = sum + y
            carry = (t - sum) - y
            sum = t
        }
        if sum < 0 {
            let y = 4 * .pi - carry
            sum += y
        }
        return sum
    }
}
