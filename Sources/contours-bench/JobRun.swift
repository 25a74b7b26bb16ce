import Foundation
import HeatMap

/// One run of the library job, from readings in memory or a CSV to
/// contours and, when asked, a GeoJSON file.
enum JobRun {
    struct Figures {
        var levels = 0
        var polygons = 0
        var vertices = 0
        var bytes = 0
    }

    static func configuration(_ o: JobOptions) -> HeatMapConfiguration {
        HeatMapConfiguration(radius: o.radius, contourLevels: o.levels, levelSpacing: .quantile,
                             gridResolution: o.resolution,
                             smoother: o.smooth == 0 ? .none : .chaikin(iterations: o.smooth))
    }

    /// The whole job. `flag` stops the steps that take a control (the CSV
    /// path, the export); the in-memory path stops when its task is cancelled.
    static func run(_ o: JobOptions, readings: [StormReading], csv: String?, clock: StageClock,
                    flag: CancellationFlag) async throws -> Figures {
        let configuration = configuration(o)
        let control = ComputeControl(cancellation: flag, progress: { clock.note($0) })
        let contours: HeatMapContours
        if let csv {
            let options = PointReaderOptions(columns: PointColumns(latitude: "lat", longitude: "long", weight: "wind"))
            let points = try StreamedPoints.read(path: csv, options: options, control: control)
            let density = try StreamedDensity.compute(from: points, configuration: configuration, control: control)
            contours = try HeatMapContours.compute(from: density.grid, configuration: density.configuration,
                                                   control: control, summary: density.summary)
        } else {
            contours = try await HeatMapContours.compute(from: readings, configuration: configuration,
                                                         progress: { clock.note($0) })
        }
        var figures = Figures(levels: contours.levelCount)
        if o.polygons {
            clock.mark("polygons")
            let polygons = contours.contours
            try control.checkCancellation()
            figures.polygons = polygons.count
            figures.vertices = polygons.reduce(0) { $0 + $1.coordinates.count + $1.interiorPolygons.reduce(0) { $0 + $1.count } }
        } else {
            figures.polygons = contours.contourSet.bands.reduce(0) { $0 + $1.count }
        }
        if let output = o.output {
            clock.mark("export")
            let text = try GeoJSONExport.contours(contours, control: control)
            try control.checkCancellation()
            clock.mark("write")
            try text.write(toFile: output, atomically: true, encoding: .utf8)
            figures.bytes = text.utf8.count
        }
        return figures
    }
}
