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
        if format == .html, chosen == nil {
            try writePage(run, thresholds: thresholds, picture: picture, to: output, control: control)
            return
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
        try OutputFile.write(single ?? pictures.smallMultiples(), to: output)
    }

    /// The HTML page, written a frame at a time: the page contours its
    /// frames itself and keeps their grids, encoded, so memory holds one
    /// frame's grid and text whatever the number of frames.
    static func writePage(
        _ run: FramedRun, thresholds: [Double], picture: HeatMapRenderOptions, to output: String?,
        control: ComputeControl
    ) throws {
        let schedule = run.frames.schedule
        let count = schedule.frames.count
        let pictures = FramePictures(
            options: picture, thresholds: thresholds, units: run.units, style: HeatMapStyle(run.configuration))
        let first = schedule.frames[0]
        let head = pictures.pageHead(
            geometry: run.frames.geometry, projection: run.frames.projection, frameCount: count,
            firstLabel: FramePictures.label(
                start: UTCCalendar.iso8601(first.start), end: UTCCalendar.iso8601(first.end)))
        try OutputFile.writing(to: output) { out in
            try out.write(head)
            try run.frames.forEachFrame(control: control) { frame, grid in
                try out.write(
                    FramePictures.pageEntry(
                        frame.index, grid: grid, start: UTCCalendar.iso8601(frame.start),
                        end: UTCCalendar.iso8601(frame.end)))
                control.report(.export, Double(frame.index + 1) / Double(count))
            }
            try out.write(FramePictures.pageTail)
        }
    }
}
