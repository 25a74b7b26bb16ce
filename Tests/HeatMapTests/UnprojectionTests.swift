import Foundation
import Testing

@testable import HeatMapContouring
@testable import HeatMapCore
@testable import HeatMapDensity
@testable import HeatMapFormats

/// ArcTangent's kernel and the unprojection built on it, against exact
/// values (the same formulas in Float80) and against the C library's
/// asin/atan2/atan (through Foundation), over dense and edge-case samples of
/// every kind of projection.
@Suite struct UnprojectionTests {
    /// Largest error allowed, in ulps: of the result for the radian
    /// kernel; of max(|result|, |centre longitude|) for the degrees an
    /// unprojection returns (a longitude is the centre plus an offset, so
    /// its error is measured on that scale; 2 ulps in radians can be 4 in
    /// degrees, as ×180/π moves values across binades).
    static let kernelBound = 2.0
    static let degreeBound = 4.0

    /// The error, in degrees, that a double unprojection cannot avoid
    /// where the plane-to-sphere map is ill conditioned, beyond the ulps
    /// of the result: an absolute few ε (sin φ is a sum of terms of order
    /// 1, so latitudes near 0 are good to ε, not to their own ulps); near a
    /// pole, the longitude (and the C library's asin(z) latitude) moves by
    /// ε/cos φ for an ε change in its arguments; near equal-area's
    /// antipodal ring (ρ → 2R) both move by ε/√(1 − (ρ/2R)²), and near both
    /// by the product.
    static func slack(_ projection: PlaneProjection, _ p: PlanePoint, latitude: Double, pole: Bool) -> Double {
        var k = 1.0
        if projection.kind == .equalArea {
            let s = min((p.x * p.x + p.y * p.y).squareRoot() / (2 * PlaneProjection.authalicRadius), 1)
            k *= 1 + 4 * (1 / max(((1 - s) * (1 + s)).squareRoot(), 1e-300) - 1)
        }
        if pole { k *= 1 + 2 * (1 / max(cos(latitude * .pi / 180), 1e-300) - 1) }
        return (1 + (k - 1) * 4) * Double.ulpOfOne * 180 / .pi
    }

    /// The excess of `got` over `want` (longitudes taken modulo 360°) past
    /// `slack`, in ulps of max(|want|, `scale`).
    static func excess(_ got: Double, _ want: Double, slack: Double, scale: Double = 0, longitude: Bool = false)
        -> Double
    {
        var d = got - want
        if longitude { d = remainder(d, 360) }
        return max(d.magnitude - slack, 0) / max(want.magnitude, scale.magnitude, 1e-300).ulp
    }

    /// The same unprojection in Float80, with the well-conditioned atan2
    /// forms: exact to far below a double's ulp.
    static func exact(_ projection: PlaneProjection, _ p: PlanePoint) -> (latitude: Float80, longitude: Float80) {
        let deg = 180 / Float80.pi
        let phi0 = Float80(projection.centreLatitude) / deg
        let sinPhi0 = sin(phi0), cosPhi0 = cos(phi0), lon0 = Float80(projection.centreLongitude)
        let x = Float80(p.x), y = Float80(p.y)
        switch projection.kind {
        case .equalArea:
            let r = Float80(PlaneProjection.authalicRadius)
            let rho = (x * x + y * y).squareRoot()
            if rho < 1e-9 { return (Float80(projection.centreLatitude), lon0) }
            let s = min(rho / (2 * r), 1)
            let sinC = 2 * s * (1 - s * s).squareRoot(), cosC = 1 - 2 * s * s
            let east = x * sinC, north = rho * cosPhi0 * cosC - y * sinPhi0 * sinC
            let z = rho * cosC * sinPhi0 + y * sinC * cosPhi0
            return (atan2(z, (east * east + north * north).squareRoot()) * deg, lon0 + atan2(east, north) * deg)
        case .webMercator:
            let r = Float80(PlaneProjection.mercatorRadius)
            let m = expm1(y / r)
            return (2 * atan(m / (m + 2)) * deg, lon0 + x / r * deg)
        case .planar, .equirectangular:
            let c = Unprojection(projection).coordinate(p)
            return (Float80(c.latitude), Float80(c.longitude))
        }
    }

    /// The unprojection as it was computed with the C library (the same
    /// arithmetic around asin, atan2 and atan).
    static func library(_ projection: PlaneProjection, _ p: PlanePoint) -> LocationCoordinate2D {
        let deg = 180 / Double.pi
        let phi0 = projection.centreLatitude / deg
        let sinPhi0 = sin(phi0), cosPhi0 = cos(phi0)
        switch projection.kind {
        case .equalArea:
            let r = PlaneProjection.authalicRadius
            let rho = (p.x * p.x + p.y * p.y).squareRoot()
            if rho < 1e-9 {
                return LocationCoordinate2D(latitude: projection.centreLatitude, longitude: projection.centreLongitude)
            }
            let s = min(rho / (2 * r), 1)
            let sinC = 2 * s * (1 - s * s).squareRoot(), cosC = 1 - 2 * s * s
            let lat = Foundation.asin(min(max(cosC * sinPhi0 + p.y * sinC * cosPhi0 / rho, -1), 1))
            let dl = Foundation.atan2(p.x * sinC, rho * cosPhi0 * cosC - p.y * sinPhi0 * sinC)
            return LocationCoordinate2D(latitude: lat * deg, longitude: projection.centreLongitude + dl * deg)
        case .webMercator:
            let r = PlaneProjection.mercatorRadius
            let lat = (2 * Foundation.atan(exp(p.y / r)) - .pi / 2) * deg
            return LocationCoordinate2D(latitude: lat, longitude: projection.centreLongitude + p.x / r * deg)
        case .planar, .equirectangular:
            return Unprojection(projection).coordinate(p)
        }
    }

    /// The error of `got` against `want` in ulps of max(|want|, |scale|).
    static func ulps(_ got: Double, _ want: Double, scale: Double = 0) -> Double {
        if got == want { return 0 }
        let unit = max(want.magnitude, scale.magnitude, .leastNormalMagnitude).ulp
        return (got - want).magnitude / unit
    }

    @Test func twiceIsWithinTwoUlpsOfTheCLibrary() {
        var g = SplitMix(seed: 1)
        var worst = 0.0
        func check(_ num: Double, _ den: Double) {
            let got = ArcTangent.twice(num, over: den), want = 2 * Foundation.atan2(num, den)
            #expect(
                ArcTangent.twice(-num, over: den) == -got && got.sign == want.sign,
                "twice(\(num), \(den)): \(got) vs \(want)")
            worst = max(worst, Self.ulps(got, want))
        }
        for _ in 0..<400_000 {
            // Ratios in [-1, 1] over many binades of the denominator.
            let den =
                Double.random(in: 0...1, using: &g)
                * Double(sign: .plus, exponent: Int.random(in: -40...40, using: &g), significand: 1)
            check(den * Double.random(in: -1...1, using: &g), den)
        }
        for k in 0...200_000 { check(-1 + Double(k) / 100_000, 1) }
        // Tiny ratios, ratios next to the reduction's seam and next to 1.
        for e in 1...80 { check(Double(sign: .plus, exponent: -e, significand: 1.3), 1) }
        for seam in [ArcTangent.tanPiOver8, 1] {
            var r = seam
            for _ in 0..<64 { r = r.nextDown }
            for _ in 0..<128 {
                if r <= 1 { check(r, 1); check(-r, 1) }
                r = r.nextUp
            }
        }
        // Zeros: 0/0 is 0 with the numerator's sign.
        for (num, den) in [
            (0.0, 0.0), (-0.0, 0.0), (0.0, 1), (-0.0, 1), (1, 1), (-1, 1), (1e-300, 1e-300), (-1e-307, 1e-300)
        ] {
            check(num, den)
        }
        #expect(ArcTangent.twice(1, over: 1) == .pi / 2 && ArcTangent.twice(-1, over: 1) == -.pi / 2)
        #expect(worst <= Self.kernelBound, "worst \(worst) ulp")
    }

    /// Plane points all over a projection's domain, with its edge cases:
    /// the centre, tiny distances from it, the poles, the antipode's ring,
    /// both sides of ±180° and the axes.
    static func samples(_ projection: PlaneProjection, count: Int, seed: UInt64) -> [PlanePoint] {
        var g = SplitMix(seed: seed)
        var out: [PlanePoint] = []
        switch projection.kind {
        case .equalArea:
            let reach = 2 * PlaneProjection.authalicRadius
            for _ in 0..<count {
                let r = reach * Double.random(in: 0...1, using: &g).squareRoot()
                let t = Double.random(in: -Double.pi...Double.pi, using: &g)
                out.append(PlanePoint(x: r * cos(t), y: r * sin(t)))
            }
            // The antipode's ring and just inside it, tiny distances, the axes.
            for k in 0..<720 {
                let t = Double(k) * Double.pi / 360
                for r in [
                    reach, reach.nextDown, reach * (1 - 1e-9), reach * (1 - 1e-6), 0.9e-9, 1.1e-9, 2e-9, 1e-6, 1e-3, 1
                ] {
                    out.append(PlanePoint(x: r * cos(t), y: r * sin(t)))
                }
            }
            for v in [0.0, -0.0, 1e-10, 1.1e-9, 1, 1e6, -1e6, reach / 2, -reach / 2] {
                out += [
                    PlanePoint(x: v, y: 0), PlanePoint(x: 0, y: v), PlanePoint(x: -0.0, y: v), PlanePoint(x: v, y: -0.0)
                ]
            }
        case .webMercator:
            let reach = PlaneProjection.mercatorRadius * Double.pi
            for _ in 0..<count {
                out.append(
                    PlanePoint(
                        x: Double.random(in: -reach...reach, using: &g),
                        y: Double.random(in: -reach...reach, using: &g)))
            }
            for y in [0.0, -0.0, 1e-9, -1e-9, 1, -1, reach, -reach, 2 * reach, -2 * reach] {
                out.append(PlanePoint(x: reach, y: y))
            }
        case .planar, .equirectangular:
            for _ in 0..<count {
                out.append(
                    PlanePoint(x: Double.random(in: -2e7...2e7, using: &g), y: Double.random(in: -1e7...1e7, using: &g))
                )
            }
        }
        // Where the poles and the ±180° meridian land, and near them.
        for lat in [90.0, -90, 89.999999, -89.999999, 89.5, -89.5, 0, 45.5, -60.25] {
            for lon in [
                180.0, -180, 179.999999, -179.999999, 0, projection.centreLongitude + 180,
                projection.centreLongitude - 179.9999
            ] {
                out.append(projection.project(latitude: lat, longitude: lon))
            }
        }
        return out.filter { $0.x.isFinite && $0.y.isFinite }
    }

    static let centres = [
        (0.0, 0.0), (45.3, 10.7), (-33.9, 151.2), (-60, 179.5), (89.9, -179.9), (90, 0), (-90, 120), (12, -180)
    ]
    static let projections: [PlaneProjection] = {
        var out: [PlaneProjection] = []
        for kind in [MapProjection.equalArea, .webMercator, .equirectangular, .planar] {
            for (lat, lon) in centres {
                out.append(PlaneProjection(kind: kind, centreLatitude: lat, centreLongitude: lon))
            }
        }
        return out
    }()

    @Test(arguments: projections)
    func unprojectionIsWithinAFewUlpsOfTheExactValue(_ projection: PlaneProjection) {
        let unprojection = Unprojection(projection)
        var worstLatitude = 0.0, worstLongitude = 0.0
        for p in Self.samples(projection, count: 60_000, seed: 3) {
            let got = unprojection.coordinate(p), want = Self.exact(projection, p)
            let lat = Double(want.latitude)
            // The latitude is well conditioned at the poles; the longitude is not.
            let exactly = Self.slack(projection, p, latitude: lat, pole: false)
            let nearPole = Self.slack(projection, p, latitude: lat, pole: true)
            let dlat = Double(Float80(got.latitude) - want.latitude),
                dlon = Double(Float80(got.longitude) - want.longitude)
            worstLatitude = max(worstLatitude, Self.excess(lat + dlat, lat, slack: exactly))
            worstLongitude = max(
                worstLongitude,
                Self.excess(
                    Double(want.longitude) + dlon, Double(want.longitude), slack: nearPole,
                    scale: projection.centreLongitude, longitude: true))
        }
        #expect(worstLatitude <= Self.degreeBound, "\(projection): latitude worst \(worstLatitude) ulp")
        #expect(worstLongitude <= Self.degreeBound, "\(projection): longitude worst \(worstLongitude) ulp")
    }

    /// Against the C library's results: as close, but for what their own
    /// conditioning costs them (asin(z) near the poles moves by ε/cos φ for
    /// an ulp of z: at a pole itself the C library's latitude is 8.5e-7°
    /// short of 90°).
    @Test(arguments: projections)
    func unprojectionIsWithinAFewUlpsOfTheCLibrary(_ projection: PlaneProjection) {
        let unprojection = Unprojection(projection)
        var worstLatitude = 0.0, worstLongitude = 0.0
        // Web mercator's latitude was 2·atan(·) − π/2: near the equator the
        // subtraction left it ulps of 90° from the exact value.
        let latitudeScale = projection.kind == .webMercator ? 90.0 : 0
        for p in Self.samples(projection, count: 60_000, seed: 3) {
            let got = unprojection.coordinate(p), want = Self.library(projection, p)
            // Conditioning at the exact latitude (the library's is off by it).
            let slack = Self.slack(projection, p, latitude: Double(Self.exact(projection, p).latitude), pole: true)
            worstLatitude = max(
                worstLatitude, Self.excess(got.latitude, want.latitude, slack: slack, scale: latitudeScale))
            worstLongitude = max(
                worstLongitude,
                Self.excess(
                    got.longitude, want.longitude, slack: slack,
                    scale: projection.centreLongitude, longitude: true))
        }
        #expect(worstLatitude <= Self.degreeBound, "\(projection): latitude worst \(worstLatitude) ulp")
        #expect(worstLongitude <= Self.degreeBound, "\(projection): longitude worst \(worstLongitude) ulp")
    }

    /// The geographic projections but equirectangular about a pole, which
    /// degenerates (every meridian is squeezed into a sliver of the plane).
    static let regular = projections.filter {
        $0.isGeographic && ($0.kind != .equirectangular || abs($0.centreLatitude) < 89)
    }

    @Test(arguments: regular)
    func projectingAndUnprojectingComesBack(_ projection: PlaneProjection) {
        var g = SplitMix(seed: 4)
        let unprojection = Unprojection(projection)
        for _ in 0..<20_000 {
            let lat = Double.random(in: -80...80, using: &g), lon = Double.random(in: -180..<180, using: &g)
            let p = projection.project(latitude: lat, longitude: lon)
            // Away from the antipode, where equal-area folds up.
            if projection.kind == .equalArea,
                (p.x * p.x + p.y * p.y).squareRoot() > 1.9 * PlaneProjection.authalicRadius
            {
                continue
            }
            let c = unprojection.coordinate(p)
            let dlon = (c.longitude - lon).truncatingRemainder(dividingBy: 360)
            #expect(abs(c.latitude - lat) < 1e-9, "\(projection) (\(lat), \(lon)) → \(c)")
            #expect(
                min(abs(dlon), 360 - abs(dlon)) * cos(lat * .pi / 180) < 1e-9, "\(projection) (\(lat), \(lon)) → \(c)")
        }
    }

    /// The batch (blocks of 64 through each step in turn, of any length) gives every
    /// point the bits it gets alone, whatever its place in the batch.
    @Test(arguments: projections)
    func aBatchGivesThePointsTheirOwnBits(_ projection: PlaneProjection) {
        let unprojection = Unprojection(projection)
        let points = Self.samples(projection, count: 3_000, seed: 6)
        func batch(_ plane: [PlanePoint]) -> [PlanePoint] {
            [PlanePoint](unsafeUninitializedCapacity: plane.count) { out, count in
                plane.withUnsafeBufferPointer { unprojection.lonLat($0, into: out.baseAddress!) }
                count = plane.count
            }
        }
        let alone = points.map { p -> [UInt64] in
            let c = unprojection.coordinate(p)
            return [c.longitude.bitPattern, c.latitude.bitPattern]
        }
        for shift in [0, 1, 37] {
            let got = batch(Array(points[shift...]) + points[..<shift]).map { [$0.x.bitPattern, $0.y.bitPattern] }
            #expect(got == Array(alone[shift...] + alone[..<shift]), "\(projection), shifted \(shift)")
        }
        // Batches of every length around the block size, and a short last block.
        for count in [1, 2, 3, 63, 64, 65, 127, 129, 2_999] {
            let got = batch(Array(points[..<count])).map { [$0.x.bitPattern, $0.y.bitPattern] }
            #expect(got == Array(alone[..<count]), "\(projection), \(count) points")
        }
    }

    /// A position is unprojected from its plane point alone: the same in a
    /// ring taken forwards, backwards or from another start, and as a
    /// single point, bit for bit.
    @Test(arguments: regular)
    func aPositionDoesNotDependOnItsRing(_ projection: PlaneProjection) {
        let geometry = LonLatGeometry(projection: projection)
        let unprojection = Unprojection(projection)
        var g = SplitMix(seed: 5)
        // A wiggly ring about a random point, small enough not to wrap.
        let centre = projection.project(
            latitude: Double.random(in: -70...70, using: &g),
            longitude: Double.random(in: -180..<180, using: &g))
        let ring = (0..<997).map { k -> PlanePoint in
            let t = 2 * Double.pi * Double(k) / 997, r = 50_000 * (1 + 0.3 * sin(9 * t))
            return PlanePoint(x: centre.x + r * cos(t), y: centre.y + r * sin(t))
        }
        let alone = ring.map { unprojection.coordinate($0) }
        func latitudes(_ r: [PlanePoint]) -> [UInt64] { geometry.ring(r).map(\.y.bitPattern) }
        let forwards = latitudes(ring)
        #expect(forwards == alone.map(\.latitude.bitPattern))
        #expect(latitudes(ring.reversed()) == Array(forwards.reversed()))
        let rotated = Array(ring[400...] + ring[..<400])
        #expect(latitudes(rotated) == Array(forwards[400...] + forwards[..<400]))
        // Longitudes: unwrapped from the first, so the same up to whole turns.
        let lons = geometry.ring(ring).map(\.x)
        for (l, c) in zip(lons, alone) {
            let turns = ((l - c.longitude) / 360).rounded()
            #expect((l - 360 * turns - c.longitude).magnitude < 1e-9)
        }
    }
}
