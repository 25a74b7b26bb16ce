import Foundation
import HeatMap

/// The options raster and point exports share beyond the density: levels
/// placed by a rule (`--interval`/`--offset`, `--exp-base`, as
/// gdal_contour's -i/-off/-e) and gdal_contour's attribute fields
/// (`--attributes gdal`).
enum ContourOptions {
    /// Levels placed by a rule over the grid's range.
    enum LevelRule {
        /// At offset + k·interval.
        case interval(Double, offset: Double)
        /// At 1, base, base², ….
        case exponential(base: Double)
    }

    /// The level rule given, if any.
    ///
    /// - Throws: a usage error for --offset without --interval, or both rules at once.
    static func levelRule(_ args: ParsedArguments) throws -> LevelRule? {
        let interval = args[Options.interval], base = args[Options.expBase]
        if args.isGiven(Options.offset) && interval == nil {
            throw ToolError.usage("--offset goes with --interval", command: args.command.name)
        }
        if interval != nil && base != nil {
            throw ToolError.usage(
                "--interval and --exp-base are two ways to place levels; give one", command: args.command.name)
        }
        if let interval { return .interval(interval, offset: args[Options.offset]) }
        return base.map { .exponential(base: $0) }
    }

    /// GeoJSON options with gdal_contour's fields when asked for.
    static func attributes(_ args: ParsedArguments, _ options: GeoJSONOptions, grid: DensityGrid) -> GeoJSONOptions {
        var o = options
        if args[Options.attributes] {
            o.gdalAttributes = GDALContourAttributes(maximum: grid.maximum)
        }
        return o
    }
}
