import Foundation
import Testing

@testable import HeatMapContouring
@testable import HeatMapCore
@testable import HeatMapDensity
@testable import HeatMapFormats

@Suite struct SimplificationTests {
    /// Wiggly concentric rings: bands between them share every boundary.
    func nestedBands(seed: UInt64) -> ContourSet {
        var rng = SplitMix(seed: seed)
        func ring(_ r: Double, _ n: Int) -> [PlanePoint] {
            (0..<n).map { k in
                let t = 2 * Double.pi * Double(k) / Double(n)
                let rr = r * (1 + 0.03 * sin(7 * t) + 0.002 * (rng.unit() - 0.5))
                return PlanePoint(x: rr * cos(t), y: rr * sin(t))
            }
        }
        let rings = [ring(10, 900), ring(7, 700), ring(4, 500)]
        let levels = rings.map { [PlanePolygon(exterior: $0)] }
        var bands: [[PlanePolygon]] = []
        for k in rings.indices {
            let holes = k + 1 < rings.count ? [Array(rings[k + 1].reversed())] : []
            bands.append([PlanePolygon(exterior: rings[k], holes: holes)])
        }
        return ContourSet(thresholds: [1, 2, 3], levels: levels, bands: bands, isolines: rings.map { [$0] })
    }

    @Test(arguments: [1, 2, 3]) func neighboursKeepIdenticalBoundariesAndFewerVertices(seed: UInt64) throws {
        let set = nestedBands(seed: UInt64(seed))
        let simple = try set.simplified(tolerance: 0.05)
        for k in 0..<2 {
            let hole = simple.bands[k][0].holes[0]
            let next = simple.bands[k + 1][0].exterior
            // The same vertices, the other way round.
            #expect(Set(hole) == Set(next))
            #expect(hole.count == next.count)
            #expect(next.count < set.bands[k + 1][0].exterior.count / 3)
            // Every kept vertex is an input vertex.
            #expect(Set(next).isSubset(of: Set(set.bands[k + 1][0].exterior)))
        }
        // Valid: the contact check finds nothing in any band.
        for band in simple.bands {
            var rings: [RingContactCheck.Ring] = []
            for p in band {
                for r in [p.exterior] + p.holes {
                    rings.append(
                        RingContactCheck.Ring(
                            points: r.map {
                                FixedPoint(x: Int64(($0.x * 1e9).rounded()), y: Int64(($0.y * 1e9).rounded()))
                            }, polygon: 0))
                }
            }
            #expect(RingContactCheck.offenders(rings).isEmpty)
        }
    }

    @Test func aRingCloserThanTheToleranceIsNotCrossed() throws {
        // Two rings 0.01 apart simplified with tolerance 1: they would cross
        // if each were simplified alone.
        let outer = (0..<400).map { k -> PlanePoint in
            let t = 2 * Double.pi * Double(k) / 400
            return PlanePoint(x: 5 * cos(t), y: 5 * sin(t))
        }
        let inner = outer.map { PlanePoint(x: $0.x * 0.998, y: $0.y * 0.998) }
        let band = PlanePolygon(exterior: outer, holes: [Array(inner.reversed())])
        let set = ContourSet(
            thresholds: [1, 2], levels: [[PlanePolygon(exterior: outer)], [PlanePolygon(exterior: inner)]],
            bands: [[band], [PlanePolygon(exterior: inner)]], isolines: [[outer], [inner]])
        let simple = try set.simplified(tolerance: 1, modes: [.bands])
        let b = simple.bands[0][0]
        let fixed = ([b.exterior] + b.holes).map { r in
            RingContactCheck.Ring(
                points: r.map { FixedPoint(x: Int64(($0.x * 1e9).rounded()), y: Int64(($0.y * 1e9).rounded())) },
                polygon: 0)
        }
        #expect(RingContactCheck.offenders(fixed).isEmpty)
        #expect(b.exterior.count < outer.count)
    }

    /// The one rule for the longest simplified segment (the library's
    /// `simplification` and the tool's `--simplify` both use it): 8 grid
    /// cells of the grid's longer spacing for geographic data, none for planar.
    @Test func simplifiedSegmentsAreAtMostEightCellsOnGeographicGrids() {
        let geometry = GridGeometry(columns: 4, rows: 3, x0: 0, y0: 0, dx: 250, dy: 400)
        func grid(_ kind: MapProjection) -> DensityGrid {
            DensityGrid(
                geometry: geometry, values: [Double](repeating: 0, count: 12),
                projection: PlaneProjection(kind: kind), radius: 1000, estimator: .density, units: "")
        }
        #expect(ContourSet.longestSimplifiedSegment(on: grid(.equalArea)) == 3200)
        #expect(ContourSet.longestSimplifiedSegment(on: grid(.webMercator)) == 3200)
        #expect(ContourSet.longestSimplifiedSegment(on: grid(.planar)) == .infinity)
    }

    @Test func douglasPeuckerKeepsEndsAndFarVertices() {
        let line = [PlanePoint(x: 0, y: 0), PlanePoint(x: 1, y: 0.01), PlanePoint(x: 2, y: 0), PlanePoint(x: 3, y: 1)]
        let kept = line.withUnsafeBufferPointer { DouglasPeucker.keep($0, tolerance: 0.1) }
        #expect(kept == [true, false, true, true])
        let long = (0...10).map { PlanePoint(x: Double($0), y: 0) }
        let split = long.withUnsafeBufferPointer { DouglasPeucker.keep($0, tolerance: 0.1, maximumLength: 3) }
        #expect(split.first == true && split.last == true)
        var last = 0
        for (i, k) in split.enumerated() where k && i > 0 { #expect(i - last <= 3); last = i }
    }
}

@Suite struct SimplificationSettingTests {
    @Test func theConfigurationSimplifiesAndTheExportStaysValid() throws {
        let pts = AsyncComputeTests.points()
        var configuration = AsyncComputeTests.configuration
        let full = HeatMapContours.compute(from: pts, configuration: configuration)
        configuration.simplification = 150
        let simple = HeatMapContours.compute(from: pts, configuration: configuration)
        func vertices(_ c: HeatMapContours) -> Int {
            c.contourSet.bands.joined().reduce(0) { $0 + $1.exterior.count + $1.holes.reduce(0) { $0 + $1.count } }
        }
        #expect(vertices(simple) < vertices(full) / 2)
        #expect(simple.thresholds == full.thresholds)
        let text = try GeoJSONExport.contours(simple)
        #expect(try GeoJSONRead.allProblems(text, geographic: true).isEmpty)
    }
}
