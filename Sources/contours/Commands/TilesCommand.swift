import Foundation
import HeatMap

/// `contours tiles`: points → a PMTiles archive of vector tiles, every
/// zoom contoured at its own resolution with export's radius and thresholds.
enum TilesCommand {
    static func run(_ args: ParsedArguments, control: ComputeControl) throws {
        let output = try Settings.output(args)
        var density = try ToolConfiguration(args)
        guard density.configuration.projection != .planar else {
            throw ToolError.usage(
                "tiles need geographic data (longitude and latitude); planar x/y have no place on a web map",
                command: args.command.name)
        }
        let levelRule = try ContourOptions.levelRule(args)
        let minZoom = args[Options.minZoom], maxZoom = args[Options.maxZoom]
        if let lo = minZoom, let hi = maxZoom, lo > hi {
            throw ToolError.usage("--min-zoom \(lo) is above --max-zoom \(hi)", command: args.command.name)
        }
        let input = try Settings.openInput(args, path: Settings.input(args, operands: args.operands[...]))
        if try RasterExport.raster(input) != nil {
            throw ToolError.usage(
                "tiles are made from points; contour a raster with 'contours export'",
                command: args.command.name)
        }
        // Tiles are contoured on cells of a few pixels: smoothing is asked for, not assumed.
        if !args.isGiven(Options.smooth) { density.configuration.smoother = .none }
        let run = try DensityRun.run(args, density, operands: args.operands[...], input: input, control: control)
        guard let points = run.points else {
            throw ToolError.usage(
                "tiles are made from points, not a cells table (the kernel is summed at every zoom's own nodes)",
                command: args.command.name)
        }
        let configuration = try ToolConfiguration.settled(
            run.configuration, byLevels: levelRule, grid: run.density.grid,
            command: args.command.name)
        var grid = run.density.grid
        if let units = args[Options.units] { grid.units = units }
        let tiles = try HeatMapTiles.make(
            points: points, grid: grid, configuration: configuration,
            zooms: nil, bins: args[Options.tileBins],
            control: control
        ).zooms(minimum: minZoom, maximum: maxZoom)
        run.describeEmptyLevels(tiles.thresholds)
        var summary: HeatMapTilesSummary?
        try OutputFile.streaming(to: output) { out in
            summary = try tiles.write(to: out, control: control)
        }
        if let summary, summary.tiles == 0, !run.density.grid.values.allSatisfy({ !($0 > 0) }) {
            // Every zoom's nodes missed the kernels (narrower than a node
            // there), though the grid's own did not.
            Console.note(
                "no tile holds a band at zooms \(tiles.zooms.lowerBound)-\(tiles.zooms.upperBound): every zoom's nodes"
                    + " fall between the kernels (radius \(ArgumentValues.text(run.density.grid.radius)) m); a wider --radius"
                    + " or a deeper --max-zoom reaches them")
        }
        if let summary, args[Options.progress] {
            Console.note(
                "zooms \(tiles.zooms.lowerBound)-\(tiles.zooms.upperBound): \(summary.tiles) tiles"
                    + " (\(summary.tilesPerZoom.map(String.init).joined(separator: ", "))),"
                    + " \(summary.contents) stored, largest \(summary.largestTile) bytes")
        }
    }
}
