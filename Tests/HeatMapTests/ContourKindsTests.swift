import Foundation
import Testing

@testable import HeatMapContouring
@testable import HeatMapCore
@testable import HeatMapDensity
@testable import HeatMapFormats

/// Kinds chosen before computing: each kind built alone, or with any other,
/// is the very same geometry as in a build of every kind, and the kinds
/// left out are empty.
@Suite struct ContourKindsTests {
    static let choices: [ContourKinds] = [
        .bands, .levels, .isolines, [.bands, .isolines], [.levels, .isolines],
        [.bands, .levels]
    ]

    /// Random fields whose levels reach the frame (frame-closed rings), with
    /// a NaN node in one of them, smoothed and not.
    static let cases: [(seed: UInt64, smoother: PolygonSmoother, nan: Bool)] = [
        (21, .none, false), (22, .chaikin(iterations: 2), false), (23, .chaikin(iterations: 3), true),
        (24, .chaikin(iterations: 1), false)
    ]

    private func grid(_ c: (seed: UInt64, smoother: PolygonSmoother, nan: Bool)) -> DensityGrid {
        var grid = ContourFixture.randomGrid(seed: c.seed, columns: 41, rows: 33, bumps: 16)
        if c.nan { grid.values[grid.geometry.columns * 10 + 17] = .nan }
        return grid
    }

    @Test(arguments: 0..<cases.count)
    func eachChoiceEqualsTheFullBuild(index: Int) throws {
        let c = Self.cases[index]
        let grid = grid(c)
        let thresholds = ThresholdResolver.thresholds(for: .quantile, levelCount: 7, grid: grid)
        #expect(thresholds.count >= 4)
        let all = try ContourBuilder.build(grid: grid, thresholds: thresholds, smoother: c.smoother)
        #expect(all.bands.contains { !$0.isEmpty } && all.levels.contains { !$0.isEmpty })
        #expect(all.isolines.contains { !$0.isEmpty })
        for kinds in Self.choices {
            let set = try ContourBuilder.build(grid: grid, thresholds: thresholds, smoother: c.smoother, kinds: kinds)
            #expect(set.thresholds == all.thresholds)
            #expect(
                set.bands.count == thresholds.count && set.levels.count == thresholds.count
                    && set.isolines.count == thresholds.count)
            #expect(
                set.bands == (kinds.contains(.bands) ? all.bands : Array(repeating: [], count: thresholds.count)),
                "bands of \(kinds.rawValue)")
            #expect(
                set.levels == (kinds.contains(.levels) ? all.levels : Array(repeating: [], count: thresholds.count)),
                "levels of \(kinds.rawValue)")
            #expect(
                set.isolines
                    == (kinds.contains(.isolines) ? all.isolines : Array(repeating: [], count: thresholds.count)),
                "isolines of \(kinds.rawValue)")
        }
    }

    @Test func anExportModeNamesItsKind() {
        #expect(ContourKinds(.bands) == .bands)
        #expect(ContourKinds(.levels) == .levels)
        #expect(ContourKinds(.isolines) == .isolines)
        #expect(ContourKinds.all == [.bands, .levels, .isolines, .polygons])
    }

    @Test func theFacadeBuildsOnlyTheKindsAskedFor() throws {
        let grid = ContourFixture.randomGrid(seed: 25, columns: 30, rows: 30)
        let configuration = HeatMapConfiguration(contourLevels: 5, levelSpacing: .linear)
        let full = try HeatMapContours.compute(from: grid, configuration: configuration)
        let bands = try HeatMapContours.compute(from: grid, configuration: configuration, kinds: [.bands, .polygons])
        #expect(bands.contourSet.bands == full.contourSet.bands)
        #expect(bands.contours.map(\.id) == full.contours.map(\.id) && !bands.contours.isEmpty)
        #expect(bands.contourSet.levels.allSatisfy(\.isEmpty) && bands.contourSet.isolines.allSatisfy(\.isEmpty))
        // An export of bands alone makes no polygons (and no index), yet can still ask for them.
        let export = try HeatMapContours.compute(from: grid, configuration: configuration, kinds: .bands)
        #expect(export.contours.isEmpty && export.contours(containing: full.contours[0].coordinates[0]).isEmpty)
        #expect(try export.polygons(control: .none).map(\.id) == full.contours.map(\.id))
        #expect(export.contourSet.bands == full.contourSet.bands)
        let lines = try HeatMapContours.compute(from: grid, configuration: configuration, kinds: .isolines)
        #expect(lines.contourSet.isolines == full.contourSet.isolines)
        #expect(lines.contours.isEmpty)
    }
}
