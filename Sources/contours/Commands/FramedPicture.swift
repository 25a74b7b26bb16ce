import Foundation
import HeatMap

/// SVG small multiples and the HTML page with a time slider.
enum FramedPicture {
    static func write(_ run: FramedRun, thresholds: [Double], format: ExportCommand.Format, frame: Int?,
                      picture: HeatMapRenderOptions, to output: String?, control: ComputeControl) throws {
        throw ToolError.usage("pictures of frames are not written yet", command: "export")
    }
}
