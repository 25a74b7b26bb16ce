import Foundation
import Testing

@testable import HeatMapContouring
@testable import HeatMapCore

/// `LonLatGeometry.measuredPolygon(raw:)` measures each ring while it
/// unwraps it: the orientation it picks and the box it returns must be
/// those of the rings' own definitions (``PlaneRing/signedArea(_:)`` and
/// ``PlaneRing/bounds(_:)`` of the unwrapped ring), bit for bit, or the
/// exports would change.
@Suite struct LonLatMeasureTests {
    /// A raw ring as the unprojection gives it: longitudes in ±180°, a walk
    /// that may cross the antimeridian; near-flat rings (a hair off a line,
    /// where the summation order decides the area's sign), rings with
    /// repeats, two-position rings and a position that is not finite.
    static func rawRing(_ kind: Int, _ random: inout SplitMixGenerator) -> [PlanePoint] {
        let n = kind == 0 ? 2 : 3 + Int(random.next() % 40)
        var lon = 170 + 20 * random.nextUnit(), lat = -30 + 20 * random.nextUnit()
        var ring: [PlanePoint] = []
        let (dx, dy) = (random.nextUnit() - 0.5, random.nextUnit() - 0.5)
        for i in 0..<n {
            switch kind {
            case 1:
                // Along a line, a few ulps off it.
                let t = Double(i)
                lon = 175 + t * dx
                lat = -20 + t * dy + Double(Int(random.next() % 5) - 2) * 1e-15
            default:
                lon += 3 * (random.nextUnit() - 0.5)
                lat += 3 * (random.nextUnit() - 0.5)
            }
            var x = lon.truncatingRemainder(dividingBy: 360)
            if x > 180 { x -= 360 }
            ring.append(PlanePoint(x: x, y: lat))
            if kind == 2, i == n / 2 { ring.append(ring[ring.count - 1]) }
        }
        if kind == 3 { ring[Int(random.next() % UInt64(n))].x = .nan }
        return ring
    }

    /// The definition: each longitude continued the short way from the one before.
    static func unwrapped(_ raw: [PlanePoint]) -> [PlanePoint] {
        var out = raw
        for i in out.indices.dropFirst() {
            out[i].x = out[i - 1].x + LonLatGeometry.step(raw[i].x - raw[i - 1].x)
        }
        return out
    }

    static func sameBits(_ a: PlaneBox, _ b: PlaneBox) -> Bool {
        [a.minX, a.maxX, a.minY, a.maxY].map(\.bitPattern) == [b.minX, b.maxX, b.minY, b.maxY].map(\.bitPattern)
    }

    @Test(arguments: 0..<4)
    func orientationAndBoxAreThoseOfTheDefinitions(kind: Int) {
        let geometry = LonLatGeometry(projection: Shapes.fiji)
        var random = SplitMixGenerator(seed: 29 + UInt64(kind))
        var reversed = 0
        for _ in 0..<400 {
            let exterior = Self.rawRing(kind, &random), hole = Self.rawRing(kind, &random)
            let (polygon, bounds, _) = geometry.measuredPolygon(raw: PlanePolygon(exterior: exterior, holes: [hole]))
            let outer = Self.unwrapped(exterior)
            // Kept as it runs unless its area is below zero.
            let expected = PlaneRing.signedArea(outer) < 0 ? Array(outer.reversed()) : outer
            if PlaneRing.signedArea(outer) < 0 { reversed += 1 }
            #expect(polygon.exterior.map(\.x.bitPattern) == expected.map(\.x.bitPattern))
            #expect(polygon.exterior.map(\.y) == expected.map(\.y))
            #expect(Self.sameBits(bounds, PlaneRing.bounds(polygon.exterior)))
            #expect(Self.sameBits(bounds, polygon.bounds))
            // A hole runs clockwise: reversed when its area is above zero.
            let inner = Self.unwrapped(hole)
            let expectedHole = PlaneRing.signedArea(inner) > 0 ? Array(inner.reversed()) : inner
            #expect(polygon.holes.count == 1)
            // Shifted by whole turns into the exterior's longitudes.
            let box = PlaneRing.bounds(expected), hb = PlaneRing.bounds(expectedHole)
            let turns = (((box.minX + box.maxX) / 2 - (hb.minX + hb.maxX) / 2) / 360).rounded()
            let shifted = turns != 0 ? expectedHole.map { PlanePoint(x: $0.x + 360 * turns, y: $0.y) } : expectedHole
            #expect(polygon.holes.first?.map(\.x.bitPattern) == shifted.map(\.x.bitPattern))
            #expect(polygon.holes.first?.map(\.y) == shifted.map(\.y))
        }
        // Both orientations came up (the near-flat rings included).
        if kind == 1 || kind == 2 { #expect(reversed > 20 && reversed < 380) }
    }
}
