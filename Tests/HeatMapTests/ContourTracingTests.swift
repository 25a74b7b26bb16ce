import Foundation
import Testing

@testable import HeatMapContouring
@testable import HeatMapCore
@testable import HeatMapDensity
@testable import HeatMapFormats

/// Marching squares on hand-built grids with known answers (docs/contour-rules.md).
@Suite struct ContourTracingTests {
    @Test func singlePeakIsOneCounterClockwiseRing() throws {
        // exp(−d²/18) ≥ ½ inside the circle of radius 3·√(2 ln 2) ≈ 3.532.
        let grid = ContourFixture.grid(columns: 21, rows: 21) { x, y in
            let d2 = (x - 10) * (x - 10) + (y - 10) * (y - 10)
            return exp(-d2 / 18)
        }
        let set = try ContourBuilder.build(grid: grid, thresholds: [0.5], smoother: .none)
        #expect(set.levels[0].count == 1)
        let polygon = try #require(set.levels[0].first)
        #expect(polygon.holes.isEmpty)
        #expect(PlaneRing.signedArea(polygon.exterior) > 0)
        let expected = Double.pi * 18 * log(2.0)
        #expect(abs(polygon.area - expected) / expected < 0.02)
        #expect(set.isolines[0].count == 1)
        #expect(set.bands[0] == set.levels[0])
        #expect(PolygonValidator.problems(polygon).isEmpty)
    }

    @Test func craterHasItsDipAsAHoleOfTheSameLevel() throws {
        // A ring-shaped ridge of radius 5: ≥ ½ for |d − 5| ≤ √(2 ln 2) ≈ 1.177.
        let grid = ContourFixture.grid(columns: 21, rows: 21) { x, y in
            let d = ((x - 10) * (x - 10) + (y - 10) * (y - 10)).squareRoot()
            return exp(-(d - 5) * (d - 5) / 2)
        }
        let set = try ContourBuilder.build(grid: grid, thresholds: [0.3, 0.5], smoother: .none)
        #expect(set.levels[1].count == 1)
        let annulus = try #require(set.levels[1].first)
        #expect(annulus.holes.count == 1)
        let w = (2 * log(2.0)).squareRoot()
        let outer = Double.pi * (5 + w) * (5 + w), inner = Double.pi * (5 - w) * (5 - w)
        #expect(abs(PlaneRing.signedArea(annulus.exterior) - outer) / outer < 0.02)
        #expect(abs(-PlaneRing.signedArea(annulus.holes[0]) - inner) / inner < 0.03)
        #expect(PolygonValidator.problems(annulus).isEmpty)
        // Band 0 is level 0 minus level 1: two rings, each with one hole.
        #expect(set.bands[0].count == 2)
        #expect(set.bands[0].allSatisfy { $0.holes.count == 1 })
        #expect(set.isolines[1].count == 2)
    }

    /// A 4 × 4 grid of zeros with a saddle cell between (1, 1) and (2, 2).
    private func saddle(rising: Bool) -> DensityGrid {
        var rows = [[Double]](repeating: [0, 0, 0, 0], count: 4)
        if rising { rows[1][1] = 1; rows[2][2] = 1 } else { rows[1][2] = 1; rows[2][1] = 1 }
        return ContourFixture.grid(rows)
    }

    @Test(arguments: [true, false])
    func saddleBelowTheCentreMeanJoins(rising: Bool) throws {
        // Centre mean ½ ≥ 0.4: the two inside corners are one region.
        let set = try ContourBuilder.build(grid: saddle(rising: rising), thresholds: [0.4], smoother: .none)
        #expect(set.levels[0].count == 1)
        let polygon = try #require(set.levels[0].first)
        #expect(PolygonValidator.locate(PlanePoint(x: 1.5, y: 1.5), polygon.exterior) == 1)
        #expect(polygon.holes.isEmpty)
        #expect(PolygonValidator.problems(polygon).isEmpty)
    }

    @Test(arguments: [true, false])
    func saddleAboveTheCentreMeanSeparates(rising: Bool) throws {
        // Centre mean ½ < 0.6: two separate regions, the centre outside both.
        let set = try ContourBuilder.build(grid: saddle(rising: rising), thresholds: [0.6], smoother: .none)
        #expect(set.levels[0].count == 2)
        for polygon in set.levels[0] {
            #expect(PolygonValidator.locate(PlanePoint(x: 1.5, y: 1.5), polygon.exterior) == -1)
            #expect(PolygonValidator.problems(polygon).isEmpty)
        }
    }

    @Test(arguments: [true, false])
    func saddleLevelsNest(rising: Bool) throws {
        // One rule for every level: the separated pair of level 1 lies inside
        // the joined region of level 0, and the bands tile it.
        let set = try ContourBuilder.build(grid: saddle(rising: rising), thresholds: [0.4, 0.6], smoother: .none)
        #expect(set.levels[0].count == 1 && set.levels[1].count == 2)
        let outer = set.levels[0][0]
        for polygon in set.levels[1] {
            for p in polygon.exterior { #expect(PolygonValidator.locate(p, outer.exterior) == 1) }
        }
        #expect(set.bands[0].count == 1 && set.bands[0][0].holes.count == 2)
        let sum = ContourFixture.area(set.bands[0]) + ContourFixture.area(set.bands[1])
        #expect(abs(sum - ContourFixture.area(set.levels[0])) < 1e-12)
    }

    @Test(arguments: [(0, 0), (2, 0), (2, 2), (0, 2), (1, 0), (2, 1), (1, 2), (0, 1)])
    func regionsAtTheFrameClose(column: Int, row: Int) throws {
        // One node at 1 among zeros, threshold ½: a corner cuts a triangle of
        // area ⅛, a side node a triangle of area ¼; both close along the frame
        // through the node itself.
        var rows = [[Double]](repeating: [0, 0, 0], count: 3)
        rows[row][column] = 1
        let set = try ContourBuilder.build(grid: ContourFixture.grid(rows), thresholds: [0.5], smoother: .none)
        #expect(set.levels[0].count == 1)
        let polygon = try #require(set.levels[0].first)
        let isCorner = (column == 0 || column == 2) && (row == 0 || row == 2)
        #expect(abs(polygon.area - (isCorner ? 0.125 : 0.25)) < 1e-8)
        // The node is on the boundary: a vertex at a box corner, on a straight
        // frame run (collinear nodes are not repeated as vertices) elsewhere.
        let node = PlanePoint(x: Double(column), y: Double(row))
        #expect(PolygonValidator.locate(node, polygon.exterior) == 0)
        #expect(polygon.exterior.contains(node) == isCorner)
        for p in polygon.exterior { #expect(p.x >= 0 && p.x <= 2 && p.y >= 0 && p.y <= 2) }
        #expect(PolygonValidator.problems(polygon).isEmpty)
    }

    @Test func regionAcrossTheGridClosesOnBothSides() throws {
        // The middle row at 1: a strip from x = 0 to x = 4 between y = ½ and 1½.
        let rows: [[Double]] = [[0, 0, 0, 0, 0], [1, 1, 1, 1, 1], [0, 0, 0, 0, 0]]
        let set = try ContourBuilder.build(grid: ContourFixture.grid(rows), thresholds: [0.5], smoother: .none)
        #expect(set.levels[0].count == 1)
        #expect(abs(ContourFixture.area(set.levels[0]) - 4) < 1e-8)
        #expect(set.levels[0].allSatisfy { PolygonValidator.problems($0).isEmpty })
    }

    @Test func wholeFrameInsideIsTheBox() throws {
        let rows: [[Double]] = [[1, 1, 1, 1], [1, 0, 1, 1], [1, 1, 1, 1]]
        let set = try ContourBuilder.build(
            grid: ContourFixture.grid(rows, dx: 2, dy: 0.5, x0: 10, y0: -3),
            thresholds: [0.5], smoother: .none)
        let polygon = try #require(set.levels[0].first)
        #expect(set.levels[0].count == 1)
        #expect(
            polygon.exterior == [
                PlanePoint(x: 10, y: -3), PlanePoint(x: 16, y: -3),
                PlanePoint(x: 16, y: -2), PlanePoint(x: 10, y: -2)
            ])
        // The dip at node (1, 1) is a hole: a diamond of half-diagonals dx/2, dy/2.
        #expect(polygon.holes.count == 1)
        #expect(abs(polygon.area - (6 - 0.5)) < 1e-8)
        #expect(PolygonValidator.problems(polygon).isEmpty)
    }

    @Test func holeInsideHoleInsideHoleNestsByDepth() throws {
        // cos(πd/4) ≥ 0 for d ≤ 2, 6 ≤ d ≤ 10, 14 ≤ d ≤ 18: a disc, two annuli.
        let grid = ContourFixture.grid(columns: 41, rows: 41) { x, y in
            let d = ((x - 20) * (x - 20) + (y - 20) * (y - 20)).squareRoot()
            return d <= 19 ? cos(Double.pi * d / 4) : -1
        }
        let set = try ContourBuilder.build(grid: grid, thresholds: [0], smoother: .none)
        let polygons = set.levels[0].sorted { $0.area < $1.area }
        #expect(polygons.count == 3)
        guard polygons.count == 3 else { return }
        #expect(polygons[0].holes.isEmpty)
        for (k, (outer, inner)) in [(10.0, 6.0), (18.0, 14.0)].enumerated() {
            let polygon = polygons[k + 1]
            #expect(polygon.holes.count == 1)
            let shell = PlaneRing.signedArea(polygon.exterior), hole = -PlaneRing.signedArea(polygon.holes[0])
            #expect(abs(shell - .pi * outer * outer) / (.pi * outer * outer) < 0.02)
            #expect(abs(hole - .pi * inner * inner) / (.pi * inner * inner) < 0.02)
            #expect(PolygonValidator.problems(polygon).isEmpty)
        }
        #expect(set.isolines[0].count == 5)
    }

    @Test func plateauExactlyAtTheThresholdIsInside() throws {
        // A 3 × 3 block at exactly the threshold: the block's square, 2 × 2.
        var rows = [[Double]](repeating: [Double](repeating: 0, count: 7), count: 7)
        for r in 2...4 { for c in 2...4 { rows[r][c] = 1 } }
        let set = try ContourBuilder.build(grid: ContourFixture.grid(rows), thresholds: [1], smoother: .none)
        #expect(set.levels[0].count == 1)
        #expect(abs(ContourFixture.area(set.levels[0]) - 4) < 1e-6)
        #expect(set.levels[0].allSatisfy { PolygonValidator.problems($0).isEmpty })
    }

    @Test func areaFreeSetsAtTheThresholdDrawNothing() throws {
        // A single node, and a line of nodes, exactly at the threshold with
        // everything around below: sets without area give no ring.
        var rows = [[Double]](repeating: [Double](repeating: 0, count: 9), count: 7)
        rows[1][1] = 1
        for c in 3...7 { rows[4][c] = 1 }
        rows[0][8] = 1
        let set = try ContourBuilder.build(grid: ContourFixture.grid(rows), thresholds: [1], smoother: .none)
        #expect(set.levels[0].isEmpty)
        #expect(set.isolines[0].isEmpty)
    }

    @Test func nodesAtTheThresholdOnARamp() throws {
        // f = x on integer columns; threshold 2 is met exactly by column 2:
        // the region is x ≥ 2, area 3 × 4, with no vertex repeated.
        let grid = ContourFixture.grid(columns: 6, rows: 5) { x, _ in x }
        let set = try ContourBuilder.build(grid: grid, thresholds: [2, 3], smoother: .chaikin(iterations: 2))
        #expect(abs(ContourFixture.area(set.levels[0]) - 12) < 1e-6)
        #expect(abs(ContourFixture.area(set.levels[1]) - 8) < 1e-6)
        for polygon in (set.levels + set.bands).flatMap({ $0 }) {
            #expect(PolygonValidator.problems(polygon).isEmpty)
        }
    }

    @Test func undefinedNodesAreBelowEveryThreshold() throws {
        var rows = [[Double]](repeating: [Double](repeating: 1, count: 5), count: 5)
        rows[2][2] = .nan
        rows[0][0] = .nan
        let set = try ContourBuilder.build(grid: ContourFixture.grid(rows), thresholds: [0.5, 0.9], smoother: .none)
        for level in set.levels {
            #expect(level.count == 1)
            let polygon = try #require(level.first)
            // A hole round the inner NaN node; the NaN corner is cut off.
            #expect(polygon.holes.count == 1)
            #expect(PolygonValidator.locate(PlanePoint(x: 2, y: 2), polygon.holes[0]) == 1)
            #expect(PolygonValidator.locate(PlanePoint(x: 0.05, y: 0.05), polygon.exterior) == -1)
            #expect(PolygonValidator.problems(polygon).isEmpty)
        }
        // Levels place their crossings apart, so the band between them is valid.
        #expect(!set.bands[0].isEmpty)
        for polygon in set.bands[0] { #expect(PolygonValidator.problems(polygon).isEmpty) }
        let total = ContourFixture.area(set.bands[0]) + ContourFixture.area(set.bands[1])
        #expect(abs(total - ContourFixture.area(set.levels[0])) < 1e-9)
    }

    @Test func allUndefinedGridHasNoContours() throws {
        let rows = [[Double]](repeating: [.nan, .nan, .nan], count: 3)
        let set = try ContourBuilder.build(grid: ContourFixture.grid(rows), thresholds: [0.5], smoother: .none)
        #expect(set.levels == [[]] && set.bands == [[]] && set.isolines == [[]])
    }

    @Test func degenerateGridsGiveEmptyLevels() throws {
        let line = ContourFixture.grid([[0, 1, 2, 1, 0]])
        let set = try ContourBuilder.build(grid: line, thresholds: [0.5, 1.5], smoother: .none)
        #expect(set.levels.count == 2 && set.levels.allSatisfy(\.isEmpty))
        let none = try ContourBuilder.build(grid: line, thresholds: [], smoother: .none)
        #expect(none.levels.isEmpty && none.bands.isEmpty && none.isolines.isEmpty)
    }

    @Test(arguments: [[1.0, 1.0], [2.0, 1.0], [.nan], [0.5, .infinity]])
    func badThresholdsAreRefused(thresholds: [Double]) {
        let grid = ContourFixture.grid([[0, 1], [1, 0]])
        #expect(throws: HeatMapError.self) {
            try ContourBuilder.build(grid: grid, thresholds: thresholds, smoother: .none)
        }
    }

    @Test func cancelledBuildThrows() {
        let flag = CancellationFlag()
        flag.cancel()
        let grid = ContourFixture.randomGrid(seed: 1, columns: 40, rows: 40)
        #expect(throws: CancellationError.self) {
            try ContourBuilder.build(
                grid: grid, thresholds: [0.1, 0.2], smoother: .chaikin(),
                control: ComputeControl(cancellation: flag))
        }
    }

    @Test func progressCoversTheThreeStages() throws {
        let seen = ProgressLog()
        let control = ComputeControl(progress: { seen.append($0) })
        let grid = ContourFixture.randomGrid(seed: 2, columns: 30, rows: 30)
        _ = try ContourBuilder.build(grid: grid, thresholds: [0.1, 0.3, 0.5], smoother: .chaikin(), control: control)
        let reports = seen.all
        for stage in [HeatMapStage.contour, .smooth, .assemble] {
            #expect(reports.contains { $0.stage == stage && $0.fraction == 1 })
        }
    }
}

/// Collects progress reports from any thread.
final class ProgressLog: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [HeatMapProgress] = []
    func append(_ p: HeatMapProgress) { lock.lock(); items.append(p); lock.unlock() }
    var all: [HeatMapProgress] { lock.lock(); defer { lock.unlock() }; return items }
}
