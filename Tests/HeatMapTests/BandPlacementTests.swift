import Foundation
import Testing

@testable import HeatMapCore
@testable import HeatMapDensity

/// Where the band splat's entries of one radius are placed by the sort
/// (``BandEntry``) against the spans worked out in the splat for a
/// radius each (``SizedBandEntry``).
@Suite struct BandPlacementTests {
    static let frame = BandFrame(
        xAxis: GaussianAxis(origin: 0, step: 1, count: 40, sigma: 2, reach: 6),
        yAxis: GaussianAxis(origin: 0, step: 0.5, count: 30, sigma: 2, reach: 6), maximumRadius: 6)

    @Test func anEntryKeepsItsFirstNodesAndOffsetsAndFindsItsLastOnes() throws {
        let entry = BandEntry(x: 10.25, y: 5.5, radius: 6, scaledWeight: 4, frame: Self.frame)
        #expect(entry.column == 5 && entry.row == 0)
        #expect(entry.fx == 5.25 && entry.fy == 11)
        #expect(entry.root == Float(2.0.squareRoot()))
        let f = try #require(entry.footprint(in: Self.frame))
        // Row 23 lies exactly one radius away, where the quartic is 0: the
        // last nodes are found in single precision, which may stop short of it.
        #expect(f.lastColumn == 16 && (f.lastRow == 23 || f.lastRow == 22))
        #expect(f.stepAcross == Float(1.0 / 6) && f.stepDown == Float(0.5 / 6))
        // At the grid's edges the spans are clamped.
        let corner = try #require(
            BandEntry(x: 38.5, y: 14.2, radius: 6, scaledWeight: 1, frame: Self.frame).footprint(in: Self.frame))
        #expect(corner.column == 33 && corner.lastColumn == 39)
        #expect(corner.row == 17 && corner.lastRow == 29)
    }

    @Test func aDiscBetweenNodesAddsNothing() {
        let narrow = BandFrame(xAxis: Self.frame.xAxis, yAxis: Self.frame.yAxis, maximumRadius: 0.2)
        let entry = BandEntry(x: 4.5, y: 5, radius: 0.2, scaledWeight: 1, frame: narrow)
        #expect(entry.root == 0)
    }

    @Test func placedFootprintsAreTheSplatsOwn() throws {
        var rng = SplitMixGenerator(seed: 9)
        for _ in 0..<5000 {
            let x = Double.random(in: -5...44, using: &rng), y = Double.random(in: -5...19, using: &rng)
            let placed = BandEntry(x: x, y: y, radius: 6, scaledWeight: 1, frame: Self.frame)
            let sized = SizedBandEntry(x: x, y: y, radius: 6, scaledWeight: 1, frame: Self.frame)
            guard let expected = sized.footprint(in: Self.frame) else {
                #expect(placed.root == 0)
                continue
            }
            let f = try #require(placed.footprint(in: Self.frame))
            #expect(f.column == expected.column && f.row == expected.row)
            #expect(f.fx == expected.fx && f.fy == expected.fy)
            // The last nodes come from single precision: the same but where
            // the disc's edge is within a float's rounding of a node.
            let rightEdge = x + 6, topEdge = (y + 6) / 0.5
            #expect(f.lastColumn == expected.lastColumn || abs(rightEdge - rightEdge.rounded()) < 1e-5)
            #expect(f.lastRow == expected.lastRow || abs(topEdge - topEdge.rounded()) < 1e-5)
        }
    }

    @Test func entriesOfARadiusEachAreWhereTheSplatWouldPlaceThem() throws {
        var rng = SplitMixGenerator(seed: 12)
        for _ in 0..<5000 {
            let x = Double.random(in: -5...44, using: &rng), y = Double.random(in: -5...19, using: &rng)
            // Some at the frame's largest radius, whose steps the frame keeps.
            let r = Bool.random(using: &rng) ? 6 : Double.random(in: 0.1...6, using: &rng)
            let placed = PlacedBandEntry(x: x, y: y, radius: r, scaledWeight: 2, frame: Self.frame)
            let sized = SizedBandEntry(x: x, y: y, radius: r, scaledWeight: 2, frame: Self.frame)
            guard let expected = sized.footprint(in: Self.frame) else {
                #expect(placed.root == 0)
                continue
            }
            #expect(placed.root == sized.root)
            let f = try #require(placed.footprint(in: Self.frame))
            #expect(f.column == expected.column && f.row == expected.row)
            #expect(f.lastColumn == expected.lastColumn && f.lastRow == expected.lastRow)
            #expect(f.fx == expected.fx && f.fy == expected.fy)
            #expect(f.stepAcross == expected.stepAcross && f.stepDown == expected.stepDown)
        }
        #expect(MemoryLayout<PlacedBandEntry>.stride < MemoryLayout<SizedBandEntry>.stride)
    }
}
