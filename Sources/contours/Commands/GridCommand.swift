import Foundation
import HeatMap

/// `contours grid`: points → density grid as JSON, an ESRI ASCII grid
/// (with a `.prj`), or a Cloud-Optimized GeoTIFF.
enum GridCommand {
    enum Format { case json, asc, tiff }

    static func run(_ args: ParsedArguments, control: ComputeControl) throws {
        let format = args.format(Options.gridFormat)
        let output = try Settings.output(args)
        let density = try ToolConfiguration(args)
        let userCRS = try Settings.crs(args, projection: density.configuration.projection)
        if args[Options.float64] && format != .tiff {
            throw ToolError.usage("--float64 is for --format tiff", command: "grid")
        }

        if let frames = try TimeSettings.frames(args) {
            try FramedGrid.run(
                args, frames: frames, format: format, output: output, crs: userCRS, density: density,
                control: control)
            return
        }
        let run = try DensityRun.run(args, density, operands: args.operands[...], control: control)
        control.report(.export, 0)
        let grid = run.density.grid
        let crs = userCRS ?? RasterCRS.of(grid.projection)
        switch format {
        case .json, .asc:
            // The text is built whole: up to 24 bytes a value.
            try MemoryBudget.reserve(
                MemoryBudget.product(grid.values.count, 24),
                for: "the text of the \(grid.geometry.columns) × \(grid.geometry.rows) grid")
            try OutputFile.write(
                format == .asc ? GridEncoding.asc(grid) : GridEncoding.json(grid, crs: crs), to: output)
            if format == .asc { try writeProjection(crs, besides: output) }
        case .tiff:
            let options = GeoTIFFWriter.Options(
                sampleType: args[Options.float64] ? .float64 : .float32,
                crs: crs, software: Help.version)
            try OutputFile.write(bytes: try GeoTIFFWriter.encode(grid, options: options), to: output)
        }
        control.report(.export, 1)
    }

    /// The `.prj` (WKT) beside an ESRI ASCII grid written to a file.
    static func writeProjection(_ crs: RasterCRS?, besides output: String?) throws {
        guard let crs, let output else { return }
        guard let wkt = crs.wkt else {
            Console.note("no .prj written: this tool has no WKT for \(crs); GDAL users can add -a_srs \(crs)")
            return
        }
        let url = URL(fileURLWithPath: output)
        try OutputFile.write(wkt + "\n", to: url.deletingPathExtension().appendingPathExtension("prj").path)
    }
}
