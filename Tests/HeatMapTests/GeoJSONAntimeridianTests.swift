import Foundation
import Testing

@testable import HeatMapContouring
@testable import HeatMapCore
@testable import HeatMapDensity
@testable import HeatMapFormats

@Suite struct GeoJSONAntimeridianTests {
    @Test func clippingAHoleOnTheLineMakesANotch() {
        let polygon = PlanePolygon(
            exterior: Shapes.rectangle(0, 0, 10, 10),
            holes: [
                Shapes.rectangle(4, 4, 6, 6, clockwise: true),
                Shapes.rectangle(1, 1, 2, 2, clockwise: true)
            ])
        let west = HalfPlaneClipper.clip(polygon, keeping: .west, of: 5)
        #expect(west.count == 1)
        #expect(west[0].holes.count == 1)  // the small hole stays a hole
        #expect(abs(west[0].area - (50 - 2 - 1)) < 1e-12)
        #expect(PlaneRing.signedArea(west[0].exterior) > 0)
        #expect(west[0].exterior.allSatisfy { $0.x <= 5 })
        let east = HalfPlaneClipper.clip(polygon, keeping: .east, of: 5)
        #expect(east.count == 1 && east[0].holes.isEmpty)
        #expect(abs(east[0].area - 48) < 1e-12)
        #expect(east[0].exterior.allSatisfy { $0.x >= 5 })
        // North and south too.
        let north = HalfPlaneClipper.clip(polygon, keeping: .north, of: 5)
        let south = HalfPlaneClipper.clip(polygon, keeping: .south, of: 5)
        #expect(abs(north[0].area - 48) < 1e-12 && abs(south[0].area - 47) < 1e-12)
    }

    /// The clipped rings are made in buffers of their size (a count pass
    /// over the chains of the walk), not grown by doubling.
    @Test func clippedRingsFitTheirBuffers() {
        let n = 5000
        let wiggly = (0..<n).map { k -> PlanePoint in
            let t = 2 * Double.pi * Double(k) / Double(n), r = 10 * (1 + 0.3 * sin(7 * t))
            return PlanePoint(x: r * cos(t), y: r * sin(t))
        }
        for side in [HalfPlaneClipper.Side.west, .east] {
            let pieces = HalfPlaneClipper.clip(PlanePolygon(exterior: wiggly), keeping: side, of: 0.5)
            #expect(pieces.contains { $0.exterior.count > 1000 })
            for p in pieces {
                #expect(p.exterior.capacity <= p.exterior.count + p.exterior.count / 8 + 16)
            }
        }
    }

    /// Output polygons made while the plane ones are let go of are those
    /// made from plane polygons kept whole.
    @Test func outputPolygonsReleasingTheirInputAreTheSame() {
        let projection = PlaneProjection(kind: .equalArea, centreLatitude: 0, centreLongitude: 179)
        let geometry = LonLatGeometry(projection: projection)
        // Squares either side of the antimeridian and across it, one with a hole.
        var plane: [PlanePolygon] = []
        for (lon, lat) in [(178.0, 1.0), (179.9, -2.0), (-179.5, 3.0)] {
            let c = projection.project(latitude: lat, longitude: lon)
            let d = 60_000.0
            plane.append(
                PlanePolygon(
                    exterior: Shapes.rectangle(c.x - d, c.y - d, c.x + d, c.y + d),
                    holes: lat > 2
                        ? [
                            Shapes.rectangle(
                                c.x - d / 4, c.y - d / 4, c.x + d / 4,
                                c.y + d / 4, clockwise: true)
                        ] : []))
        }
        let whole = plane.flatMap { GeoJSONExport.outputPolygons($0, geometry: geometry) }
        // The same from the polygons unprojected first, as a source of
        // shared rings hands them over.
        var released = plane.map { geometry.raw($0) }
        let made = GeoJSONExport.outputPolygons(releasingRaw: &released, geometry: geometry)
        #expect(made == whole)
        #expect(whole.count > plane.count)  // one was split at ±180°
        #expect(released.allSatisfy { $0.exterior.isEmpty && $0.holes.isEmpty })
    }

    @Test func clippingAUShapeGivesTwoPieces() {
        let u = PlanePolygon(exterior: [
            PlanePoint(x: 0, y: 0), PlanePoint(x: 10, y: 0), PlanePoint(x: 10, y: 10),
            PlanePoint(x: 7, y: 10), PlanePoint(x: 7, y: 3), PlanePoint(x: 3, y: 3),
            PlanePoint(x: 3, y: 10), PlanePoint(x: 0, y: 10)
        ])
        let top = HalfPlaneClipper.clip(u, keeping: .north, of: 5)
        #expect(top.count == 2)
        #expect(abs(top.reduce(0) { $0 + $1.area } - 30) < 1e-12)
        // Entirely on one side: unchanged, or nothing.
        #expect(HalfPlaneClipper.clip(u, keeping: .west, of: 20) == [u])
        #expect(HalfPlaneClipper.clip(u, keeping: .east, of: 20).isEmpty)
    }

    @Test func clippingRandomPolygonsWithHolesKeepsAreaAndValidity() {
        var rng = SplitMix(seed: 99)
        func star(_ cx: Double, _ cy: Double, _ rMin: Double, _ rMax: Double, _ n: Int) -> [PlanePoint] {
            (0..<n).map { k in
                let t = 2 * Double.pi * (Double(k) + 0.8 * rng.unit()) / Double(n)
                let r = rMin + (rMax - rMin) * rng.unit()
                return PlanePoint(x: cx + r * cos(t), y: cy + r * sin(t))
            }
        }
        for trial in 0..<300 {
            let cx = rng.unit() * 4 - 2, cy = rng.unit() * 4 - 2
            let outer = star(cx, cy, 3, 6, 8 + trial % 40)
            // Holes strictly inside the outer star's inner radius.
            let hole1 = Array(star(cx, cy, 0.5, 1.5, 5 + trial % 17).reversed())
            let hole2 = Array(star(cx + 2.2, cy, 0.2, 0.6, 6).reversed())
            let polygon = PlanePolygon(exterior: outer, holes: [hole1, hole2])
            let c = rng.unit() * 6 - 3
            let west = HalfPlaneClipper.clip(polygon, keeping: .west, of: c)
            let east = HalfPlaneClipper.clip(polygon, keeping: .east, of: c)
            let total = (west + east).reduce(0) { $0 + $1.area }
            #expect(abs(total - polygon.area) < 1e-9 * polygon.area, "trial \(trial)")
            for piece in west { #expect(piece.exterior.allSatisfy { $0.x <= c }) }
            for piece in east { #expect(piece.exterior.allSatisfy { $0.x >= c }) }
            for piece in west + east {
                let rings = ([piece.exterior] + piece.holes).map { ring in (ring + [ring[0]]).map { [$0.x, $0.y] } }
                let problems = GeoJSONRead.problems(rings, decimals: 12)
                #expect(problems.isEmpty, "trial \(trial): \(problems.prefix(3))")
            }
        }
    }

    @Test func aSharedEdgeIsCutAtTheSamePointFromBothSides() {
        var rng = SplitMix(seed: 12)
        for _ in 0..<1000 {
            let p = PlanePoint(x: 179 + rng.unit(), y: rng.unit() * 10),
                q = PlanePoint(x: 180 + rng.unit(), y: rng.unit() * 10)
            #expect(HalfPlaneClipper.cut(p, q, 180) == HalfPlaneClipper.cut(q, p, 180))
        }
    }

    @Test func aRingWithAHoleAcrossTheAntimeridianIsSplitIntoValidParts() throws {
        // Band 0 of the shapes: a 300 km disc with a 150 km hole, both across
        // ±180°, and a small hole west of it.
        let band = Shapes.bands().bands[0][0]
        let lonLat = LonLatGeometry(projection: Shapes.fiji).polygon(band)
        #expect(lonLat.exterior.contains { $0.x > 180 } && lonLat.exterior.contains { $0.x < 180 })
        let set = ContourSet(thresholds: [1], levels: [[band]], bands: [[band]], isolines: [[]])
        let text = try GeoJSONExport.contours(set, projection: Shapes.fiji, units: "per km²")
        #expect(try GeoJSONRead.allProblems(text).isEmpty)
        let parts = try GeoJSONRead.polygons(try GeoJSONRead.features(text)[0])
        #expect(parts.count == 2)
        // The cut hole became a notch on each side; the small hole stays in the west part.
        let west = try #require(parts.first { $0[0].contains { $0[0] == 180 } })
        let east = try #require(parts.first { $0[0].contains { $0[0] == -180 } })
        #expect(west.count == 2 && east.count == 1)
        for part in parts {
            let xs = part[0].map { $0[0] }
            #expect(xs.max()! - xs.min()! < 180)
        }
        // Nothing is lost: the parts' areas add up to the unsplit polygon's.
        func area(_ polygon: [[[Double]]]) -> Double { polygon.reduce(0) { $0 + GeoJSONRead.signedArea($1) } }
        let whole = lonLat.area
        #expect(abs(area(west) + area(east) - whole) < 1e-4 * whole)
        // The cut points on both sides are the same latitudes.
        let westCut = Set(west[0].filter { $0[0] == 180 }.map { $0[1] })
        let eastCut = Set(east[0].filter { $0[0] == -180 }.map { $0[1] })
        #expect(westCut == eastCut && westCut.count == 4)
        // The bbox crosses ±180°.
        let bbox = try #require(try GeoJSONRead.collection(text)["bbox"] as? [Double])
        #expect(bbox[0] > 0 && bbox[2] < 0)
    }

    @Test func neighbouringBandsStillShareTheirCutBoundary() throws {
        let text = try GeoJSONExport.contours(Shapes.bands(), projection: Shapes.fiji, units: "per km²")
        let features = try GeoJSONRead.features(text)
        #expect(try GeoJSONRead.allProblems(text).isEmpty)
        // Band 1's outer rings (its hole, the inner disc, became notches in
        // them) are made of band 0's and band 2's positions, cut points included.
        func positions(_ f: [String: Any]) throws -> Set<[Double]> {
            Set(try GeoJSONRead.polygons(f).flatMap { $0.flatMap { $0 } })
        }
        let band0 = try positions(features[0]), band2 = try positions(features[2])
        let band1Outer = try GeoJSONRead.polygons(features[1]).flatMap { $0[0] }
        #expect(Set(band1Outer.filter { abs($0[0]) == 180 }).count == 8)
        #expect(band1Outer.allSatisfy { band0.contains($0) || band2.contains($0) })
        #expect(band1Outer.contains { band0.contains($0) } && band1Outer.contains { band2.contains($0) })
    }

    @Test func eachPolygonLiesInOneWindowAfterUnwrapping() throws {
        // Centred east of ±180° the same shapes still split cleanly.
        let projection = PlaneProjection(kind: .equalArea, centreLatitude: 52, centreLongitude: -179.7)
        for mode in [ContourMode.bands, .levels] {
            let text = try GeoJSONExport.contours(Shapes.bands(), projection: projection, units: "u", mode: mode)
            #expect(try GeoJSONRead.allProblems(text).isEmpty)
        }
    }

    @Test func aRingAroundThePoleBecomesOneCap() throws {
        let projection = PlaneProjection(kind: .equalArea, centreLatitude: 88, centreLongitude: 10)
        let cap = PlanePolygon(
            exterior: Shapes.circle(0, 0, 400_000, 200),
            holes: [Shapes.circle(-50_000, 0, 60_000, 40, clockwise: true)])
        let set = ContourSet(thresholds: [1], levels: [[cap]], bands: [[cap]], isolines: [[cap.exterior]])
        let text = try GeoJSONExport.contours(set, projection: projection, units: "u")
        #expect(try GeoJSONRead.allProblems(text).isEmpty)
        let polygons = try GeoJSONRead.polygons(try GeoJSONRead.features(text)[0])
        #expect(polygons.count == 1 && polygons[0].count == 2)
        let exterior = polygons[0][0]
        #expect(exterior.contains([180, 90]) && exterior.contains([-180, 90]))
        #expect(exterior.allSatisfy { $0[1] > 80 })
        let lines = try GeoJSONRead.lines(
            try GeoJSONRead.features(
                GeoJSONExport.contours(set, projection: projection, units: "u", mode: .isolines))[0])
        #expect(lines.allSatisfy { $0.allSatisfy { abs($0[0]) <= 180 } })
    }

    @Test func splitterWindows() {
        #expect(AntimeridianSplitter.windows(PlaneBox(minX: 170, minY: 0, maxX: 180, maxY: 1)) == 0...0)
        #expect(AntimeridianSplitter.windows(PlaneBox(minX: 170, minY: 0, maxX: 190, maxY: 1)) == 0...1)
        #expect(AntimeridianSplitter.windows(PlaneBox(minX: 180, minY: 0, maxX: 190, maxY: 1)) == 1...1)
        #expect(AntimeridianSplitter.windows(PlaneBox(minX: -200, minY: 0, maxX: -170, maxY: 1)) == -1...0)
    }

    /// A polygon in window 0 and off the poles is appended as it is; one
    /// the windows put in window 1 (a box from longitude 180 on, though
    /// within ±180) is shifted, one past a pole is cut.
    @Test func onlyPolygonsInWindowZeroGoInAsTheyAre() {
        func triangle(_ x0: Double, _ x1: Double, _ y0: Double, _ y1: Double) -> PlanePolygon {
            PlanePolygon(exterior: [
                PlanePoint(x: x0, y: y0), PlanePoint(x: x1, y: y0), PlanePoint(x: x1, y: y1)
            ])
        }
        let before = triangle(0, 1, 0, 1)
        func split(_ polygon: PlanePolygon) -> [PlanePolygon] {
            var out = [before]
            AntimeridianSplitter.split(polygon, bounds: polygon.bounds, into: &out)
            #expect(out.first == before)
            return Array(out.dropFirst())
        }
        let inside = triangle(-180, 179.5, -90, 90)
        #expect(split(inside) == [inside])
        // (180 + 180) / 360 = 1: window 1, shifted by −360.
        let hair = triangle(180, 180, 10, 11)
        #expect(AntimeridianSplitter.windows(hair.bounds) == 1...1)
        #expect(split(hair).map { $0.exterior.map(\.x) } == [hair.exterior.map { $0.x - 360 }])
        let beyond = triangle(170, 175, 80, 95)
        let cut = split(beyond)
        #expect(cut.count == 1)
        #expect(cut.allSatisfy { $0.exterior.allSatisfy { $0.y <= 90 } })
        #expect(split(triangle(170, 190, 0, 1)).count == 2)
    }
}
