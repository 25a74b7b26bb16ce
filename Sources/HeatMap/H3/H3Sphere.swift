import Foundation

/// Spherical geometry in radians, computed step for step as the reference
/// computes it (the same roundings give the same cells).
enum H3Sphere {
    /// An angle in [0, 2π).
    @inline(__always) static func positiveAngle(_ rads: Double) -> Double {
        var t = rads < 0 ? rads + H3Constants.twoPi : rads
        if rads >= H3Constants.twoPi { t = t - H3Constants.twoPi }
        return t
    }

    /// Azimuth from p1 to p2.
    @inline(__always) static func azimuth(from p1: (lat: Double, lon: Double), to p2: (lat: Double, lon: Double)) -> Double {
        atan2(cos(p2.lat) * sin(p2.lon - p1.lon),
              cos(p1.lat) * sin(p2.lat) - sin(p1.lat) * cos(p2.lat) * cos(p2.lon - p1.lon))
    }

    /// A longitude brought into [−π, π].
    @inline(__always) static func constrainLongitude(_ lon: Double) -> Double {
        var l = lon
        while l > .pi { l -= 2 * .pi }
        while l < -.pi { l += 2 * .pi }
        return l
    }

    /// The point at a distance (radians) and azimuth from p1.
    static func destination(from p1: (lat: Double, lon: Double), azimuth az0: Double, distance: Double) -> (lat: Double, lon: Double) {
        if distance < H3Constants.epsilon { return p1 }
        let az = positiveAngle(az0)
        let eps = H3Constants.epsilon
        var lat: Double, lon: Double
        if az < eps || abs(az - .pi) < eps {
            lat = az < eps ? p1.lat + distance : p1.lat - distance
            if abs(lat - .pi / 2) < eps { return (.pi / 2, 0) }
            if abs(lat + .pi / 2) < eps { return (-.pi / 2, 0) }
            lon = constrainLongitude(p1.lon)
        } else {
            var sinLat = sin(p1.lat) * cos(distance) + cos(p1.lat) * sin(distance) * cos(az)
            sinLat = min(1, max(-1, sinLat))
            lat = asin(sinLat)
            if abs(lat - .pi / 2) < eps { return (.pi / 2, 0) }
            if abs(lat + .pi / 2) < eps { return (-.pi / 2, 0) }
            var sinLon = sin(az) * sin(distance) / cos(lat)
            var cosLon = (cos(distance) - sin(p1.lat) * sin(lat)) / cos(p1.lat) / cos(lat)
            sinLon = min(1, max(-1, sinLon))
            cosLon = min(1, max(-1, cosLon))
            lon = constrainLongitude(p1.lon + atan2(sinLon, cosLon))
        }
        return (lat, lon)
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
