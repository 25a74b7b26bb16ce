import Foundation
import HeatMap

/// `contours bin --shape h3`: points (or pre-aggregated H3 rows, `--h3
/// COLUMN`) → H3 cells with aggregates, as GeoJSON, CSV, SVG or HTML.
enum H3BinCommand {
    static func run(_ args: ParsedArguments, control: ComputeControl) throws {
        // Pre-aggregated rows already hold counts: a cell's count is their
        // sum, not how many rows fell in it.
        let aggregate = args.given(Options.aggregate) ?? (args[Options.h3Column] == nil ? .count : .sum)
        let format = args.format(Options.binFormat)
        if try Settings.projection(args) == .planar {
            throw ToolError.usage("--shape h3 bins longitude/latitude; it does not take --planar", command: "bin")
        }
        let asked = args[Options.h3Resolution]
        let settings = try BinSettings(args, format: format)
        let (precision, output, options, path) = (settings.precision, settings.output, settings.reader, settings.input)
        let includeEmpty = args[Options.includeEmpty]

        var binner: H3Binner
        var valueName = options.columns.value ?? options.columns.weight ?? "weight"
        control.report(.bin, 0)
        if let column = args[Options.h3Column] {
            let rows = try H3CellReader.read(
                path: path, column: column, weight: options.columns.weight ?? options.columns.value,
                skipInvalid: options.skipInvalid)
            Console.report(rows.rejections, rows: rows.rowsRead)
            valueName = rows.weightColumn ?? "rows"
            let finest = rows.cells.map(\.resolution).max() ?? 0
            let coarsest = rows.cells.map(\.resolution).min() ?? 0
            let resolution = asked ?? coarsest
            if asked == nil, !rows.cells.isEmpty {
                Console.note(
                    "H3 resolution \(resolution) (the coarsest of the input cells; set it with --h3-resolution)")
            }
            guard resolution <= coarsest || rows.cells.isEmpty else {
                throw ToolError.usage(
                    "--h3-resolution \(resolution) is finer than input cells of resolution \(coarsest); "
                        + "cells can only be re-aggregated to their resolution or coarser (inputs are \(coarsest)…\(finest))",
                    command: "bin")
            }
            binner = try H3Binner(resolution: resolution)
            try binner.add(cells: rows.cells, weights: rows.weightColumn == nil ? nil : rows.weights)
        } else {
            let points = try StreamedPoints.read(path: path, options: options, control: control)
            Console.report(points.rejections, rows: points.rowsRead)
            if points.count == 0 { DensityRun.describeOddities(points, estimator: .density) }
            let resolution = asked ?? automaticResolution(points.statistics)
            if asked == nil, points.count > 0 {
                Console.note(
                    "H3 resolution \(resolution) (average edge \(ArgumentValues.text(BinCommand.rounded(H3Cell.averageEdgeKm[resolution]))) km, "
                        + "from the data; set it with --h3-resolution)")
            }
            binner = try H3Binner(resolution: resolution)
            let useValues = options.columns.value != nil || options.columns.weight != nil
            var done = 0
            try points.forEachBatch(control: control) { batch in
                let values = useValues ? (options.columns.value != nil ? batch.value : batch.weight) : nil
                try binner.add(latitudes: batch.latitude, longitudes: batch.longitude, values: values, control: control)
                done += batch.count
                control.report(.bin, Double(done) / Double(max(points.count, 1)))
            }
        }
        let result: H3BinningResult
        do {
            result = try binner.result(
                includeEmpty: includeEmpty, maximumCells: args[Options.maxCells], control: control)
        } catch HeatMapError.invalidConfiguration(let why) {
            throw ToolError.failure(why + " or a larger --max-cells")
        }

        control.report(.export, 0)
        let text: String
        switch format {
        case .geojson:
            let geo = settings.geoJSON
            text = try GeoJSONExport.h3Bins(result, aggregate: aggregate, options: geo, control: control)
        case .csv:
            text = H3CSV.text(result, aggregate: aggregate, precision: precision)
        case .svg, .html:
            let name = BinSettings.valueLabel(aggregate, of: valueName)
            text = settings.picture(
                HeatMapBinLayer(result, aggregate: aggregate, valueName: name), aggregate: aggregate)
        }
        try OutputFile.write(text, to: output)
        control.report(.export, 1)
    }

    /// The resolution whose average edge is nearest the hexagon size
    /// `contours bin` would choose (a fortieth of the data's longer side).
    static func automaticResolution(_ s: InputStatistics) -> Int {
        H3Cell.resolution(nearestEdgeKm: BinCommand.defaultSize(s, projection: .equalArea))
    }
}
