import Foundation
import HeatMap

/// `contours bin`: points → hexagon or square cells with aggregates.
enum BinCommand {
    static func run(_ args: ParsedArguments, control: ComputeControl) throws {
        _ = try args.choice(Options.shape, [("hex", true), ("hexagon", true), ("square", false)])
        _ = try args.choice(Options.orientation, [("pointy", true), ("flat", false)])
        _ = try args.choice(Options.aggregate, [("count", 0), ("sum", 1), ("mean", 2), ("min", 3), ("max", 4)])
        _ = try args.choice(Options.binFormat, [("geojson", 0), ("csv", 1), ("svg", 2), ("html", 3)])
        if let size = args.string(Options.size) {
            guard let s = ArgumentValues.length(size), s.isFinite, s > 0 else {
                throw args.bad(Options.size, size, "expected a length > 0")
            }
        }
        _ = try Settings.precision(args)
        _ = try Settings.reader(args)
        throw ToolError.failure("bin is not available in this build yet")
    }
}
