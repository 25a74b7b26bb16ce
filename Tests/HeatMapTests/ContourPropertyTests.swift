import Foundation
import Testing

@testable import HeatMapContouring
@testable import HeatMapCore
@testable import HeatMapDensity
@testable import HeatMapFormats

/// Properties over seeded random grids: validity, orientation, no repeats,
/// nesting and determinism (docs/contour-rules.md).
@Suite struct ContourPropertyTests {
    /// Smooth random fields and rough integer fields whose quantile
    /// thresholds are node values, so nodes sit exactly on thresholds.
    static func grid(_ seed: UInt64) -> DensityGrid {
        if seed % 3 == 0 {
            var rng = SplitMix(seed: seed)
            return ContourFixture.grid(columns: 17, rows: 13) { _, _ in (rng.unit() * 5).rounded(.down) }
        }
        return ContourFixture.randomGrid(seed: seed, columns: 23 + Int(seed % 7), rows: 19 + Int(seed % 5))
    }

    static func contours(_ seed: UInt64, smoother: PolygonSmoother) throws -> ContourSet {
        let g = grid(seed)
        let spacing: LevelSpacing = seed % 2 == 0 ? .quantile : .linear
        let thresholds = ThresholdResolver.thresholds(for: spacing, levelCount: 5, grid: g)
        return try ContourBuilder.build(grid: g, thresholds: thresholds, smoother: smoother)
    }

    @Test(arguments: Array(UInt64(1)...18))
    func everyPolygonIsValid(seed: UInt64) throws {
        for smoother in [PolygonSmoother.none, .chaikin(iterations: 2)] {
            let set = try Self.contours(seed, smoother: smoother)
            for (mode, polygons) in [("level", set.levels), ("band", set.bands)] {
                for (i, level) in polygons.enumerated() {
                    for polygon in level {
                        let problems = PolygonValidator.problems(polygon)
                        #expect(problems.isEmpty, "seed \(seed) \(smoother) \(mode) \(i): \(problems.prefix(3))")
                    }
                }
            }
            for ring in set.isolines.flatMap({ $0 }) {
                #expect(ring.count >= 3)
                #expect(ring.indices.allSatisfy { ring[$0] != ring[($0 + 1) % ring.count] })
            }
        }
    }

    @Test(arguments: Array(UInt64(1)...12))
    func levelsNestAndHolesFindTheSmallestExterior(seed: UInt64) throws {
        let set = try Self.contours(seed, smoother: .none)
        for (i, level) in set.levels.enumerated() {
            let shells = level.map { (polygon: $0, area: PlaneRing.signedArea($0.exterior)) }
            for (k, polygon) in level.enumerated() {
                for hole in polygon.holes {
                    // No smaller exterior of the level holds the hole.
                    for (m, other) in shells.enumerated() where m != k && other.area < shells[k].area {
                        #expect(PolygonValidator.locate(hole[0], other.polygon.exterior) < 0)
                    }
                }
                // Level i lies inside level i − 1: each exterior vertex is inside
                // a level i − 1 exterior, or on it where both follow the frame.
                if i > 0 {
                    let box = set.levels[0].reduce(PlaneBox.empty) {
                        var b = $0; b.formUnion($1.bounds); return b
                    }
                    for p in polygon.exterior.prefix(8) {
                        let onFrame = p.x == box.minX || p.x == box.maxX || p.y == box.minY || p.y == box.maxY
                        #expect(
                            set.levels[i - 1].contains { PolygonValidator.locate(p, $0.exterior) >= (onFrame ? 0 : 1) })
                    }
                }
            }
        }
    }

    @Test(arguments: [UInt64(4), 7, 9])
    func sameInputSameOutput(seed: UInt64) throws {
        let a = try Self.contours(seed, smoother: .chaikin())
        let b = try Self.contours(seed, smoother: .chaikin())
        #expect(a.levels == b.levels)
        #expect(a.bands == b.bands)
        #expect(a.isolines == b.isolines)
    }
}
