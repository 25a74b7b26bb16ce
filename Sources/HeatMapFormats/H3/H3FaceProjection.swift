import Foundation
import HeatMapContouring
import HeatMapCore
import HeatMapDensity

/// The gnomonic projection of each icosahedron face onto its hexagon plane,
/// scaled to a resolution's unit length (√7 finer per resolution) and, at
/// Class III resolutions, rotated by asin(√(3/28)).
enum H3FaceProjection {
    private static let centers: [H3Vector] = H3FaceTables.centerPoint.map { H3Vector(x: $0.x, y: $0.y, z: $0.z) }
    private static let bases: [(north: H3Vector, east: H3Vector)] = centers.map { $0.tangentBasis() }

    /// The face whose centre is nearest a point, and the squared chord
    /// distance to that centre.
    @inline(__always) static func closestFace(_ p: H3Vector) -> (face: Int, squaredDistance: Double) {
        var face = 0
        var best = 5.0
        for f in 0..<20 {
            let d = centers[f].squaredDistance(p)
            if d < best {
                best = d
                face = f
            }
        }
        return (face, best)
    }

    /// A point on the sphere as a face and a position in that face's plane at a resolution.
    static func hexPoint(_ p: H3Vector, resolution: Int) -> (face: Int, point: HexPoint) {
        let (face, sqd) = closestFace(p)
        var r = acos(1 - sqd * 0.5)
        if r < H3Constants.epsilon { return (face, HexPoint(x: 0, y: 0)) }
        let (north, east) = bases[face]
        let c = centers[face]
        let proj = H3Vector.combine(1, p, -p.dot(c), c).normalized()
        let az = atan2(proj.dot(east), proj.dot(north))
        var theta = H3Sphere.positiveAngle(H3FaceTables.iAxisAzimuth[face] - H3Sphere.positiveAngle(az))
        if H3Constants.isClassIII(resolution) {
            theta = H3Sphere.positiveAngle(theta - H3Constants.ap7Rotation)
        }
        r = tan(r)
        r = r * H3Constants.inverseRes0UnitGnomonic
        for _ in 0..<resolution { r = r * H3Constants.sqrt7 }
        return (face, HexPoint(x: r * cos(theta), y: r * sin(theta)))
    }

    /// The point on the sphere of a position in a face's plane.
    /// `substrate` marks the finer vertex grid (3× the unit, and already
    /// rotated at Class III).
    static func vector(_ v: HexPoint, face: Int, resolution: Int, substrate: Bool) -> H3Vector {
        var r = v.magnitude
        if r < H3Constants.epsilon { return centers[face] }
        var theta = atan2(v.y, v.x)
        for _ in 0..<resolution { r = r * H3Constants.inverseSqrt7 }
        if substrate {
            r = r * H3Constants.oneThird
            if H3Constants.isClassIII(resolution) { r = r * H3Constants.inverseSqrt7 }
        }
        r = r * H3Constants.res0UnitGnomonic
        r = atan(r)
        if !substrate && H3Constants.isClassIII(resolution) {
            theta = H3Sphere.positiveAngle(theta + H3Constants.ap7Rotation)
        }
        theta = H3Sphere.positiveAngle(H3FaceTables.iAxisAzimuth[face] - theta)
        let (north, east) = bases[face]
        let dir = H3Vector.combine(cos(theta), north, sin(theta), east)
        return H3Vector.combine(cos(r), centers[face], sin(r), dir).normalized()
    }

    /// The point (radians) of a position in a face's plane.
    @inline(__always) package static func geo(_ v: HexPoint, face: Int, resolution: Int, substrate: Bool) -> (
        lat: Double, lon: Double
    ) {
        vector(v, face: face, resolution: resolution, substrate: substrate).geo
    }
}
