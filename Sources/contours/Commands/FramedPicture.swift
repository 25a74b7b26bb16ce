import Foundation
import HeatMap

/// Pictures of frames: SVG small multiples (or one frame with --frame K)
/// and the HTML page with a time slider, every frame at the shared thresholds.
enum FramedPicture {
    static func write(
        _ run: FramedRun, thresholds: [Double], format: ExportCommand.Format, frame chosen: Int?,
        picture: HeatMapRenderOptions, to output: String?, control: ComputeControl
    ) throws {
        let count = run.frames.schedule.frames.count
        if let chosen, chosen >= count {
            throw ToolError.usage("--frame \(chosen): there are \(count) frames (0…\(count - 1))", command: "export")
        }
        var quiet = control
        quiet.progress = nil
        let kinds = ExportCommand.kinds(
            format: format, mode: picture.contourMode, configuration: run.configuration,
            simplify: nil)
        let style = HeatMapStyle(run.configuration)
        var pictures = FramePictures(options: picture, thresholds: thresholds, units: run.units, style: style)
        var single: String?
        try run.frames.forEachFrame(control: control) { frame, grid in
            if let chosen, frame.index != chosen { return }
            let start = UTCCalendar.iso8601(frame.start), end = UTCCalendar.iso8601(frame.end)
            if format == .html {
                // The page contours its frames itself: it keeps their grids.
                var grid = grid
                grid.units = run.units
                pictures.add(grid: grid, start: start, end: end)
                control.report(.export, Double(frame.index + 1) / Double(count))
                return
            }
            let contours = try FramedExport.contours(grid, run, thresholds: thresholds, kinds: kinds, control: quiet)
            if chosen != nil {
                single = FramePictures.single(
                    contours, start: start, end: end, thresholds: thresholds,
                    units: run.units, style: style, options: picture)
            } else {
                pictures.add(contours, start: start, end: end)
            }
            control.report(.export, Double(frame.index + 1) / Double(count))
        }
        let text = single ?? (format == .html ? pictures.page() : pictures.smallMultiples())
        try OutputFile.write(text, to: output)
    }
}
