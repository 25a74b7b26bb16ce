import Foundation
import Testing

@testable import HeatMapContouring
@testable import HeatMapCore
@testable import HeatMapDensity
@testable import HeatMapFormats

@Suite struct HexGridTests {
    let s3 = 3.0.squareRoot()

    @Test func pointySevenCellNeighbourhood() throws {
        let grid = try HexGrid(radius: 1, orientation: .pointy)
        // The article's layout: centre and six neighbours at distance √3.
        let expected: [(HexCell, Double, Double)] = [
            (HexCell(q: 0, r: 0), 0, 0),
            (HexCell(q: 1, r: 0), s3, 0), (HexCell(q: 0, r: 1), s3 / 2, 1.5), (HexCell(q: -1, r: 1), -s3 / 2, 1.5),
            (HexCell(q: -1, r: 0), -s3, 0), (HexCell(q: 0, r: -1), -s3 / 2, -1.5), (HexCell(q: 1, r: -1), s3 / 2, -1.5)
        ]
        for (cell, x, y) in expected {
            let c = grid.center(of: cell)
            #expect(abs(c.x - x) < 1e-12 && abs(c.y - y) < 1e-12, "centre of \(cell) is \(c)")
            #expect(grid.cell(containing: c) == cell)
        }
        #expect(grid.neighbors(of: HexCell(q: 0, r: 0)) == expected.dropFirst().map(\.0))
        for n in grid.neighbors(of: HexCell(q: 0, r: 0)) { #expect(n.distance(to: HexCell(q: 0, r: 0)) == 1) }
    }

    @Test func flatSevenCellNeighbourhood() throws {
        let grid = try HexGrid(radius: 2, orientation: .flat)
        let expected: [(HexCell, Double, Double)] = [
            (HexCell(q: 0, r: 0), 0, 0),
            (HexCell(q: 1, r: 0), 3, s3), (HexCell(q: 0, r: 1), 0, 2 * s3), (HexCell(q: -1, r: 1), -3, s3),
            (HexCell(q: -1, r: 0), -3, -s3), (HexCell(q: 0, r: -1), 0, -2 * s3), (HexCell(q: 1, r: -1), 3, -s3)
        ]
        for (cell, x, y) in expected {
            let c = grid.center(of: cell)
            #expect(abs(c.x - x) < 1e-12 && abs(c.y - y) < 1e-12, "centre of \(cell) is \(c)")
            #expect(grid.cell(containing: c) == cell)
            // Neighbours are counter-clockwise: their angles increase.
        }
        let angles = grid.neighbors(of: HexCell(q: 0, r: 0)).map { n -> Double in
            let c = grid.center(of: n)
            return atan2(c.y, c.x) < 0 ? atan2(c.y, c.x) + 2 * .pi : atan2(c.y, c.x)
        }
        #expect(angles == angles.sorted())
    }

    @Test(arguments: [HexOrientation.pointy, .flat])
    func centreRoundTripForThousandsOfCells(_ orientation: HexOrientation) throws {
        for radius in [0.37, 1, 25_000] {
            let grid = try HexGrid(radius: radius, orientation: orientation)
            for q in -40...40 {
                for r in -40...40 {
                    let cell = HexCell(q: q, r: r)
                    #expect(grid.cell(containing: grid.center(of: cell)) == cell)
                }
            }
            // Far from the origin too.
            for (q, r) in [(1_000_000, -3), (-777_777, 555_555), (123_456, 654_321)] {
                let cell = HexCell(q: q, r: r)
                #expect(grid.cell(containing: grid.center(of: cell)) == cell)
            }
        }
    }

    @Test(arguments: [HexOrientation.pointy, .flat])
    func pointsInsideACellLandInIt(_ orientation: HexOrientation) throws {
        let grid = try HexGrid(radius: 3, orientation: orientation)
        var rng = SplitMix(seed: 7)
        for _ in 0..<5000 {
            let cell = HexCell(q: Int(rng.next() % 41) - 20, r: Int(rng.next() % 41) - 20)
            let c = grid.center(of: cell)
            // A point within the inscribed circle (radius R√3/2) less a margin.
            let t = rng.unit() * 2 * .pi, d = rng.unit() * 0.86 * 3 * s3 / 2
            #expect(grid.cell(containing: PlanePoint(x: c.x + d * cos(t), y: c.y + d * sin(t))) == cell)
        }
    }

    @Test(arguments: [HexOrientation.pointy, .flat])
    func edgeAndCornerPointsLandInOneConsistentCell(_ orientation: HexOrientation) throws {
        let grid = try HexGrid(radius: 10, orientation: orientation)
        for q in -6...6 {
            for r in -6...6 {
                let cell = HexCell(q: q, r: r)
                let corners = grid.corners(of: cell)
                for k in 0..<6 {
                    let a = corners[k], b = corners[(k + 1) % 6]
                    // A corner belongs to this cell and two neighbours; an edge midpoint to this cell and one.
                    let sharing = [cell] + grid.neighbors(of: cell)
                    let atCorner = try #require(grid.cell(containing: a))
                    let mid = PlanePoint(x: (a.x + b.x) / 2, y: (a.y + b.y) / 2)
                    let atEdge = try #require(grid.cell(containing: mid))
                    #expect(sharing.contains(atCorner))
                    #expect(sharing.contains(atEdge))
                    // The same point always gets the same cell, through every path.
                    #expect(grid.cell(containing: a) == atCorner)
                    #expect(BinGrid.hexagon(grid).cell(containing: mid) == BinCellID(atEdge.q, atEdge.r))
                }
            }
        }
        // Binned, each edge or corner point is counted once.
        var binner = try Binner(
            configuration: BinningConfiguration(size: 10, orientation: orientation, projection: .planar),
            projection: PlaneProjection(kind: .planar))
        let corners = grid.corners(of: HexCell(q: 2, r: -1))
        for p in corners { try binner.add(p) }
        let result = try binner.result()
        #expect(result.bins.reduce(0) { $0 + $1.statistics.count } == 6)
        for (k, p) in corners.enumerated() {
            let id = try #require(grid.cell(containing: p))
            #expect(result.bins.contains { $0.id == BinCellID(id.q, id.r) }, "corner \(k)")
        }
    }

    @Test func roundingTiesAreBrokenTheSameWayEverywhere() throws {
        // q exactly half-way (an edge between two cells): rounds up, at any translation.
        #expect(HexGrid.roundHalfUp(0.5) == 1)
        #expect(HexGrid.roundHalfUp(-0.5) == 0)
        #expect(HexGrid.roundHalfUp(7.5) == 8)
        #expect(HexGrid.roundHalfUp(-7.5) == -7)
        #expect(HexGrid.roundHalfUp(0.49999999999999994) == 0)
    }

    @Test(arguments: [HexOrientation.pointy, .flat])
    func cornersAreCounterClockwiseAndShared(_ orientation: HexOrientation) throws {
        let grid = try HexGrid(radius: 4, orientation: orientation)
        let cell = HexCell(q: 3, r: -2)
        let corners = grid.corners(of: cell)
        #expect(corners.count == 6)
        #expect(abs(PlaneRing.signedArea(corners) - grid.cellArea) < 1e-9)
        for c in corners {
            #expect(abs(hypot(c.x - grid.center(of: cell).x, c.y - grid.center(of: cell).y) - 4) < 1e-12)
        }
        // Every neighbour has exactly two of these corners, bit for bit.
        for n in grid.neighbors(of: cell) {
            let shared = grid.corners(of: n).filter { corners.contains($0) }
            #expect(shared.count == 2)
        }
    }

    @Test(arguments: [HexOrientation.pointy, .flat])
    func cellsCoveringABox(_ orientation: HexOrientation) throws {
        let grid = try HexGrid(radius: 2, orientation: orientation)
        let box = PlaneBox(minX: -7.3, minY: 1.1, maxX: 12.9, maxY: 9.4)
        let cells = grid.cells(covering: box)
        #expect(cells == cells.sorted())
        #expect(Set(cells).count == cells.count)
        #expect(Double(cells.count) <= grid.candidateCount(covering: box))
        var rng = SplitMix(seed: 3)
        let set = Set(cells)
        for _ in 0..<5000 {
            let p = PlanePoint(x: box.minX + rng.unit() * box.width, y: box.minY + rng.unit() * box.height)
            #expect(set.contains(try #require(grid.cell(containing: p))))
        }
        for cell in cells { #expect(ConvexOverlap.polygon(grid.corners(of: cell), overlaps: box)) }
        // About box area / cell area, plus a rim.
        let expected = box.width * box.height / grid.cellArea
        #expect(Double(cells.count) > expected && Double(cells.count) < expected * 2)
        // A degenerate box still has its cell.
        let point = PlaneBox(minX: 5, minY: 5, maxX: 5, maxY: 5)
        #expect(grid.cells(covering: point) == [grid.cell(containing: PlanePoint(x: 5, y: 5))!])
    }

    @Test func badSizesAreRefused() {
        for size in [0, -1, .nan, .infinity] {
            #expect(throws: HeatMapError.self) { try HexGrid(radius: size) }
            #expect(throws: HeatMapError.self) { try SquareGrid(side: size) }
            #expect(throws: HeatMapError.self) { try BinningConfiguration(size: size).grid() }
        }
    }

    @Test func farAndNonFinitePointsHaveNoCell() throws {
        let grid = try HexGrid(radius: 1e-9)
        #expect(grid.cell(containing: PlanePoint(x: 1e300, y: 0)) == nil)
        #expect(grid.cell(containing: PlanePoint(x: .nan, y: 0)) == nil)
        #expect(grid.cell(containing: PlanePoint(x: 0, y: -.infinity)) == nil)
        #expect(try SquareGrid(side: 1e-9).cell(containing: PlanePoint(x: 1e300, y: 1)) == nil)
    }

    @Test func squaresFloor() throws {
        let grid = try SquareGrid(side: 2.5)
        #expect(grid.cell(containing: PlanePoint(x: 0, y: 0)) == SquareCell(i: 0, j: 0))
        #expect(grid.cell(containing: PlanePoint(x: 2.5, y: 2.4999)) == SquareCell(i: 1, j: 0))
        #expect(grid.cell(containing: PlanePoint(x: -0.0001, y: -2.5)) == SquareCell(i: -1, j: -1))
        #expect(grid.cell(containing: PlanePoint(x: -2.5001, y: 7.5)) == SquareCell(i: -2, j: 3))
        let cell = SquareCell(i: -3, j: 4)
        #expect(grid.center(of: cell) == PlanePoint(x: -6.25, y: 11.25))
        #expect(PlaneRing.signedArea(grid.corners(of: cell)) == 6.25)
        // x = 5 lies on the edge between i = 1 and i = 2 and belongs to i = 2.
        #expect(grid.cells(covering: PlaneBox(minX: -0.1, minY: 0, maxX: 5, maxY: 2)).map(\.i) == [-1, 0, 1, 2])
    }
}
