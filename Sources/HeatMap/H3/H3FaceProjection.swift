import Foundation

/// The gnomonic projection of each icosahedron face onto its hexagon plane,
/// scaled to a resolution's unit length (√7 finer per resolution) and, at
/// Class III resolutions, rotated by asin(√(3/28)).
enum H3FaceProjection {
    /// The face whose centre is nearest a point, and the squared chord
    /// distance to that centre.
    @inline(__always) static func closestFace(lat: Double, lon: Double) -> (face: Int, squaredDistance: Double) {
        let r = cos(lat)
        let z = sin(lat), x = cos(lon) * r, y = sin(lon) * r
        var face = 0
        var best = 5.0
        let centers = H3FaceTables.centerPoint
        for f in 0..<20 {
            let c = centers[f]
            let dx = c.x - x, dy = c.y - y, dz = c.z - z
            let d = dx * dx + dy * dy + dz * dz
            if d < best {
                best = d
                face = f
            }
        }
        return (face, best)
    }

    /// A point (radians) as a face and a position in that face's plane at a resolution.
    static func hexPoint(lat: Double, lon: Double, resolution: Int) -> (face: Int, point: HexPoint) {
        let (face, sqd) = closestFace(lat: lat, lon: lon)
        var r = acos(1 - sqd / 2)
        if Float80(r) < H3Constants.epsilon { return (face, HexPoint(x: 0, y: 0)) }
        let center = H3FaceTables.centerGeo[face]
        var theta = H3Sphere.positiveAngle(H3FaceTables.iAxisAzimuth[face]
            - H3Sphere.positiveAngle(H3Sphere.azimuth(from: center, to: (lat, lon))))
        if H3Constants.isClassIII(resolution) {
            theta = H3Sphere.positiveAngle(Double(Float80(theta) - H3Constants.ap7Rotation))
        }
        r = tan(r)
        r = Double(Float80(r) / H3Constants.res0UnitGnomonic)
        for _ in 0..<resolution { r = Double(Float80(r) * H3Constants.sqrt7) }
        return (face, HexPoint(x: r * cos(theta), y: r * sin(theta)))
    }

    /// The point on the sphere (radians) of a position in a face's plane.
    /// `substrate` marks the finer vertex grid (3× the unit, and already
    /// rotated at Class III).
    static func geo(_ v: HexPoint, face: Int, resolution: Int, substrate: Bool) -> (lat: Double, lon: Double) {
        var r = v.magnitude
        let center = H3FaceTables.centerGeo[face]
        if Float80(r) < H3Constants.epsilon { return center }
        var theta = atan2(v.y, v.x)
        for _ in 0..<resolution { r = Double(Float80(r) / H3Constants.sqrt7) }
        if substrate {
            r /= 3
            if H3Constants.isClassIII(resolution) { r = Double(Float80(r) / H3Constants.sqrt7) }
        }
        r = Double(Float80(r) * H3Constants.res0UnitGnomonic)
        r = atan(r)
        if !substrate && H3Constants.isClassIII(resolution) {
            theta = H3Sphere.positiveAngle(Double(Float80(theta) + H3Constants.ap7Rotation))
        }
        theta = H3Sphere.positiveAngle(H3FaceTables.iAxisAzimuth[face] - theta)
        return H3Sphere.destination(from: center, azimuth: theta, distance: r)
    }
}
