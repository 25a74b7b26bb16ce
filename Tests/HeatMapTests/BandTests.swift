import Foundation
import Testing

@testable import HeatMapContouring
@testable import HeatMapCore
@testable import HeatMapDensity
@testable import HeatMapFormats

/// Bands tile the levels: no overlap, no gap, shared boundaries (docs/contour-rules.md).
@Suite struct BandTests {
    static let cases: [(seed: UInt64, spacing: LevelSpacing, smoother: PolygonSmoother)] = [
        (11, .linear, .none), (12, .quantile, .none), (13, .linear, .chaikin(iterations: 2)),
        (14, .quantile, .chaikin(iterations: 3)), (15, .logarithmic, .chaikin(iterations: 1))
    ]

    private func contours(seed: UInt64, spacing: LevelSpacing, smoother: PolygonSmoother) throws -> ContourSet {
        let grid = ContourFixture.randomGrid(seed: seed, columns: 34, rows: 27)
        let thresholds = ThresholdResolver.thresholds(for: spacing, levelCount: 6, grid: grid)
        #expect(thresholds.count >= 3)
        return try ContourBuilder.build(grid: grid, thresholds: thresholds, smoother: smoother)
    }

    @Test(arguments: 0..<cases.count)
    func bandAreasAddUpToLevelAreas(index: Int) throws {
        let c = Self.cases[index]
        let set = try contours(seed: c.seed, spacing: c.spacing, smoother: c.smoother)
        for i in 0..<set.thresholds.count {
            let level = ContourFixture.area(set.levels[i])
            let bands = set.bands[i...].reduce(0) { $0 + ContourFixture.area($1) }
            #expect(abs(level - bands) <= 1e-9 * max(level, 1e-300), "level \(i): \(level) vs bands \(bands)")
        }
        #expect(set.bands.last == set.levels.last)
    }

    @Test(arguments: 0..<cases.count)
    func everyPointIsInTheBandOfItsDeepestLevel(index: Int) throws {
        let c = Self.cases[index]
        let set = try contours(seed: c.seed, spacing: c.spacing, smoother: c.smoother)
        func filled(_ p: PlanePoint, _ polygon: PlanePolygon) -> Int {
            let e = PolygonValidator.locate(p, polygon.exterior)
            if e <= 0 { return e }
            for hole in polygon.holes {
                let h = PolygonValidator.locate(p, hole)
                if h >= 0 { return -h }
            }
            return 1
        }
        func count(_ p: PlanePoint, _ polygons: [PlanePolygon]) -> Int? {
            var n = 0
            for polygon in polygons {
                let f = filled(p, polygon)
                if f == 0 { return nil }
                if f > 0 { n += 1 }
            }
            return n
        }
        var probes = 0
        for k in 0..<900 {
            let p = PlanePoint(x: Double(k % 30) * 1.1 + 0.123, y: Double(k / 30) * 0.87 + 0.0571)
            guard let inLevels = Optional(set.levels.map { count(p, $0) }), !inLevels.contains(nil),
                let inBands = Optional(set.bands.map { count(p, $0) }), !inBands.contains(nil)
            else { continue }
            let levels = inLevels.map { $0! }, bands = inBands.map { $0! }
            probes += 1
            // Levels nest: inside level i + 1 means inside level i; at most one polygon per level.
            #expect(levels.allSatisfy { $0 <= 1 })
            let depth = levels.prefix { $0 == 1 }.count
            #expect(levels[depth...].allSatisfy { $0 == 0 })
            // Exactly the band of the deepest level holds it.
            for (i, n) in bands.enumerated() { #expect(n == (i == depth - 1 ? 1 : 0)) }
        }
        #expect(probes > 800)
    }

    @Test(arguments: 0..<cases.count)
    func neighbouringBandsShareRingVertices(index: Int) throws {
        let c = Self.cases[index]
        let set = try contours(seed: c.seed, spacing: c.spacing, smoother: c.smoother)
        func canonical(_ ring: [PlanePoint]) -> [PlanePoint] {
            // The rotation starting at the smallest vertex.
            guard let k = ring.indices.min(by: { (ring[$0].x, ring[$0].y) < (ring[$1].x, ring[$1].y) }) else {
                return ring
            }
            return Array(ring[k...] + ring[..<k])
        }
        var checked = 0
        for i in 0..<(set.thresholds.count - 1) {
            let upperShells = Set(set.bands[i + 1].map { canonical($0.exterior.reversed()) })
            let ownHoles = Set(set.levels[i].flatMap { $0.holes }.map(canonical))
            for hole in set.bands[i].flatMap(\.holes) {
                let key = canonical(hole)
                #expect(upperShells.contains(key) || ownHoles.contains(key))
                checked += 1
            }
        }
        #expect(checked > 0)
    }

    @Test func bandsOfACraterAroundAPeak() throws {
        // A peak inside a crater: level 1 is the rim (with the dip as its
        // hole) plus the peak; band 0 fills the dip between rim and peak.
        let grid = ContourFixture.grid(columns: 31, rows: 31) { x, y in
            let d = ((x - 15) * (x - 15) + (y - 15) * (y - 15)).squareRoot()
            return exp(-(d - 9) * (d - 9) / 4) + exp(-d * d / 4)
        }
        let set = try ContourBuilder.build(grid: grid, thresholds: [0.2, 0.6], smoother: .chaikin())
        #expect(set.levels[1].count == 2)
        #expect(set.levels[1].filter { $0.holes.count == 1 }.count == 1)
        // Band 0: the outer ring band, and the dip with the peak as its hole.
        #expect(set.bands[0].count >= 2)
        for polygon in set.bands.flatMap({ $0 }) + set.levels.flatMap({ $0 }) {
            #expect(PolygonValidator.problems(polygon).isEmpty)
        }
    }
}
