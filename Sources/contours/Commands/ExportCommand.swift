import Foundation
import HeatMap

/// `contours export`: points → density → contours → GeoJSON, SVG or HTML.
enum ExportCommand {
    enum Format: String { case geojson, svg, html }

    static func run(_ args: ParsedArguments, control: ComputeControl) throws {
        // Every option is checked (and a basemap read) before any input is.
        let format = args.format(Options.exportFormat)
        let mode = args[Options.mode]
        let grouping = args[Options.feature]
        let requestedPrecision = args.given(Options.precision)
        let simplify = args[Options.simplify]
        let output = try Settings.output(args)
        let density = try ToolConfiguration(args)
        try Settings.checkBasemapTiles(
            args, html: format == .html, geographic: density.configuration.projection != .planar)
        let levelRule = try ContourOptions.levelRule(args)
        let userCRS = try Settings.crs(args, projection: density.configuration.projection)
        var picture = format == .geojson ? HeatMapRenderOptions() : try Settings.picture(args)
        picture.contourMode = mode

        if let frames = try TimeSettings.frames(args) {
            if args.isGiven(Options.basemapTiles) {
                throw ToolError.usage(
                    "--basemap-tiles is not drawn under time frames yet; leave out --frames or the tiles",
                    command: args.command.name)
            }
            try FramedExport.run(
                args, frames: frames, format: format, mode: mode,
                geoJSON: { grid in
                    var options = ContourOptions.attributes(
                        args,
                        GeoJSONOptions(
                            precision: requestedPrecision ?? defaultPrecision(for: grid), grouping: grouping),
                        grid: grid)
                    options.crsName = userCRS.map(RasterExport.crsName)
                    return options
                }, picture: picture, levelRule: levelRule, output: output, density: density, control: control)
            return
        }

        let input = try Settings.openInput(args, path: Settings.input(args, operands: args.operands[...]))
        if let raster = try RasterExport.raster(input) {
            try RasterExport.run(
                raster, args, configuration: density.configuration, levels: levelRule,
                format: format, mode: mode, grouping: grouping,
                precision: requestedPrecision, simplify: simplify, picture: picture, output: output,
                control: control)
            return
        }
        let (contours, options) = try Self.contours(
            args, density, input, levelRule, format: format, mode: mode,
            precision: requestedPrecision, grouping: grouping,
            crs: userCRS, simplify: simplify, control: control)
        control.report(.export, 0)
        if let simplify {
            let set = try simplified(
                contours, tolerance: simplify, format: format, mode: mode, picture: picture,
                control: control)
            try write(
                set, contours, format: format, mode: mode, picture: picture, options: options, to: output,
                control: control)
            control.report(.export, 1)
            return
        }
        switch format {
        case .geojson:
            // A streamed export reads the contours, not the grid: the grid
            // goes before the writing starts, which lowers the peak by its size.
            let export = GeoJSONContours(consume contours)
            MemoryPolicy.returnFreeMemory()
            try OutputFile.streaming(to: output) { out in
                try GeoJSONExport.write(export, mode: mode, options: options, to: out, control: control)
            }
        case .svg:
            try OutputFile.write(HeatMapRenderer.svg(contours, options: picture), to: output)
        case .html:
            try OutputFile.write(HeatMapRenderer.html(contours, options: picture), to: output)
        }
        control.report(.export, 1)
    }

    /// Reads the input, computes its grid and contours, and the GeoJSON
    /// options that follow from the grid. The points and the grid's own
    /// handles end here; the result still holds the grid.
    private static func contours(
        _ args: ParsedArguments,
        _ density: ToolConfiguration,
        _ input: InputFile, _ levelRule: ContourOptions.LevelRule?, format: Format, mode: ContourMode,
        precision: Int?, grouping: GeoJSONFeatureGrouping, crs: RasterCRS?, simplify: Double??,
        control: ComputeControl
    ) throws -> (HeatMapContours, GeoJSONOptions) {
        let run = try DensityRun.run(
            args, density, operands: args.operands[...], input: input, control: control,
            forPicture: format != .geojson)
        let configuration = try ToolConfiguration.settled(
            run.configuration, byLevels: levelRule, grid: run.density.grid,
            command: args.command.name)
        let grid = run.density.grid
        var options = ContourOptions.attributes(
            args, GeoJSONOptions(precision: precision ?? defaultPrecision(for: grid), grouping: grouping),
            grid: grid)
        options.crsName = crs.map(RasterExport.crsName)
        options.kernel = GeoJSONKernelMember(grid)
        let contours = try HeatMapContours.compute(
            from: grid, configuration: configuration,
            control: control, summary: run.density.summary,
            kinds: kinds(
                format: format, mode: mode,
                configuration: configuration, simplify: simplify))
        run.describeEmptyLevels(contours.thresholds, spacing: configuration.levelSpacing, rule: levelRule)
        return (contours, options)
    }

    /// The kinds an export draws or writes: the mode's, and for a picture
    /// whose style strokes contour lines, the isolines as well. A picture
    /// of simplified isolines is framed by the bands as they were.
    static func kinds(
        format: Format, mode: ContourMode, configuration: HeatMapConfiguration,
        simplify: Double??
    ) -> ContourKinds {
        var kinds = ContourKinds(mode)
        guard format != .geojson else { return kinds }
        if configuration.renderMode.isolineStroke != nil { kinds.insert(.isolines) }
        if mode == .isolines && simplify != nil { kinds.insert(.bands) }
        return kinds
    }

    /// The contours' set simplified along shared arcs (`--simplify`);
    /// `tolerance` nil is automatic.
    static func simplified(
        _ contours: HeatMapContours, tolerance: Double?, format: Format, mode: ContourMode,
        picture: HeatMapRenderOptions, control: ComputeControl
    ) throws -> ContourSet {
        let tolerance = tolerance ?? autoTolerance(for: contours.grid, format: format, picture: picture)
        return try contours.contourSet.simplified(
            tolerance: tolerance, on: contours.grid, modes: [mode],
            control: control)
    }

    /// Half a pixel of a picture of the whole grid, or a quarter of a grid
    /// cell for GeoJSON (the grid holds no finer detail), in plane units.
    static func autoTolerance(for grid: DensityGrid, format: Format, picture: HeatMapRenderOptions) -> Double {
        let box = grid.geometry.cellBox
        guard format != .geojson else { return min(grid.geometry.dx, grid.geometry.dy) / 4 }
        let pixel = max((box.maxX - box.minX) / picture.width, (box.maxY - box.minY) / picture.height)
        return pixel.isFinite ? pixel / 2 : 0
    }

    /// Writes a contour set made from `contours` (simplified) in `format`.
    static func write(
        _ set: ContourSet, _ contours: HeatMapContours, format: Format, mode: ContourMode,
        picture: HeatMapRenderOptions, options: GeoJSONOptions, to output: String?,
        control: ComputeControl
    ) throws {
        var options = options
        options.gradient = options.gradient ?? contours.gradient
        options.fillOpacity = options.fillOpacity ?? contours.fillOpacity
        let style = HeatMapStyle(contours.configuration)
        switch format {
        case .geojson:
            try OutputFile.streaming(to: output) { out in
                try GeoJSONExport.write(
                    set, projection: contours.projection, units: contours.units, mode: mode,
                    gradient: options.gradient ?? .thermal, fillOpacity: options.fillOpacity ?? 1,
                    options: options, to: out, control: control)
            }
        case .svg:
            try OutputFile.write(
                HeatMapRenderer.svg(
                    contourSet: set, projection: contours.projection,
                    units: contours.units, style: style, options: picture), to: output)
        case .html:
            try OutputFile.write(
                HeatMapRenderer.html(
                    contourSet: set, projection: contours.projection,
                    units: contours.units, style: style, options: picture), to: output)
        }
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
