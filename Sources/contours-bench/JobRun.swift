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
        /// The app path's figures (in-memory input with its polygons read).
        var app: AppPath.Figures?
        /// CPU seconds (user + system) of the export and its write.
        var exportCPU: Double?
        /// Wall seconds of the export and its write.
        var exportWall: Double?
    }

    static func configuration(_ o: JobOptions) -> HeatMapConfiguration {
        HeatMapConfiguration(
            radius: o.radius, contourLevels: o.levels, levelSpacing: .quantile,
            gridResolution: o.resolution,
            smoother: o.smooth == 0 ? .none : .chaikin(iterations: o.smooth))
    }

    /// The whole job. `flag` stops the steps that take a control (the CSV
    /// path, the export); the in-memory path stops when its task is cancelled.
    static func run(
        _ o: JobOptions, readings: [StormReading], csv: String?, clock: StageClock,
        flag: CancellationFlag
    ) async throws -> Figures {
        let configuration = configuration(o)
        let control = ComputeControl(cancellation: flag, progress: { clock.note($0) })
        let contours: HeatMapContours
        if let csv {
            let options = PointReaderOptions(columns: PointColumns(latitude: "lat", longitude: "long", weight: "wind"))
            let points = try StreamedPoints.read(path: csv, options: options, control: control)
            let density = try StreamedDensity.compute(from: points, configuration: configuration, control: control)
            contours = try HeatMapContours.compute(
                from: density.grid, configuration: density.configuration,
                control: control, summary: density.summary)
        } else if o.polygons {
            // The app path: compute awaited on the main actor, the polygons
            // read and a tap answered there.
            let tap = readings.first?.coordinate ?? LocationCoordinate2D(latitude: 0, longitude: 0)
            let (made, app) = try await AppPath.run(readings, configuration: configuration, tap: tap, clock: clock)
            contours = made
            var figures = Figures(levels: contours.levelCount, polygons: app.polygons, vertices: app.vertices, app: app)
            try export(contours, o, control: control, clock: clock, into: &figures)
            return figures
        } else {
            // An export's path: no polygons, no index.
            contours = try await Task.detached {
                try HeatMapContours.compute(
                    from: readings, configuration: configuration, control: control,
                    kinds: .bands)
            }.value
        }
        var figures = Figures(levels: contours.levelCount)
        if o.polygons {
            clock.mark("polygons")
            let polygons = try contours.polygons(control: control)
            figures.polygons = polygons.count
            figures.vertices = polygons.reduce(0) {
                $0 + $1.coordinates.count + $1.interiorPolygons.reduce(0) { $0 + $1.count }
            }
        }
        try export(contours, o, control: control, clock: clock, into: &figures)
        return figures
    }

    /// Writes the GeoJSON file when asked for, timing its wall and CPU seconds.
    static func export(
        _ contours: HeatMapContours, _ o: JobOptions, control: ComputeControl, clock: StageClock,
        into figures: inout Figures
    ) throws {
        guard let output = o.output else { return }
        let wall = DispatchTime.now().uptimeNanoseconds, cpu = CPUTime.seconds
        clock.mark("export")
        let text = try GeoJSONExport.contours(contours, control: control)
        try control.checkCancellation()
        clock.mark("write")
        try text.write(toFile: output, atomically: true, encoding: .utf8)
        figures.bytes = text.utf8.count
        figures.exportCPU = CPUTime.seconds - cpu
        figures.exportWall = Double(DispatchTime.now().uptimeNanoseconds - wall) / 1e9
    }
}
