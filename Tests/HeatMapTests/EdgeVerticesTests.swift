import Foundation
import Testing
@testable import HeatMap

/// Traced vertices stored as a grid edge and the coordinate along it
/// (``EdgeVertices``): positions read back bit for bit, and the cells and
/// row crossings that follow from the edges are the ones marching squares
/// walked through.
@Suite struct EdgeVerticesTests {
    /// Geometries with awkward origins and spacings, so that rounding in
    /// `origin + index · spacing` shows if the stored form lost anything.
    private static let geometries = [
        GridGeometry(columns: 7, rows: 5, x0: 0, y0: 0, dx: 1, dy: 1),
        GridGeometry(columns: 31, rows: 23, x0: -20_037_508.342789244, y0: 1e-7, dx: 0.1, dy: 1.0 / 3),
        GridGeometry(columns: 2, rows: 2, x0: 179.99999999999997, y0: -89.99, dx: 1e-9, dy: 7.25e3),
    ]

    @Test(arguments: 0..<3)
    func positionsRoundTripExactly(geometry index: Int) {
        let g = Self.geometries[index]
        var rng = SplitMix(seed: UInt64(index) + 11)
        var vertices = EdgeVertices(geometry: g)
        var expected: [PlanePoint] = []
        for _ in 0..<500 {
            let f = rng.unit()
            if rng.next() & 1 == 0 {
                let r = Int(rng.next() % UInt64(g.rows)), c = Int(rng.next() % UInt64(g.columns - 1))
                let x = g.x0 + (Double(c) + f) * g.dx
                vertices.append(row: r, column: c, x: x)
                expected.append(PlanePoint(x: x, y: g.y0 + Double(r) * g.dy))
            } else {
                let r = Int(rng.next() % UInt64(g.rows - 1)), c = Int(rng.next() % UInt64(g.columns))
                let y = g.y0 + (Double(r) + f) * g.dy
                vertices.append(row: r, column: c, y: y)
                expected.append(PlanePoint(x: g.x0 + Double(c) * g.dx, y: y))
            }
        }
        #expect(vertices.count == expected.count)
        for (v, p) in expected.enumerated() {
            let q = vertices.point(v)
            #expect(q.x.bitPattern == p.x.bitPattern && q.y.bitPattern == p.y.bitPattern, "vertex \(v)")
        }
        vertices.removeSubrange(100..<300)
        #expect(vertices.count == 300)
        #expect(vertices.point(100) == expected[300] && vertices.point(99) == expected[99])
    }

    @Test func everySideOfACellNamesIt() {
        let g = GridGeometry(columns: 5, rows: 4, x0: 0, y0: 0, dx: 1, dy: 1)
        for r in 0..<(g.rows - 1) {
            for c in 0..<(g.columns - 1) {
                var sides = EdgeVertices(geometry: g)
                sides.append(row: r, column: c, x: Double(c) + 0.5)      // bottom
                sides.append(row: r, column: c + 1, y: Double(r) + 0.5)  // right
                sides.append(row: r + 1, column: c, x: Double(c) + 0.5)  // top
                sides.append(row: r, column: c, y: Double(r) + 0.5)      // left
                for a in 0..<4 {
                    for b in 0..<4 where a != b { #expect(sides.cell(from: a, to: b) == r * (g.columns - 1) + c) }
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
            try thresholds.map {
                try LevelTracer(values: buffer, geometry: g, frame: frame, threshold: $0, control: .none).trace()
            }
        }
        let v = grid.values
        for trace in traces {
            let t = trace.threshold, vertices = trace.vertices
            var crossings: [(edge: Int32, piece: Int32)] = []
            for p in 0..<trace.pieceCount {
                for i in trace.range(p) {
                    // The crossing as the tracer places it, from the edge's two nodes.
                    let e = Int(vertices.edges[i]), h = vertices.horizontalCount
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
