import Foundation
import HeatMap

/// `contours export`: points → density → contours → GeoJSON, SVG or HTML.
enum ExportCommand {
    enum Format: String { case geojson, svg, html }

    static func run(_ args: ParsedArguments, control: ComputeControl) throws {
        // Every option is checked (and a basemap read) before any input is.
        let format = try args.choice(Options.exportFormat, [("geojson", Format.geojson), ("json", .geojson),
                                                            ("svg", .svg), ("html", .html)]) ?? .geojson
        let mode = try args.choice(Options.mode, ContourMode.allCases.map { ($0.rawValue, $0) }) ?? .bands
        let grouping = try args.choice(Options.feature, [("level", GeoJSONFeatureGrouping.level), ("band", .level),
                                                         ("polygon", .polygon)]) ?? .level
        let requestedPrecision = try args.integer(Options.precision, in: 0...15)
        let output = try Settings.output(args)
        _ = try Settings.configuration(args)
        var picture = format == .geojson ? HeatMapRenderOptions() : try Settings.picture(args)
        picture.contourMode = mode

        let run = try DensityRun.run(args, operands: args.operands[...], control: control, forPicture: format != .geojson)
        let contours = try HeatMapContours.compute(from: run.density.grid, configuration: run.configuration,
                                                   control: control, summary: run.density.summary)
        run.describeEmptyLevels(contours.thresholds)
        control.report(.export, 0)
        let precision = requestedPrecision ?? defaultPrecision(for: contours.grid)
        let text: String
        switch format {
        case .geojson:
            text = try GeoJSONExport.contours(contours, mode: mode,
                                              options: GeoJSONOptions(precision: precision, grouping: grouping),
                                              control: control)
        case .svg:
            text = HeatMapRenderer.svg(contours, options: picture)
        case .html:
            text = HeatMapRenderer.html(contours, options: picture)
        }
        try OutputFile.write(text, to: output)
        control.report(.export, 1)
    }

    /// Degrees keep GeoJSON's customary 6 decimals (about 0.1 m). Planar
    /// units are arbitrary, so their default keeps rounding below a
    /// millionth of a grid cell, where it cannot move a band's area by
    /// more than about 1e-6 of itself.
    static func defaultPrecision(for grid: DensityGrid) -> Int {
        guard !grid.projection.isGeographic else { return 6 }
        let cell = min(grid.geometry.dx, grid.geometry.dy)
        guard cell > 0, cell.isFinite else { return 6 }
        return min(max(6, Int((-log10(cell * 1e-6)).rounded(.up))), 15)
    }
}
