import Foundation
import HeatMap

/// `contours grid --frames STEP`: one grid per frame, all on one grid
/// geometry with one radius. JSON holds the usual members, the frames'
/// shared thresholds and `"frames": [{"start", "end", "values"}, …]`;
/// GeoTIFF one band per frame, described by its start.
enum FramedGrid {
    static func run(
        _ args: ParsedArguments, frames options: TimeFrameOptions, format: GridCommand.Format,
        output: String?, crs userCRS: RasterCRS?,
        density: ToolConfiguration,
        control: ComputeControl
    ) throws {
        if format == .asc {
            throw ToolError.usage(
                "an ESRI ASCII grid holds one grid; frames are written as --format json or tiff",
                command: "grid")
        }
        let run = try FramedRun.run(args, density, frames: options, control: control)
        let frames = run.frames
        control.report(.export, 0)
        let total = Double(frames.schedule.frames.count)
        switch format {
        case .json, .asc:
            try OutputFile.streaming(to: output) { out in
                var first = true
                try frames.forEachFrame(control: control) { frame, grid in
                    var text = ""
                    if first {
                        first = false
                        let crs = userCRS ?? RasterCRS.of(grid.projection)
                        text = GridEncoding.jsonMembers(grid, crs: crs)
                        text +=
                            ",\"time\":{\"step\":\"\(options.step)\",\"window\":\"\(options.window ?? options.step)\""
                        text += ",\"cumulative\":\(options.cumulative)},\"frames\":[\n"
                    } else {
                        text = ",\n"
                    }
                    text += "{\"frame\":\(frame.index),\"start\":\"\(UTCCalendar.iso8601(frame.start))\""
                    text += ",\"end\":\"\(UTCCalendar.iso8601(frame.end))\",\"values\":["
                    try write(text, to: out)
                    try writeValues(grid.values, to: out)
                    try write("]}", to: out)
                    control.report(.export, Double(frame.index + 1) / total)
                }
                try write("\n]}\n", to: out)
            }
        case .tiff:
            let tiff = GeoTIFFWriter.Options(
                sampleType: args[Options.float64] ? .float64 : .float32,
                crs: userCRS, software: Help.version)
            var bands = try GeoTIFFBands(geometry: frames.geometry, options: tiff)
            try frames.forEachFrame(control: control) { frame, grid in
                try bands.add(
                    grid, description: UTCCalendar.iso8601(frame.start),
                    items: [("START", UTCCalendar.iso8601(frame.start)), ("END", UTCCalendar.iso8601(frame.end))])
                control.report(.export, 0.9 * Double(frame.index + 1) / total)
            }
            try OutputFile.streaming(to: output) { out in try bands.write { try out.write($0) } }
        }
        control.report(.export, 1)
    }

    static func write(_ text: String, to sink: ByteSink) throws {
        var text = text
        try text.withUTF8 { try sink.write(UnsafeRawBufferPointer($0)) }
    }

    /// Values as the JSON grid writes them (shortest round-trip, null for NaN), in blocks.
    static func writeValues(_ values: [Double], to sink: ByteSink) throws {
        var text = ""
        text.reserveCapacity(1 << 16)
        for (i, v) in values.enumerated() {
            if i > 0 { text += "," }
            text += v.isNaN ? "null" : GridEncoding.number(v)
            if text.utf8.count > 60_000 {
                try write(text, to: sink)
                text = ""
            }
        }
        try write(text, to: sink)
    }
}
