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
            throw ToolError.usage("--interval and --exp-base are two ways to place levels; give one", command: args.command.name)
        }
        if let interval { return .interval(interval, offset: args[Options.offset]) }
        return base.map { .exponential(base: $0) }
    }

    /// The configuration with the rule's levels as custom thresholds over
    /// the grid's range (unchanged without a rule).
    static func levels(_ rule: LevelRule?, _ configuration: HeatMapConfiguration, grid: DensityGrid,
                       command: String) throws -> HeatMapConfiguration {
        guard let rule else { return configuration }
        var c = configuration
        let thresholds: [Double]
        do {
            switch rule {
            case .interval(let interval, let offset):
                thresholds = try IntervalLevels.interval(interval, offset: offset, minimum: grid.minimum, maximum: grid.maximum)
            case .exponential(let base):
                thresholds = try IntervalLevels.exponential(base: base, minimum: grid.minimum, maximum: grid.maximum)
            }
        } catch let e as IntervalLevels.Failure {
            throw ToolError.usage(e.description, command: command)
        }
        c.levelSpacing = .custom(thresholds)
        c.contourLevels = max(1, min(thresholds.count, 10_000))
        return c
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
