import Foundation
import HeatMap

extension Settings {
    /// `--crs EPSG:N`: what planar x/y are. Only planar input takes it,
    /// since geographic projections have their own CRS.
    static func crs(_ args: ParsedArguments, projection: MapProjection) throws -> RasterCRS? {
        guard let crs = args[Options.crs] else { return nil }
        guard projection == .planar else {
            throw ToolError.usage(
                "--crs names what planar x/y are; with --projection \(projection.rawValue) the CRS is the projection's own",
                command: args.command.name)
        }
        return crs
    }
}
