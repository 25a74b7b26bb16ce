/// The Lambert azimuthal equal-area inverse on the authalic sphere. A batch
/// (``forEachCoordinate(_:_:)``) takes blocks of points through each step
/// in turn, each step a loop over plain arrays of doubles that the
/// compiler turns into paired (vector) instructions where that pays — the
/// divisions; one point alone (``coordinate(_:)``) goes through
/// the same operations, so it gets the same bits as in any batch.
package struct EqualAreaInverse: Sendable {
    package let centreLatitude: Double, centreLongitude: Double
    package let sinPhi0: Double, cosPhi0: Double

    /// One point. With c the angle from the centre, s = sin(c/2) = ρ/2R,
    /// so h = sin(c)/ρ = √(1 − s²)/R and cos(c) = 1 − 2s²; then (east,
    /// north) is cos(φ)·(sin, cos)(λ − λ0), z = sin φ and w = √(east² +
    /// north²) = cos φ. φ = 2·atan(z/(1 + w)) and λ − λ0 = 2·atan(east/(w +
    /// |north|)), the latter taken from ±π when north < 0: the half angles
    /// are well conditioned everywhere (asin(z) is not, near the poles).
    /// Longitude not wrapped (the centre ± 180°); within a nanometre of the
    /// centre, the centre itself. O(1).
    @inline(__always) package func coordinate(_ p: PlanePoint) -> LocationCoordinate2D {
        let rho2 = p.x * p.x + p.y * p.y
        if rho2 < 1e-18 { return LocationCoordinate2D(latitude: centreLatitude, longitude: centreLongitude) }
        let s2 = Self.halfChordSquared(rho2)
        let (east, north, z) = directions(p, s2: s2, root: (1 - s2).squareRoot())
        let w = (east * east + north * north).squareRoot()
        return coordinate(
            latitude: ArcTangent.twice(z, over: 1 + w), east: east, north: north,
            longitude: ArcTangent.twice(east, over: w + north.magnitude))
    }

    /// s² = (ρ/2R)², at most 1, from ρ².
    @inline(__always) static func halfChordSquared(_ rho2: Double) -> Double {
        let r = PlaneProjection.authalicRadius
        return min(rho2 * (0.25 / (r * r)), 1)
    }

    /// (east, north, z) of `p`, from s² and √(1 − s²).
    @inline(__always) func directions(_ p: PlanePoint, s2: Double, root: Double) -> (Double, Double, Double) {
        let h = root * (1 / PlaneProjection.authalicRadius)
        let cosC = 1 - 2 * s2
        let east = p.x * h, north = cosPhi0 * cosC - p.y * h * sinPhi0
        return (east, north, cosC * sinPhi0 + p.y * h * cosPhi0)
    }

    /// Degrees from the two half-angle arctangents (radians).
    @inline(__always) func coordinate(latitude: Double, east: Double, north: Double, longitude: Double)
        -> LocationCoordinate2D
    {
        let deg = 180 / Double.pi
        var dl = longitude
        if north < 0 {
            dl =
                (Double(signOf: east, magnitudeOf: ArcTangent.piHigh) - dl)
                + Double(signOf: east, magnitudeOf: ArcTangent.piLow)
        }
        return LocationCoordinate2D(latitude: latitude * deg, longitude: centreLongitude + dl * deg)
    }

    /// Points per block of ``forEachCoordinate(_:_:)``.
    private static let block = 64

    /// Hands `body` each point's index and ``coordinate(_:)``, in order.
    /// A block of points goes through each step in turn, and each step
    /// keeps its values in plain arrays: ρ² and 1 − s², their square roots,
    /// the directions and w², its square roots, then the 2 × 64 ratios'
    /// arctangents (``ArcTangent/twice(_:over:into:scratch:count:)``).
    /// O(n).
    @inline(__always) package func forEachCoordinate(
        _ plane: UnsafeBufferPointer<PlanePoint>,
        _ body: (Int, LocationCoordinate2D) -> Void
    ) {
        // Blocks of at most `Self.block` points, laid out `block` apart: as
        // many as there are points, so that a small ring's scratch (under
        // a dozen points) stays on the stack.
        let block = max(1, min(Self.block, plane.count))
        withScratch(of: Double.self, capacity: 11 * block) { scratch in
            let rho2 = scratch.baseAddress!, root = rho2 + block, north = root + block
            // Ratios and their angles: latitudes first, longitudes after.
            let num = north + block, den = num + 2 * block, angle = den + 2 * block, work = angle + 2 * block
            var start = 0
            while start < plane.count {
                let n = min(block, plane.count - start)
                let points = plane.baseAddress! + start
                for j in 0..<n {
                    let p = points[j]
                    let q = p.x * p.x + p.y * p.y
                    rho2[j] = q
                    root[j] = 1 - Self.halfChordSquared(q)
                }
                Self.formSquareRoots(root, count: n)
                for j in 0..<n {
                    let (east, northward, z) = directions(
                        points[j], s2: Self.halfChordSquared(rho2[j]), root: root[j])
                    num[j] = z
                    num[block + j] = east
                    north[j] = northward
                    den[j] = east * east + northward * northward
                }
                Self.formSquareRoots(den, count: n)
                for j in 0..<n {
                    let w = den[j]
                    den[j] = 1 + w
                    den[block + j] = w + north[j].magnitude
                }
                // Lanes n..<block of the latitudes are left out; the
                // longitudes start at `block`.
                ArcTangent.twice(num, over: den, into: angle, scratch: work, count: n)
                ArcTangent.twice(num + block, over: den + block, into: angle + block, scratch: work, count: n)
                for j in 0..<n {
                    let c =
                        rho2[j] < 1e-18
                        ? LocationCoordinate2D(latitude: centreLatitude, longitude: centreLongitude)
                        : coordinate(
                            latitude: angle[j], east: num[block + j], north: north[j], longitude: angle[block + j])
                    body(start + j, c)
                }
                start += n
            }
        }
    }

    /// `values[0 ..< count]` replaced by their square roots: a loop of
    /// nothing else, which the processor overlaps.
    @inline(__always) private static func formSquareRoots(_ values: UnsafeMutablePointer<Double>, count: Int) {
        for j in 0..<count { values[j] = values[j].squareRoot() }
    }
}
