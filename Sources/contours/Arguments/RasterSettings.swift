import Foundation
import HeatMap

extension Settings {
    /// `--crs EPSG:N`: what planar x/y are. Only planar input takes it,
    /// since geographic projections have their own CRS.
    static func crs(_ args: ParsedArguments, projection: MapProjection) throws -> RasterCRS? {
        guard let text = args.string(Options.crs) else { return nil }
        let upper = text.uppercased()
        guard upper.hasPrefix("EPSG:"), let code = Int(upper.dropFirst(5)), code > 0, code < 1_000_000 else {
            throw args.bad(Options.crs, text, "expected EPSG:N, e.g. EPSG:32633")
        }
        guard projection == .planar else {
            throw ToolError.usage("--crs names what planar x/y are; with --projection \(projection.rawValue) the CRS is the projection's own",
                                  command: args.command.name)
        }
        return .epsg(code)
    }
}
