import Foundation
import Testing
@testable import HeatMap

/// Chaikin corner cutting and the guard that keeps smoothed polygons valid (docs/contour-rules.md).
@Suite struct SmoothingTests {
    private func points(_ xy: [(Double, Double)]) -> [PlanePoint] { xy.map { PlanePoint(x: $0.0, y: $0.1) } }

    @Test func closedRingGetsQuarterPoints() {
        let square = points([(0, 0), (4, 0), (4, 4), (0, 4)])
        #expect(Chaikin.smooth(square, iterations: 1)
            == points([(1, 0), (3, 0), (4, 1), (4, 3), (3, 4), (1, 4), (0, 3), (0, 1)]))
        #expect(Chaikin.smooth(square, iterations: 3).count == 32)
        #expect(Chaikin.smooth(square, iterations: 0) == square)
        // Corner cutting shrinks a convex ring: ¾ of the square after one pass.
        #expect(abs(PlaneRing.signedArea(Chaikin.smooth(square, iterations: 1)) - 14) < 1e-12)
    }

    @Test func openPathKeepsItsEnds() {
        let path = points([(0, 0), (4, 0), (4, 4)])
        #expect(Chaikin.smooth(path, iterations: 1, closed: false) == points([(0, 0), (3, 0), (4, 1), (4, 4)]))
        let twice = Chaikin.smooth(path, iterations: 2, closed: false)
        #expect(twice.first == path.first && twice.last == path.last)
        #expect(twice.count == Chaikin.smoothedCount(3, closed: false, iterations: 2))
        // A single segment has no corner to cut.
        #expect(Chaikin.smooth(points([(0, 0), (1, 1)]), iterations: 3, closed: false) == points([(0, 0), (1, 1)]))
    }

    @Test func segmentPredicate() {
        func meet(_ a: (Double, Double, Double, Double), _ b: (Double, Double, Double, Double)) -> Bool {
            SegmentIntersection.mayMeet(a.0, a.1, a.2, a.3, b.0, b.1, b.2, b.3)
        }
        #expect(meet((0, 0, 2, 2), (0, 2, 2, 0)))            // proper crossing
        #expect(meet((0, 0, 1, 0), (1, 0, 1, 1)))            // touching at an end
        #expect(meet((0, 0, 2, 0), (1, 0, 3, 0)))            // collinear overlap
        #expect(meet((0, 0, 2, 0), (1, 0, 1, 5)))            // T junction
        #expect(!meet((0, 0, 1, 0), (2, 0, 3, 0)))           // collinear apart
        #expect(!meet((0, 0, 1, 1), (0, 1e-9, 1, 1 + 1e-9)))  // parallel, close
        #expect(!meet((0, 0, 1, 0), (0.5, 1e-12, 0.6, 1)))   // near miss above
    }

    @Test func hullsApart() {
        func quad(_ p: [(Double, Double)]) -> Quad {
            Quad(x: (p[0].0, p[1].0, p[2].0, p[3].0), y: (p[0].1, p[1].1, p[2].1, p[3].1))
        }
        let a = quad([(0, 0), (1, 0), (2, 0.5), (3, 0.5)])
        // Parallel, just above: apart. Crossing or touching: not.
        #expect(a.isApart(from: quad([(0, 1), (1, 1.2), (2, 1.4), (3, 1.6)])))
        #expect(!a.isApart(from: quad([(1.5, -1), (1.5, 0), (1.5, 1), (1.5, 2)])))
        #expect(!a.isApart(from: quad([(3, 0.5), (3.5, 1), (3.7, 1.5), (4, 2)])))
        // A point inside the other hull.
        #expect(!quad([(0, 0), (4, 0), (0, 4), (0, 0)]).isApart(from: quad([(1, 1), (1, 1), (1, 1), (1, 1)])))
    }

    @Test(arguments: [1, 2, 4])
    func smoothingKeepsEveryPolygonValid(iterations: Int) throws {
        for seed in UInt64(20)...27 {
            let grid = ContourFixture.randomGrid(seed: seed, columns: 26, rows: 21, bumps: 16)
            let thresholds = ThresholdResolver.thresholds(for: seed % 2 == 0 ? .quantile : .linear,
                                                          levelCount: 7, grid: grid)
            let set = try ContourBuilder.build(grid: grid, thresholds: thresholds,
                                               smoother: .chaikin(iterations: iterations))
            for polygon in (set.levels + set.bands).flatMap({ $0 }) {
                let problems = PolygonValidator.problems(polygon)
                #expect(problems.isEmpty, "seed \(seed): \(problems.prefix(3))")
            }
            for i in 0..<thresholds.count {
                let level = ContourFixture.area(set.levels[i])
                let bands = set.bands[i...].reduce(0) { $0 + ContourFixture.area($1) }
                #expect(abs(level - bands) <= 1e-9 * level)
            }
        }
    }

    @Test func smoothingChangesRingsButKeepsFrameRuns() throws {
        // A region across the left edge: its frame run stays on x = 0.
        let grid = ContourFixture.grid(columns: 12, rows: 12) { x, y in exp(-(x * x + (y - 5.5) * (y - 5.5)) / 18) }
        let raw = try ContourBuilder.build(grid: grid, thresholds: [0.5], smoother: .none)
        let smooth = try ContourBuilder.build(grid: grid, thresholds: [0.5], smoother: .chaikin(iterations: 2))
        let a = try #require(raw.levels[0].first), b = try #require(smooth.levels[0].first)
        #expect(b.exterior.count > a.exterior.count)
        #expect(b.exterior.filter { $0.x == 0 }.count == 2)
        #expect(PolygonValidator.problems(b).isEmpty)
        #expect(abs(b.area - a.area) / a.area < 0.05)
    }

    @Test func guardLeavesHarmlessPiecesFullySmoothed() throws {
        let grid = ContourFixture.randomGrid(seed: 5, columns: 30, rows: 30)
        let traces = try trace(grid, thresholds: [0.1, 0.3, 0.6])
        let smoothed = try SmoothingGuard.smooth(traces: traces, iterations: 3, geometry: grid.geometry, control: .none)
        for (l, level) in smoothed.enumerated() {
            for p in 0..<traces[l].pieceCount where !traces[l].isRemoved[p] { #expect(level.iterations[p] == 3) }
        }
    }

    @Test func guardBacksOffWhereSmoothingWouldCross() throws {
        // Hand-made pieces of one level in a 5 × 5 grid: a triangle with a
        // sharp corner at (4, 0) and a small square just inside that corner.
        // One pass cuts the corner along x = 3, through the square.
        let geometry = GridGeometry(columns: 5, rows: 5, x0: 0, y0: 0, dx: 1, dy: 1)
        var trace = LevelTrace(threshold: 0.5)
        let triangle: [(Double, Double)] = [(0.1, 0.1), (4, 0.1), (0.1, 3.9)]
        let square: [(Double, Double)] = [(2.8, 0.3), (3.2, 0.3), (3.2, 0.5), (2.8, 0.5)]
        for ring in [triangle, square] {
            for (x, y) in ring {
                trace.xs.append(x); trace.ys.append(y)
                // Every segment is said to cross cell (3, 0): both pieces meet there.
                trace.cells.append(3)
            }
            trace.pieceStart.append(Int32(trace.xs.count))
            trace.isChain.append(false)
            trace.isRemoved.append(false)
            trace.area.append(1)
            trace.startKey.append(FrameKey(edge: -1, along: 0))
            trace.endKey.append(FrameKey(edge: -1, along: 0))
        }
        let smoothed = try SmoothingGuard.smooth(traces: [trace], iterations: 1, geometry: geometry, control: .none)
        #expect(smoothed[0].iterations == [0, 0])
        #expect(smoothed[0].pieces.flatMap { $0 }.map(\.x) == trace.xs)
        // Far apart, the same pieces keep their pass.
        var apart = trace
        for i in 3..<7 { apart.xs[i] -= 1.6; apart.ys[i] += 0.7 }
        let kept = try SmoothingGuard.smooth(traces: [apart], iterations: 1, geometry: geometry, control: .none)
        #expect(kept[0].iterations == [1, 1])
    }

    private func trace(_ grid: DensityGrid, thresholds: [Double]) throws -> [LevelTrace] {
        let frame = GridFrame(columns: grid.geometry.columns, rows: grid.geometry.rows)
        return try grid.values.withUnsafeBufferPointer { buffer in
            let bands = try NodeBands(values: buffer, thresholds: thresholds)
            return try thresholds.indices.map {
                try LevelTracer(values: buffer, bands: bands, level: $0, geometry: grid.geometry, frame: frame,
                                threshold: thresholds[$0], control: .none).trace()
            }
        }
    }
}
