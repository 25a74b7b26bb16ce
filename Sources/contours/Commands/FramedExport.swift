import Foundation
import HeatMap

/// `contours export --frames STEP`: every frame contoured at the same
/// thresholds on the same grid. GeoJSON holds every band of every frame,
/// frame by frame, each feature with `frame`, `start` and `end` (ISO 8601)
/// before the usual properties.
enum FramedExport {
    static func run(
        _ args: ParsedArguments, frames options: TimeFrameOptions, format: ExportCommand.Format,
        mode: ContourMode, geoJSON: @escaping (DensityGrid) -> GeoJSONOptions, picture: HeatMapRenderOptions,
        levelRule: ContourOptions.LevelRule?, output: String?,
        density: ToolConfiguration,
        control: ComputeControl
    ) throws {
        if args.isGiven(Options.simplify) {
            throw ToolError.usage("--simplify is not available with --frames", command: "export")
        }
        if args.isGiven(Options.frame), format != .svg {
            throw ToolError.usage(
                "--frame K draws one frame of an SVG; GeoJSON and HTML hold every frame", command: "export")
        }
        let run = try FramedRun.run(args, density, frames: options, control: control, forPicture: format != .geojson)
        let thresholds = try run.thresholds(levelRule, command: "export", control: control)
        if thresholds.isEmpty { Console.note("every frame is flat (no value above zero); there are no contours") }
        control.report(.export, 0)
        switch format {
        case .geojson:
            try OutputFile.streaming(to: output) { out in
                try writeGeoJSON(run, thresholds: thresholds, mode: mode, options: geoJSON, to: out, control: control)
            }
        case .svg, .html:
            try FramedPicture.write(
                run, thresholds: thresholds, format: format, frame: args[Options.frame],
                picture: picture, to: output, control: control)
        }
        control.report(.export, 1)
    }

    /// The contours of one frame at the shared thresholds.
    static func contours(
        _ grid: DensityGrid, _ run: FramedRun, thresholds: [Double], kinds: ContourKinds,
        control: ComputeControl
    ) throws -> HeatMapContours {
        var grid = grid
        grid.units = run.units
        return try HeatMapContours.compute(
            from: grid, thresholds: thresholds, configuration: run.configuration,
            control: control, kinds: kinds)
    }

    /// One FeatureCollection of every frame's features. Each frame is
    /// written by the library's GeoJSON writer (valid after rounding, as
    /// ever); its features are taken over with the frame's properties put
    /// first, and the collection's bbox is the union of the frames'.
    ///
    /// Frames are made a few at a time on all cores (contoured, assembled
    /// and written to memory at once), then written in order: memory holds
    /// that many frames' grids and texts, whatever the number of frames.
    static func writeGeoJSON(
        _ run: FramedRun, thresholds: [Double], mode: ContourMode,
        options optionsFor: (DensityGrid) -> GeoJSONOptions,
        to out: OutputFile, control: ComputeControl
    ) throws {
        var quiet = control
        quiet.progress = nil
        let empty = DensityGrid(
            geometry: run.frames.geometry, values: [Double](repeating: 0, count: run.frames.nodes),
            projection: run.frames.projection, radius: run.frames.radius, estimator: run.frames.estimator,
            units: run.units)
        let options = optionsFor(empty)
        let total = Double(run.frames.schedule.frames.count)
        var head = "{\"type\":\"FeatureCollection\""
        if let crsName = options.crsName {
            head += ",\"crs\":{\"type\":\"name\",\"properties\":{\"name\":\(JSONEscaping.quoted(crsName))}}"
        }
        head += ",\"bbox\":"
        try FramedGrid.write(head, to: out)
        let slotWidth = 120
        let slot = out.offset
        if slot != nil {
            try FramedGrid.write(String(repeating: " ", count: slotWidth), to: out)
        } else {
            try FramedGrid.write("null", to: out)
        }
        try FramedGrid.write(",\"features\":[", to: out)
        var box: BoundingBox?
        var written = 0
        let kinds = ContourKinds(mode)
        func made(_ frame: TimeFrame, _ grid: DensityGrid) throws -> FrameFeatures {
            var frameOptions = optionsFor(grid)
            frameOptions.gradient = frameOptions.gradient ?? run.configuration.gradient
            let contours = try contours(grid, run, thresholds: thresholds, kinds: kinds, control: quiet)
            let text = FrameText()
            try GeoJSONExport.write(
                GeoJSONContours(consume contours), mode: mode, options: frameOptions, to: text, control: quiet)
            let properties =
                "\"frame\":\(frame.index),\"start\":\"\(UTCCalendar.iso8601(frame.start))\","
                + "\"end\":\"\(UTCCalendar.iso8601(frame.end))\","
            return FrameFeatures(collection: text.bytes, properties: Array(properties.utf8))
        }
        try run.frames.forEachFrameBatch(size: Parallel.workerCount, control: control) { batch in
            let features = try Parallel.map(batch.count, control: quiet) { i in try made(batch[i].0, batch[i].1) }
            for (i, frame) in features.enumerated() {
                if let b = frame.box { box = box.map { $0.union(b) } ?? b }
                if !frame.isEmpty {
                    if written > 0 { try FramedGrid.write(",", to: out) }
                    try frame.write(to: out)
                    written += 1
                }
                control.report(.export, Double(batch[i].0.index + 1) / total)
            }
        }
        var bboxText = box.map { $0.json(decimals: options.precision) } ?? "null"
        if let slot, bboxText.utf8.count <= slotWidth {
            bboxText += String(repeating: " ", count: slotWidth - bboxText.utf8.count)
            try FramedGrid.write("\n]}\n", to: out)
            var bytes = Array(bboxText.utf8)
            try bytes.withUnsafeMutableBytes { try out.overwrite(at: slot, with: UnsafeRawBufferPointer($0)) }
        } else {
            try FramedGrid.write("\n]}\n", to: out)
        }
    }

    /// A GeoJSON bbox [west, south, east, north].
    struct BoundingBox {
        var west, south, east, north: Double

        /// The `"bbox":[…]` member of a FeatureCollection's text, if any.
        init?(member text: String) {
            guard let start = text.range(of: "\"bbox\":["),
                let end = text[start.upperBound...].firstIndex(of: "]")
            else { return nil }
            let values = text[start.upperBound..<end].split(separator: ",").compactMap {
                Double($0.trimmingCharacters(in: .whitespaces))
            }
            guard values.count == 4 else { return nil }
            (west, south, east, north) = (values[0], values[1], values[2], values[3])
        }

        init(west: Double, south: Double, east: Double, north: Double) {
            (self.west, self.south, self.east, self.north) = (west, south, east, north)
        }

        /// The box holding both; across ±180° (west > east in either) the whole circle of longitude.
        func union(_ b: BoundingBox) -> BoundingBox {
            let crossing = west > east || b.west > b.east
            return BoundingBox(
                west: crossing ? -180 : min(west, b.west), south: min(south, b.south),
                east: crossing ? 180 : max(east, b.east), north: max(north, b.north))
        }

        func json(decimals: Int) -> String {
            func text(_ v: Double) -> String {
                var s = String(format: "%.\(decimals)f", v)
                if s.contains(".") {
                    while s.hasSuffix("0") { s.removeLast() }
                    if s.hasSuffix(".") { s.removeLast() }
                }
                return s == "-0" ? "0" : s
            }
            return "[\(text(west)),\(text(south)),\(text(east)),\(text(north))]"
        }
    }
}
