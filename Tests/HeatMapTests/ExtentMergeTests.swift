import Foundation
import Testing

@testable import HeatMapContouring
@testable import HeatMapCore
@testable import HeatMapFormats

/// The bbox's longitude ranges are merged as they come: the union must be
/// the one a single sort of every range gives.
@Suite struct ExtentMergeTests {
    /// The union by a sweep over the ranges' ends (not the merge the
    /// export runs): a start opens, an end closes, starts before ends at
    /// one longitude so ranges that touch are one.
    static func union(_ ranges: [(Double, Double)]) -> [(Double, Double)] {
        var events: [(x: Double, step: Int)] = []
        for (west, east) in ranges { events += [(west, 1), (east, -1)] }
        events.sort { a, b in a.x < b.x || (a.x == b.x && a.step > b.step) }
        var union: [(Double, Double)] = []
        var open = 0, west = 0.0
        for (x, step) in events {
            if open == 0 { west = x }
            open += step
            if open == 0 { union.append((west, x)) }
        }
        return union
    }

    @Test(arguments: [10, 1_000, 5_000, 40_000])
    func rangesMergedAsTheyComeMakeTheUnionOfAll(count: Int) {
        var random = SplitMixGenerator(seed: UInt64(count))
        var extent = GeoJSONDocument.Extent(), halves = (GeoJSONDocument.Extent(), GeoJSONDocument.Extent())
        var all: [(Double, Double)] = []
        for k in 0..<count {
            // Narrow ranges in a few clusters, gaps between, some touching.
            let centre = Int64(random.next() % 7) * 50 - 170 + Int64(random.next() % 30)
            let width = Int64(random.next() % 4)
            let ring = [FixedPoint(x: centre, y: Int64(k % 90)), FixedPoint(x: centre + width, y: -Int64(k % 80))]
            extent.add(ring, decimals: 0)
            if k % 2 == 0 { halves.0.add(ring, decimals: 0) } else { halves.1.add(ring, decimals: 0) }
            all.append((Double(centre), Double(centre + width)))
        }
        let expected = Self.union(all)
        #expect(extent.merged.map(\.0) == expected.map(\.0) && extent.merged.map(\.1) == expected.map(\.1))
        // Extents added to one another (the writer's per-feature extents).
        var joined = halves.0
        joined.add(halves.1)
        #expect(joined.merged.map(\.0) == expected.map(\.0) && joined.merged.map(\.1) == expected.map(\.1))
        #expect(extent.xRanges.count <= max(2 * 1024 + 1, 2 * expected.count + 1))
        #expect(extent.yLow == -79 || count < 80)
    }
}
