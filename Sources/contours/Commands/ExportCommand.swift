import Foundation
import HeatMap

/// `contours export`: points → density → contours → GeoJSON, SVG or HTML.
enum ExportCommand {
    enum Format: String { case geojson, svg, html }

    static func run(_ args: ParsedArguments, control: ComputeControl) throws {
        // Every option is checked before any input is read.
        let format = try args.choice(Options.exportFormat, [("geojson", Format.geojson), ("json", .geojson),
                                                            ("svg", .svg), ("html", .html)]) ?? .geojson
        let mode = try args.choice(Options.mode, ContourMode.allCases.map { ($0.rawValue, $0) }) ?? .bands
        let perPolygon = try args.choice(Options.feature, [("level", false), ("band", false), ("polygon", true)]) ?? false
        let precision = try Settings.precision(args)
        let output = try Settings.output(args)
        _ = try Settings.configuration(args)
        if format != .geojson {
            throw ToolError.usage("--format \(format.rawValue) is not available in this build yet (use geojson)",
                                  command: args.command.name)
        }

        let run = try DensityRun.run(args, operands: args.operands[...], control: control)
        let contours = try HeatMapContours.compute(from: run.density.grid, configuration: run.configuration,
                                                   control: control, summary: run.density.summary)
        run.describeEmptyLevels(contours.thresholds)
        control.report(.export, 0)
        let text = InterimGeoJSON.encode(contours, mode: mode, perPolygon: perPolygon, precision: precision)
        try OutputFile.write(text, to: output)
        control.report(.export, 1)
    }
}
