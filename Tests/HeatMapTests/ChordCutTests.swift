import Foundation
import Testing

@testable import HeatMapContouring
@testable import HeatMapCore
@testable import HeatMapFormats

/// Rings the equal-area plane keeps a few metres apart, with sides long
/// enough that their straight [longitude, latitude] chords stray from the
/// plane's segments by more than that (an 80 km side at 66° N strays by
/// about 280 m): the export cuts those chords closer instead of giving up
/// a hole.
@Suite struct ChordCutTests {
    /// The plane of the storms' grid, centred over the Atlantic; the rings
    /// lie off Norway, 50° from its centre.
    static let projection = PlaneProjection(kind: .equalArea, centreLatitude: 38.85, centreLongitude: -61.7)

    /// A square of half side `h` metres about the plane point of (65.7°,
    /// 15°), and a diamond inside it whose corners lie `gap` metres inside
    /// the middles of the square's sides.
    static func rings(h: Double = 40_000, gap: Double) -> (square: [PlanePoint], diamond: [PlanePoint]) {
        let c = projection.project(latitude: 65.7, longitude: 15)
        func at(_ dx: Double, _ dy: Double) -> PlanePoint { PlanePoint(x: c.x + dx, y: c.y + dy) }
        return (
            [at(-h, -h), at(h, -h), at(h, h), at(-h, h)],
            [at(0, -h + gap), at(h - gap, 0), at(0, h - gap), at(-h + gap, 0)]
        )
    }

    static func bands(gap: Double) throws -> (lower: [[[[Double]]]], upper: [[[[Double]]]]) {
        let (square, diamond) = rings(gap: gap)
        let set = ContourSet(
            thresholds: [1, 2], levels: [[], []],
            bands: [[PlanePolygon(exterior: square, holes: [diamond])], [PlanePolygon(exterior: diamond)]],
            isolines: [[], []])
        let text = try GeoJSONExport.contours(set, projection: projection, units: "per km²")
        let features = try GeoJSONRead.features(text)
        try #require(features.count == 2)
        return (try GeoJSONRead.polygons(features[0]), try GeoJSONRead.polygons(features[1]))
    }

    @Test func theChordsOfLongSidesCrossRingsAFewMetresApart() {
        // The premise: unprojected as they are, the diamond's corner pokes
        // out of the square in longitude/latitude.
        let (square, diamond) = Self.rings(gap: 5)
        let geometry = LonLatGeometry(projection: Self.projection)
        let outer = geometry.raw(square), inner = geometry.raw(diamond)
        let scale = 1e9
        func fixed(_ r: [PlanePoint]) -> [FixedPoint] {
            r.map { FixedPoint(x: Int64(($0.x * scale).rounded()), y: Int64(($0.y * scale).rounded())) }
        }
        let bad = RingContactCheck.offenders([
            RingContactCheck.Ring(points: fixed(outer), polygon: 0),
            RingContactCheck.Ring(points: fixed(inner), polygon: 0)
        ])
        #expect(bad == [0, 1])
    }

    @Test(arguments: [5.0, 0.5, 0.01])
    func aHoleAFewMetresInsideLongChordsIsKept(gap: Double) throws {
        let (lower, upper) = try Self.bands(gap: gap)
        // The lower band keeps its hole, valid, and the hole is the upper
        // band's exterior position for position: the shared boundary was
        // cut alike in both.
        try #require(lower.count == 1 && upper.count == 1)
        #expect(lower[0].count == 2)
        #expect(GeoJSONRead.problems(lower[0]).isEmpty)
        #expect(GeoJSONRead.problems(upper[0]).isEmpty)
        #expect(lower[0].count == 2 && Set(lower[0][1]) == Set(upper[0][0]))
        // Cut: more positions than the four corners (closed: five).
        #expect(upper[0][0].count > 5)
    }

    @Test func ringsFarEnoughApartAreNotCut() throws {
        let (lower, upper) = try Self.bands(gap: 2_000)
        #expect(lower[0].map(\.count) == [5, 5])
        #expect(upper[0].map(\.count) == [5])
    }

    @Test func aCutFollowsThePlaneSegmentAndDoesNotDependOnDirection() {
        var cuts = ChordCuts(projection: Self.projection)
        let (square, _) = Self.rings(gap: 5)
        let geometry = LonLatGeometry(projection: Self.projection)
        let a = geometry.raw(square)[2], b = geometry.raw(square)[3]
        #expect(cuts.depth(a, b) == 0)
        #expect(cuts.cut(a, b).count == 1)
        #expect(cuts.cut(b, a).count == 3)
        #expect(cuts.depth(a, b) == 2)
        let forward = cuts.points(from: a, to: b, depth: 2), backward = cuts.points(from: b, to: a, depth: 2)
        #expect(forward == Array(backward.reversed()))
        // Each point is the image of the plane segment's quarter points.
        let pa = Self.projection.project(latitude: a.y, longitude: a.x)
        let pb = Self.projection.project(latitude: b.y, longitude: b.x)
        for (k, p) in forward.enumerated() {
            let q = Self.projection.project(latitude: p.y, longitude: p.x)
            let t = Double(k + 1) / 4
            #expect(abs(q.x - (pa.x + (pb.x - pa.x) * t)) < 1e-6)
            #expect(abs(q.y - (pa.y + (pb.y - pa.y) * t)) < 1e-6)
        }
        // A ring through the segment either way gains the same points.
        let ring = [a, b, PlanePoint(x: a.x, y: a.y - 1)]
        let cutRing = cuts.cutting(ring) { _ in true }
        #expect(cutRing.count == 6)
        #expect(Array(cutRing[1...3]) == forward)
        #expect(Array(cuts.cutting(ring.reversed()) { _ in true }.reversed()) == cutRing)
    }

    @Test func edgesOnTheAntimeridianOrAPoleAndStraightSegmentsAreNotCut() {
        let cuts = ChordCuts(projection: Self.projection)
        #expect(!cuts.canCut(PlanePoint(x: 180, y: 10), PlanePoint(x: 179, y: 11)))
        #expect(!cuts.canCut(PlanePoint(x: 10, y: 90), PlanePoint(x: 20, y: 90)))
        #expect(cuts.canCut(PlanePoint(x: 10, y: 60), PlanePoint(x: 20, y: 61)))
        #expect(!ChordCuts(projection: nil).canCut(PlanePoint(x: 10, y: 60), PlanePoint(x: 20, y: 61)))
        // Planes whose segments are straight in longitude and latitude.
        for kind in [MapProjection.planar, .equirectangular] {
            let flat = ChordCuts(projection: PlaneProjection(kind: kind, centreLatitude: 50, centreLongitude: 10))
            #expect(!flat.canCut(PlanePoint(x: 10, y: 60), PlanePoint(x: 20, y: 61)))
        }
    }

    @Test func theContactCheckSaysWhereTheFaultsLie() {
        func ring(_ p: [(Int64, Int64)], _ polygon: Int = 0) -> RingContactCheck.Ring {
            RingContactCheck.Ring(points: p.map { FixedPoint(x: $0.0, y: $0.1) }, polygon: polygon)
        }
        // Two squares crossing near (10, 10): the two crossing segments' box.
        var contacts: [FixedBox] = []
        let bad = RingContactCheck.offenders(
            [ring([(0, 0), (10, 0), (10, 10), (0, 10)]), ring([(5, 5), (15, 5), (15, 15), (5, 15)], 1)],
            contacts: &contacts)
        #expect(bad == [0, 1])
        #expect(!contacts.isEmpty)
        #expect(contacts.allSatisfy { $0.minX <= 10 && $0.maxX >= 10 && $0.minY <= 10 && $0.maxY >= 5 })
        // A hole outside its exterior: the hole's box.
        contacts = []
        _ = RingContactCheck.offenders(
            [ring([(0, 0), (10, 0), (10, 10), (0, 10)]), ring([(20, 20), (20, 30), (30, 30), (30, 20)])],
            contacts: &contacts)
        #expect(contacts.count == 1 && contacts[0].minX == 20 && contacts[0].maxY == 30)
    }
}

/// The whole path, from points: clusters spread over 120° of longitude and
/// 20° to 66° N, a coarse grid (cells over 100 km) and quantile levels,
/// whose lowest thresholds lie far down the density's tail, where a cell
/// packs them metres apart. Bands must then neither overlap nor lose a hole.
@Suite struct ChordCutBandTests {
    struct Sighting: HeatMapable {
        let id: Int
        let coordinate: LocationCoordinate2D
        let weight: Double
    }

    static func sightings() -> [Sighting] {
        var rng = SplitMix(seed: 7)
        func normal() -> Double {
            (-2 * log(1 - rng.unit())).squareRoot() * cos(2 * .pi * rng.unit())
        }
        let centres = [(60.0, -90.0), (40, -60), (20, -40), (66, 10), (50, -20)]
        return centres.enumerated().flatMap { c, centre in
            (0..<40).map { i in
                Sighting(
                    id: 40 * c + i,
                    coordinate: LocationCoordinate2D(
                        latitude: centre.0 + 3 * normal(), longitude: centre.1 + 5 * normal()),
                    weight: 1)
            }
        }
    }

    /// The polygons holding point (x, y), even-odd over each polygon's rings.
    static func holders(_ x: Double, _ y: Double, in polygons: [[[[Double]]]]) -> Int {
        polygons.filter { polygon in
            var inside = false
            for ring in polygon {
                for k in 0..<(ring.count - 1) {
                    let a = ring[k], b = ring[k + 1]
                    if (a[1] > y) != (b[1] > y), x < a[0] + (y - a[1]) / (b[1] - a[1]) * (b[0] - a[0]) {
                        inside.toggle()
                    }
                }
            }
            return inside
        }.count
    }

    @Test(arguments: [40, 60])
    func bandsOfAFarTailOnACoarseGridNeitherOverlapNorLoseHoles(resolution: Int) throws {
        var configuration = HeatMapConfiguration(radius: 190_000, contourLevels: 12)
        configuration.gridResolution = resolution
        configuration.levelSpacing = .quantile
        configuration.smoother = .none
        let contours = HeatMapContours.compute(from: Self.sightings(), configuration: configuration)
        let text = try GeoJSONExport.contours(contours)
        #expect(try GeoJSONRead.allProblems(text) == [])
        #expect(try GeoJSONRead.featuresAtFault(text) == [])
        // No point of a lattice over the map lies in two polygons, of one
        // band or of two.
        let polygons = try GeoJSONRead.features(text).flatMap { try GeoJSONRead.polygons($0) }
        var twice = 0
        for i in 0..<120 {
            for j in 0..<60 {
                let x = -180 + (Double(i) + 0.5) * 3, y = (Double(j) + 0.5) * 1.5
                if Self.holders(x, y, in: polygons) > 1 { twice += 1 }
            }
        }
        #expect(twice == 0)
    }
}
