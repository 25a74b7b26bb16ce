import Foundation
import HeatMap
import Testing

@testable import contours

/// The tool's decisions made once: the configuration a command runs with
/// (`ToolConfiguration`), and the command table (`Commands.all`).
@Suite struct ToolConfigurationTests {
    static func settings(_ arguments: [String]) throws -> ToolConfiguration {
        try ToolConfiguration(ParsedArguments(arguments, for: Commands.export))
    }

    @Test func aFixedRadiusIsFixedAndTheResolutionIsTheOptions() throws {
        let s = try Self.settings(["in.csv", "--radius", "2.5km", "--resolution", "400", "--levels", "7"])
        #expect(s.configuration.radius == 2500)
        #expect(s.configuration.bandwidth == .fixed)
        #expect(s.configuration.gridResolution == 400)
        #expect(s.configuration.contourLevels == 7)
        #expect(!s.resolutionFromData)
    }

    @Test func anAutomaticRadiusTakesTheResolutionFromTheDataUnlessGiven() throws {
        let auto = try Self.settings(["in.csv"])
        #expect(auto.configuration.bandwidth == .auto)
        #expect(auto.resolutionFromData)
        let given = try Self.settings(["in.csv", "--resolution", "200"])
        #expect(given.configuration.bandwidth == .auto)
        #expect(!given.resolutionFromData)
        let scott = try Self.settings(["in.csv", "--radius", "scott"])
        #expect(scott.configuration.bandwidth == .scott)
        #expect(!scott.resolutionFromData)
        // A value column maps a mean; --planar measures in the data's units.
        let mean = try Self.settings(["in.csv", "--planar", "--value", "price", "--radius", "3"])
        #expect(mean.configuration.estimator == .mean)
        #expect(mean.configuration.projection == .planar)
        #expect(mean.configuration.radius == 3)
    }

    @Test func aLevelRuleBecomesCustomThresholdsOverTheGridsRange() throws {
        let s = try Self.settings(["in.csv", "--levels", "3"])
        let geometry = GridGeometry(columns: 3, rows: 1, x0: 0, y0: 0, dx: 1, dy: 1)
        let grid = DensityGrid(
            geometry: geometry, values: [0, 120, 450], projection: PlaneProjection(kind: .planar),
            radius: 1, estimator: .density, units: "")
        let unchanged = try ToolConfiguration.settled(s.configuration, byLevels: nil, grid: grid, command: "export")
        #expect(unchanged.contourLevels == 3)
        let ruled = try ToolConfiguration.settled(
            s.configuration, byLevels: .interval(100, offset: 0), grid: grid,
            command: "export")
        #expect(ruled.levelSpacing == .custom([100, 200, 300, 400]))
        #expect(ruled.contourLevels == 4)
    }

    @Test func theCommandTableHoldsEachCommandOnceAndNothingElse() {
        let names = Commands.all.map(\.name)
        #expect(names == ["export", "tiles", "grid", "bin", "hit", "info", "sql"])
        for name in names { #expect(Commands.named(name)?.name == name) }
        for unknown in ["", "exprot", "Info", "infos", "--help"] { #expect(Commands.named(unknown) == nil) }
    }
}
