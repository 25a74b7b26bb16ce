/// The Lambert azimuthal equal-area inverse on the authalic sphere, in
/// three steps a batch runs over many points in turn (see
/// ``ArcTangent``): plane point → half-angle arguments (two square roots),
/// → reduced ratios (the divisions), → degrees (the
/// polynomials). One point through the three steps gives the same bits
/// as the same point in any batch.
package struct EqualAreaInverse: Sendable {
    package let centreLatitude: Double, centreLongitude: Double
    package let sinPhi0: Double, cosPhi0: Double

    /// φ = 2·atan(z/(1 + w)) and λ − λ0 = 2·atan(east/(w + |north|)), the
    /// latter taken from ±π when north < 0.
    package struct HalfAngles {
        package var z: Double, zOver: Double, east: Double, eastOver: Double
        var southward: Bool, atCentre: Bool
    }

    /// Both ratios reduced.
    package struct Reduced {
        package var latitude: ArcTangent.Reduced, longitude: ArcTangent.Reduced
        var southward: Bool, atCentre: Bool
    }

    /// Step one. With c the angle from the centre, s = sin(c/2) = ρ/2R, so
    /// h = sin(c)/ρ = √(1 − s²)/R and cos(c) = 1 − 2s²; then (east, north)
    /// is cos(φ)·(sin, cos)(λ − λ0), z = sin φ and w = √(east² + north²) =
    /// cos φ. The half angles are well conditioned everywhere (asin(z) is
    /// not, near the poles).
    @inline(__always) func halfAngles(_ p: PlanePoint) -> HalfAngles {
        let r = PlaneProjection.authalicRadius
        let rho2 = p.x * p.x + p.y * p.y
        let s2 = min(rho2 * (0.25 / (r * r)), 1)
        let h = (1 - s2).squareRoot() * (1 / r)
        let cosC = 1 - 2 * s2
        let east = p.x * h, north = cosPhi0 * cosC - p.y * h * sinPhi0
        let z = cosC * sinPhi0 + p.y * h * cosPhi0
        let w = (east * east + north * north).squareRoot()
        return HalfAngles(
            z: z, zOver: 1 + w, east: east, eastOver: w + north.magnitude,
            southward: north < 0, atCentre: rho2 < 1e-18)
    }

    /// Step two: the divisions.
    @inline(__always) package func reduce(_ a: HalfAngles) -> Reduced {
        Reduced(
            latitude: ArcTangent.reduce(a.z, over: a.zOver),
            longitude: ArcTangent.reduce(a.east, over: a.eastOver),
            southward: a.southward, atCentre: a.atCentre)
    }

    /// Step three: the angles, in degrees (longitude not wrapped: the
    /// centre ± 180°). Within a nanometre of the centre, the centre itself.
    @inline(__always) package func coordinate(_ r: Reduced) -> LocationCoordinate2D {
        if r.atCentre { return LocationCoordinate2D(latitude: centreLatitude, longitude: centreLongitude) }
        let deg = 180 / Double.pi
        let latitude = ArcTangent.twice(r.latitude)
        var dl = ArcTangent.twice(r.longitude)
        if r.southward {
            let east = r.longitude.sign
            dl =
                (Double(signOf: east, magnitudeOf: ArcTangent.piHigh) - dl)
                + Double(signOf: east, magnitudeOf: ArcTangent.piLow)
        }
        return LocationCoordinate2D(latitude: latitude * deg, longitude: centreLongitude + dl * deg)
    }

    /// One point through the three steps. O(1).
    @inline(__always) package func coordinate(_ p: PlanePoint) -> LocationCoordinate2D {
        coordinate(reduce(halfAngles(p)))
    }

    /// Hands `body` each point's index and coordinate, in order, taking
    /// blocks of 64 points through each step in turn. O(n).
    @inline(__always) package func forEachCoordinate(
        _ plane: UnsafeBufferPointer<PlanePoint>,
        _ body: (Int, LocationCoordinate2D) -> Void
    ) {
        let block = 64
        withUnsafeTemporaryAllocation(of: HalfAngles.self, capacity: block) { halves in
            withUnsafeTemporaryAllocation(of: Reduced.self, capacity: block) { reduced in
                var start = 0
                while start < plane.count {
                    let n = min(block, plane.count - start)
                    for j in 0..<n { halves[j] = halfAngles(plane[start + j]) }
                    for j in 0..<n { reduced[j] = reduce(halves[j]) }
                    for j in 0..<n { body(start + j, coordinate(reduced[j])) }
                    start += n
                }
            }
        }
    }
}
