import Foundation
import Testing

@testable import HeatMapContouring
@testable import HeatMapCore
@testable import HeatMapDensity
@testable import HeatMapFormats

/// Rings to polygons: the frame walk, nesting by row intervals, holes (docs/contour-rules.md).
@Suite struct AssemblyTests {
    @Test func unionFindJoinsSets() {
        var sets = UnionFind(count: 6)
        sets.union(0, 3)
        sets.union(4, 3)
        sets.union(1, 2)
        #expect(sets.find(0) == sets.find(4))
        #expect(sets.find(1) == sets.find(2))
        #expect(sets.find(0) != sets.find(1))
        #expect(sets.find(5) == 5)
    }

    @Test func frameIndexing() {
        let frame = GridFrame(columns: 4, rows: 3)
        #expect(frame.count == 10)
        #expect(frame.corners == (0, 3, 5, 8))
        // Counter-clockwise from the bottom-left corner.
        #expect(
            (0..<10).map { frame.node($0) }.map { [$0.column, $0.row] }
                == [[0, 0], [1, 0], [2, 0], [3, 0], [3, 1], [3, 2], [2, 2], [1, 2], [0, 2], [0, 1]])
        #expect(frame.leftNode(row: 1) == 9 && frame.rightNode(row: 1) == 4)
        // Every frame side of every boundary cell maps to its perimeter edge and back.
        for k in 0..<frame.count {
            let (c, r, side) = frame.cellSide(ofPerimeterEdge: k)
            #expect(frame.perimeterEdge(cellColumn: c, cellRow: r, side: side) == k)
        }
        #expect(frame.perimeterEdge(cellColumn: 1, cellRow: 0, side: 2) == nil)
    }

    @Test func frameRunsPassCornersInOrder() {
        let geometry = GridGeometry(columns: 4, rows: 3, x0: 0, y0: 0, dx: 1, dy: 1)
        do {
            let walk = FrameWalk(frame: GridFrame(columns: 4, rows: 3), geometry: geometry, bands: NodeBands())
            let a = FrameKey(edge: 1, along: 1.5), b = FrameKey(edge: 6, along: -1.5)
            #expect(walk.cornersPassed(from: a, to: b) == [3, 5])
            #expect(walk.nodesPassed(from: a, to: b) == (first: 2, count: 5))
            // Further along the same edge: no node; just behind: the whole frame.
            #expect(walk.cornersPassed(from: a, to: FrameKey(edge: 1, along: 1.7)).isEmpty)
            #expect(walk.cornersPassed(from: a, to: FrameKey(edge: 1, along: 1.2)) == [3, 5, 8, 0])
            #expect(walk.position(ofPerimeterNode: 5) == PlanePoint(x: 3, y: 2))
        }
    }

    @Test func holesBelongToTheirOwnExterior() throws {
        // Two craters side by side, and a peak inside the left crater's dip:
        // each dip is a hole of its own crater; the peak is an island.
        let grid = ContourFixture.grid(columns: 41, rows: 21) { x, y in
            let d1 = ((x - 10) * (x - 10) + (y - 10) * (y - 10)).squareRoot()
            let d2 = ((x - 30) * (x - 30) + (y - 10) * (y - 10)).squareRoot()
            let rims = exp(-(d1 - 6) * (d1 - 6) / 2) + exp(-(d2 - 6) * (d2 - 6) / 2)
            return rims + exp(-d1 * d1 / 2)
        }
        let set = try ContourBuilder.build(grid: grid, thresholds: [0.5], smoother: .chaikin())
        let level = set.levels[0]
        #expect(level.count == 3)
        let craters = level.filter { !$0.holes.isEmpty }
        #expect(craters.count == 2)
        for crater in craters {
            #expect(crater.holes.count == 1)
            let centre = crater.bounds
            let mid = PlanePoint(x: (centre.minX + centre.maxX) / 2, y: (centre.minY + centre.maxY) / 2)
            #expect(PolygonValidator.locate(mid, crater.holes[0]) == 1)
            #expect(PolygonValidator.problems(crater).isEmpty)
        }
        // The island: a polygon of its own, in the left dip, never a filled hole.
        let island = try #require(level.first { $0.holes.isEmpty })
        #expect(PolygonValidator.locate(PlanePoint(x: 10, y: 10), island.exterior) == 1)
        #expect(island.area < 10)
    }

    @Test func manyHolesInOneExterior() throws {
        // A plateau at 1 with a lattice of dips: one polygon, a hole per dip.
        let grid = ContourFixture.grid(columns: 25, rows: 25) { x, y in
            let dx = x.truncatingRemainder(dividingBy: 4) - 2, dy = y.truncatingRemainder(dividingBy: 4) - 2
            return (x >= 2 && x <= 22 && y >= 2 && y <= 22 && dx == 0 && dy == 0) ? 0 : 1
        }
        let set = try ContourBuilder.build(grid: grid, thresholds: [0.5], smoother: .none)
        #expect(set.levels[0].count == 1)
        let polygon = try #require(set.levels[0].first)
        #expect(polygon.holes.count == 36)
        #expect(polygon.holes.allSatisfy { PlaneRing.signedArea($0) < 0 })
        #expect(PolygonValidator.problems(polygon).isEmpty)
        // Band 0 of two levels: the upper level's exteriors become holes.
        let two = try ContourBuilder.build(grid: grid, thresholds: [0.25, 0.75], smoother: .none)
        #expect(two.bands[0].count == 36)
        #expect(two.bands[0].allSatisfy { $0.holes.count == 1 })
    }

    @Test func isolinesAreTheLevelRings() throws {
        let grid = ContourFixture.randomGrid(seed: 8, columns: 30, rows: 24)
        let thresholds = ThresholdResolver.thresholds(for: .linear, levelCount: 4, grid: grid)
        let set = try ContourBuilder.build(grid: grid, thresholds: thresholds, smoother: .chaikin())
        for i in 0..<thresholds.count {
            let rings = set.levels[i].flatMap { [$0.exterior] + $0.holes }
            #expect(Set(rings) == Set(set.isolines[i]))
            #expect(rings.count == set.isolines[i].count)
        }
    }
}
