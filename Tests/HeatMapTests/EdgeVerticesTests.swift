import Foundation
import Testing

@testable import HeatMapContouring
@testable import HeatMapCore
@testable import HeatMapDensity
@testable import HeatMapFormats

/// Traced vertices stored as a grid edge and the coordinate along it
/// (``EdgeVertices``): positions read back bit for bit, and the cells and
/// row crossings that follow from the edges are the ones marching squares
/// walked through.
@Suite struct EdgeVerticesTests {
    /// Geometries with awkward origins and spacings, so that rounding in
    /// `origin + (index + f) · spacing` shows if the stored form lost
    /// anything; wide enough to have node indices on both sides of
    /// ``EdgeVertices/exactFrom`` and up to 2^16.
    private static let geometries = [
        GridGeometry(columns: 7, rows: 5, x0: 0, y0: 0, dx: 1, dy: 1),
        GridGeometry(columns: 4001, rows: 2999, x0: -20_037_508.342789244, y0: 1e-7, dx: 0.1, dy: 1.0 / 3),
        GridGeometry(columns: 65_537, rows: 40, x0: 179.99999999999997, y0: -89.99, dx: 1e-9, dy: 7.25e3)
    ]

    /// Fractions as the crossing rule makes them, and the extremes.
    private func fraction(_ rng: inout SplitMix) -> Double {
        switch rng.next() % 8 {
        case 0: return CrossingRule.epsilon
        case 1: return 1 - CrossingRule.epsilon
        case 2: return [0, 1, 0.5, 1e-300, 0x1p-52, 1 - 0x1p-53][Int(rng.next() % 6)]
        default: return CrossingRule.fraction(rng.unit() * 10, -rng.unit() * 10, 0)
        }
    }

    /// The sides of cell (c, r): bottom, right, top, left.
    private func sides(column c: Int, row r: Int) -> [EdgeSpot] {
        [
            EdgeSpot(vertical: false, column: c, row: r), EdgeSpot(vertical: true, column: c + 1, row: r),
            EdgeSpot(vertical: false, column: c, row: r + 1), EdgeSpot(vertical: true, column: c, row: r)
        ]
    }

    /// A random walk from edge to edge through cells, as marching squares
    /// makes one, restarting at a random edge every so often; and where
    /// each new piece begins.
    private func walk(_ g: GridGeometry, count: Int, rng: inout SplitMix) -> (spots: [EdgeSpot], starts: Set<Int>) {
        func randomEdge() -> EdgeSpot {
            rng.next() & 1 == 0
                ? EdgeSpot(
                    vertical: false, column: Int(rng.next() % UInt64(g.columns - 1)),
                    row: Int(rng.next() % UInt64(g.rows)))
                : EdgeSpot(
                    vertical: true, column: Int(rng.next() % UInt64(g.columns)),
                    row: Int(rng.next() % UInt64(g.rows - 1)))
        }
        var spots: [EdgeSpot] = [], starts: Set<Int> = [0]
        var s = randomEdge()
        spots.append(s)
        while spots.count < count {
            // The cells beside the edge that lie in the grid.
            var cells: [(Int, Int)] = []
            if s.vertical {
                if s.column < g.columns - 1 { cells.append((s.column, s.row)) }
                if s.column > 0 { cells.append((s.column - 1, s.row)) }
            } else {
                if s.row < g.rows - 1 { cells.append((s.column, s.row)) }
                if s.row > 0 { cells.append((s.column, s.row - 1)) }
            }
            if rng.next() % 50 == 0 || cells.isEmpty {
                starts.insert(spots.count)
                s = randomEdge()
            } else {
                let (c, r) = cells[Int(rng.next() % UInt64(cells.count))]
                let others = sides(column: c, row: r).filter { $0 != s }
                s = others[Int(rng.next() % 3)]
            }
            spots.append(s)
        }
        return (spots, starts)
    }

    @Test(arguments: 0..<3)
    func positionsRoundTripExactly(geometry index: Int) {
        let g = Self.geometries[index]
        var rng = SplitMix(seed: UInt64(index) + 11)
        // Walks near the low corner (side sums), then anywhere.
        var (spots, starts) = walk(
            GridGeometry(columns: min(g.columns, 40), rows: min(g.rows, 40), x0: 0, y0: 0, dx: 1, dy: 1),
            count: 1500, rng: &rng)
        let rest = walk(g, count: 3000, rng: &rng)
        starts.formUnion(rest.starts.map { $0 + spots.count })
        spots += rest.spots
        var vertices = EdgeVertices(geometry: g)
        var expected: [PlanePoint] = []
        for (v, s) in spots.enumerated() {
            if starts.contains(v) { vertices.beginPiece() }
            let f = fraction(&rng)
            let p =
                s.vertical
                ? vertices.append(row: s.row, column: s.column, fractionAlongY: f)
                : vertices.append(row: s.row, column: s.column, fractionAlongX: f)
            expected.append(
                s.vertical
                    ? PlanePoint(x: g.x0 + Double(s.column) * g.dx, y: g.y0 + (Double(s.row) + f) * g.dy)
                    : PlanePoint(x: g.x0 + (Double(s.column) + f) * g.dx, y: g.y0 + Double(s.row) * g.dy))
            #expect(p.x.bitPattern == expected[v].x.bitPattern && p.y.bitPattern == expected[v].y.bitPattern)
        }
        #expect(vertices.count == expected.count)
        // Every step within a cell has its code: only piece starts are kept whole.
        #expect(vertices.restartCount == starts.count)
        for (v, p) in expected.enumerated() {
            let q = vertices.point(v)
            #expect(q.x.bitPattern == p.x.bitPattern && q.y.bitPattern == p.y.bitPattern, "vertex \(v)")
            #expect(vertices.spot(v) == spots[v], "vertex \(v)")
        }
        // Walking a range gives what random access gives.
        for range in [0..<spots.count, 15..<17, 63..<65, 100..<1000, 1499..<1501] {
            var seen: [PlanePoint] = []
            vertices.forEachPoint(range) { v, p in
                #expect(p == expected[v])
                seen.append(p)
            }
            #expect(seen.count == range.count)
        }
        // A window of neighbours, as the smoothing guard reads one.
        for v in stride(from: 0, to: spots.count - 4, by: 37) {
            let w = vertices.window(from: v, count: 4), three = vertices.window(from: v, count: 3)
            #expect([w.0, w.1, w.2, w.3] == Array(expected[v..<(v + 4)]))
            #expect(
                [three.0, three.1, three.2, three.3] == [expected[v], expected[v + 1], expected[v + 2], expected[v + 2]]
            )
        }
        // Dropping a tail (a rolled-back ring) keeps the rest; the next vertex starts a piece.
        for cut in [1234, 1217, 1152] {
            vertices.removeLast(from: cut)
            #expect(vertices.count == cut)
            for v in [0, 1, 2, 7, 8, 9, 15, 16, 17, 63, 64, 65, cut - 2, cut - 1] {
                #expect(vertices.point(v) == expected[v])
            }
            let p = vertices.append(row: 0, column: 0, fractionAlongX: 0.25)
            #expect(vertices.point(cut) == p && p.x == g.x0 + 0.25 * g.dx && vertices.spot(cut).column == 0)
            vertices.removeLast(from: cut)
        }
    }

    @Test func everySideOfACellNamesIt() {
        let g = GridGeometry(columns: 5, rows: 4, x0: 0, y0: 0, dx: 1, dy: 1)
        for r in 0..<(g.rows - 1) {
            for c in 0..<(g.columns - 1) {
                let vertices = EdgeVertices(geometry: g), edges = sides(column: c, row: r)
                for a in 0..<4 {
                    for b in 0..<4 where a != b {
                        #expect(vertices.cell(from: edges[a], to: edges[b]) == r * (g.columns - 1) + c)
                    }
                }
            }
        }
    }

    @Test(arguments: UInt64(40)...45)
    func tracedVerticesSitOnTheirEdgesAtTheTracedCrossing(seed: UInt64) throws {
        let grid = ContourFixture.randomGrid(seed: seed, columns: 23 + Int(seed % 3), rows: 17, bumps: 14)
        let g = grid.geometry, columns = g.columns
        let thresholds = ThresholdResolver.thresholds(for: .quantile, levelCount: 6, grid: grid)
        let frame = GridFrame(columns: columns, rows: g.rows)
        let traces = try grid.values.withUnsafeBufferPointer { buffer in
            let bands = try NodeBands(values: buffer, thresholds: thresholds)
            return try thresholds.indices.map {
                try LevelTracer(
                    values: buffer, bands: bands, level: $0, geometry: g, frame: frame,
                    threshold: thresholds[$0], control: .none
                ).trace()
            }
        }
        let v = grid.values
        for trace in traces {
            let t = trace.threshold, vertices = trace.vertices
            #expect(vertices.restartCount == trace.pieceCount)
            var crossings: [(edge: Int32, piece: Int32)] = []
            for p in 0..<trace.pieceCount {
                for i in trace.range(p) {
                    // The crossing as the tracer places it, from the edge's two nodes.
                    let e = Int(vertices.edge(i)), h = g.rows * (columns - 1)
                    let expected: PlanePoint
                    if e < h {
                        let r = e / (columns - 1), c = e % (columns - 1), a = r * columns + c
                        let f = CrossingRule.fraction(v[a], v[a + 1], t)
                        expected = PlanePoint(x: g.x0 + (Double(c) + f) * g.dx, y: g.y0 + Double(r) * g.dy)
                        if !trace.isRemoved[p] && r > 0 && r < g.rows - 1 { crossings.append((Int32(e), Int32(p))) }
                    } else {
                        let r = (e - h) / columns, c = (e - h) % columns, a = r * columns + c
                        let f = CrossingRule.fraction(v[a], v[a + columns], t)
                        expected = PlanePoint(x: g.x0 + Double(c) * g.dx, y: g.y0 + (Double(r) + f) * g.dy)
                    }
                    #expect(trace.point(i) == expected)
                    // Exactly one node of the edge is inside the level.
                    let n0 = e < h ? e / (columns - 1) * columns + e % (columns - 1) : e - h
                    let n1 = e < h ? n0 + 1 : n0 + columns
                    #expect((v[n0] >= t) != (v[n1] >= t))
                }
            }
            // Each segment's cell holds both its ends (on the cell's sides).
            trace.forEachSegment { cell, i in
                let c = cell % (columns - 1), r = cell / (columns - 1)
                let range = trace.range(piece(holding: i, in: trace))
                let j = i + 1 < range.upperBound ? i + 1 : range.lowerBound
                for p in [trace.point(i), trace.point(j)] {
                    #expect(p.x >= g.x0 + Double(c) * g.dx && p.x <= g.x0 + Double(c + 1) * g.dx)
                    #expect(p.y >= g.y0 + Double(r) * g.dy && p.y <= g.y0 + Double(r + 1) * g.dy)
                }
            }
            // The row crossings are exactly the kept pieces' interior horizontal vertices, by edge.
            crossings.sort { $0.edge < $1.edge }
            #expect(trace.hEdges == crossings.map(\.edge))
            #expect(trace.hPieces == crossings.map(\.piece))
        }
    }

    private func piece(holding v: Int, in trace: LevelTrace) -> Int {
        var p = 0
        while Int(trace.pieceStart[p + 1]) <= v { p += 1 }
        return p
    }
}
