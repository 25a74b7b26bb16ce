import Foundation
import HeatMapContouring
import HeatMapCore
import HeatMapDensity

/// A point or direction in 3-D; unit vectors are points on the sphere.
/// The reference works on the sphere in these (since h3 4.5), so the
/// operations keep its order of evaluation.
struct H3Vector: Sendable {
    package var x: Double
    package var y: Double
    var z: Double

    @inline(__always) package init(x: Double, y: Double, z: Double) {
        self.x = x
        self.y = y
        self.z = z
    }

    /// The unit vector of a latitude/longitude in radians.
    @inline(__always) package init(lat: Double, lon: Double) {
        let r = cos(lat)
        z = sin(lat)
        x = cos(lon) * r
        y = sin(lon) * r
    }

    /// Latitude and longitude in radians.
    @inline(__always) package var geo: (lat: Double, lon: Double) { (asin(z), atan2(y, x)) }

    @inline(__always) func dot(_ o: H3Vector) -> Double { x * o.x + y * o.y + z * o.z }

    @inline(__always) func cross(_ o: H3Vector) -> H3Vector {
        H3Vector(x: y * o.z - z * o.y, y: z * o.x - x * o.z, z: x * o.y - y * o.x)
    }

    @inline(__always) func squaredDistance(_ o: H3Vector) -> Double {
        let dx = x - o.x, dy = y - o.y, dz = z - o.z
        return dx * dx + dy * dy + dz * dz
    }

    /// a·u + b·v.
    @inline(__always) static func combine(_ a: Double, _ u: H3Vector, _ b: Double, _ v: H3Vector) -> H3Vector {
        H3Vector(x: a * u.x + b * v.x, y: a * u.y + b * v.y, z: a * u.z + b * v.z)
    }

    @inline(__always) package func normalized() -> H3Vector {
        let m = dot(self).squareRoot()
        guard m > H3Constants.epsilon else { return self }
        let inv = 1 / m
        return H3Vector(x: x * inv, y: y * inv, z: z * inv)
    }

    /// Local north and east at this point (never a pole: face centres are not).
    @inline(__always) func tangentBasis() -> (north: H3Vector, east: H3Vector) {
        let pole = H3Vector(x: 0, y: 0, z: 1)
        let north = H3Vector.combine(1, pole, -pole.dot(self), self).normalized()
        return (north, north.cross(self))
    }

    /// Azimuth from this point to another, radians clockwise from north.
    @inline(__always) func azimuth(to p: H3Vector) -> Double {
        let (north, east) = tangentBasis()
        let proj = H3Vector.combine(1, p, -p.dot(self), self).normalized()
        return atan2(proj.dot(east), proj.dot(north))
    }
}
