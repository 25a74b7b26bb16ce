import Foundation
import HeatMap

/// `contours export RASTER`: a GeoTIFF, ESRI ASCII grid or JSON grid
/// contoured as it is.
enum RasterExport {
    /// The raster INPUT holds, nil when it holds points or cells. A stream
    /// is read whole from the bytes already sniffed; an ESRI grid named by
    /// its path also reads the `.prj` beside it.
    static func raster(_ input: InputFile) throws -> RasterGrid? {
        guard input.kind.isRaster else { return nil }
        do {
            let bytes = try input.readAll()
            var prj: String?
            if input.kind == .asciiGrid, let path = input.path { prj = RasterReader.prj(besides: path) }
            let name = input.path.map { ($0 as NSString).lastPathComponent } ?? "stdin"
            let raster = try RasterReader.read(bytes, name: name, prj: prj)
            if raster.bands > 1 {
                Console.note(
                    "\(name) has \(raster.bands) bands; contouring the first, as gdal_contour does"
                        + " (a GeoTIFF of --frames holds a frame per band: its first frame)")
            }
            return raster
        } catch let e as RasterCodecError {
            throw ToolError.failure(e.description)
        }
    }

    /// The CRS name for the `crs` member: `urn:ogc:def:crs:EPSG::N` for codes.
    static func crsName(_ crs: RasterCRS) -> String {
        if case .epsg(let code) = crs { return "urn:ogc:def:crs:EPSG::\(code)" }
        return crs.proj
    }
}

extension RasterExport {
    /// Contours a raster and writes them.
    static func run(
        _ raster: RasterGrid, _ args: ParsedArguments, configuration configured: HeatMapConfiguration,
        levels rule: ContourOptions.LevelRule?, format: ExportCommand.Format, mode: ContourMode,
        grouping: GeoJSONFeatureGrouping, precision requested: Int?, simplify: Double??,
        picture: HeatMapRenderOptions, output: String?, control: ComputeControl
    ) throws {
        let pointOptions: [any OptionDeclaration] = [
            Options.lat, Options.lon, Options.weight, Options.value,
            Options.radius, Options.resolution, Options.padding,
            Options.projection, Options.crs
        ]
        for option in pointOptions where args.text(option) != nil {
            throw ToolError.usage(
                "\(option.name) is for point input; a raster is contoured as it is", command: "export")
        }
        let name = (args.operands.first.map { ($0 as NSString).lastPathComponent }) ?? "raster"
        var keptCRS: String?
        switch raster.reference {
        case .unsupported(let what):
            guard args[Options.keepCRS] else {
                throw ToolError.failure(
                    "\(name): its CRS is \(what), which this tool cannot map to longitude/latitude (it knows EPSG:4326, EPSG:3857, UTM EPSG:326zz/327zz and its own); reproject it with gdalwarp -t_srs EPSG:4326, or add --keep-crs to write contours in its own coordinates"
                )
            }
            keptCRS =
                what.hasPrefix("EPSG:") ? "urn:ogc:def:crs:EPSG::\(what.dropFirst(5).prefix { $0.isNumber })" : what
        default:
            break
        }
        let configuration = try ToolConfiguration.settled(
            configured, byLevels: rule, grid: raster.grid,
            command: args.command.name)
        let contours = try HeatMapContours.compute(
            from: raster.grid, configuration: configuration, control: control,
            kinds: ExportCommand.kinds(
                format: format, mode: mode, configuration: configuration,
                simplify: simplify))
        if contours.thresholds.isEmpty {
            // A grid of nodata only has no range: its minimum and maximum read 0.
            let range =
                raster.grid.values.contains { !$0.isNaN }
                ? "inside the raster's range \(ArgumentValues.text(raster.grid.minimum)) … \(ArgumentValues.text(raster.grid.maximum))"
                : "in a raster whose every pixel is nodata"
            Console.note("\(name): no levels \(range); the result is empty")
        }
        control.report(.export, 0)
        let set =
            try simplify.map {
                try ExportCommand.simplified(
                    contours, tolerance: $0, format: format, mode: mode, picture: picture,
                    control: control)
            } ?? contours.contourSet
        switch format {
        case .geojson:
            let (lonLatSet, projection) = raster.lonLat(set)
            let precision =
                requested ?? (projection.isGeographic ? 6 : ExportCommand.defaultPrecision(for: raster.grid))
            var options = ContourOptions.attributes(
                args, GeoJSONOptions(precision: precision, grouping: grouping),
                grid: raster.grid)
            options.crsName = keptCRS
            // A JSON grid names its kernel and radii; other rasters read as the default.
            options.kernel = GeoJSONKernelMember(raster.grid)
            try OutputFile.streaming(to: output) { out in
                try GeoJSONExport.write(
                    lonLatSet, projection: projection, units: raster.units ?? "", mode: mode,
                    gradient: contours.gradient, fillOpacity: contours.fillOpacity,
                    options: options, to: out, control: control)
            }
        case .svg, .html:
            if simplify != nil {
                try ExportCommand.write(
                    set, contours, format: format, mode: mode, picture: picture,
                    options: GeoJSONOptions(), to: output, control: control)
            } else {
                let page =
                    format == .svg
                    ? HeatMapRenderer.svg(contours, options: picture)
                    : HeatMapRenderer.html(contours, options: picture)
                try OutputFile.write(page, to: output)
            }
        }
        control.report(.export, 1)
    }
}
