import Foundation
import HeatMap

/// The part the framed commands share: read the points with their times,
/// plan one grid and radius over all of them, fill each time interval's
/// grid once, and place the thresholds every frame shares.
struct FramedRun {
    let points: StreamedPoints
    let frames: FrameDensity
    /// The configuration as used (radius and resolution chosen).
    let configuration: HeatMapConfiguration
    /// The unit of the values.
    let units: String

    static func run(
        _ args: ParsedArguments, _ settings: ToolConfiguration,
        frames options: TimeFrameOptions, control: ComputeControl,
        forPicture: Bool = false
    ) throws -> FramedRun {
        var settings = settings
        let path = try Settings.input(args, operands: args.operands[...])
        let input = try Settings.openInput(args, path: path)
        if input.kind.isRaster {
            throw ToolError.usage("a raster holds no times: --frames reads points", command: args.command.name)
        }
        if input.kind == .cells {
            throw ToolError.usage("a cells table holds no times: --frames reads points", command: args.command.name)
        }
        if args.isGiven(Options.h3Column) {
            throw ToolError.usage("--h3 cells hold no times: --frames reads points", command: args.command.name)
        }
        let reading = try Settings.reader(args)
        let points = try StreamedPoints.read(input: input, options: reading, control: control)
        Console.report(points.rejections, rows: points.rowsRead)
        if forPicture, !args.isGiven(Options.radius),
            let rule = PictureRadius(points.statistics, geographic: settings.configuration.projection != .planar)
        {
            settings = settings.settled(byPicture: rule, resolutionGiven: args.isGiven(Options.resolution))
        }
        let configuration = settings.configuration
        let made = try FrameDensity.make(
            streamed: points, configuration: configuration,
            resolutionFromData: settings.resolutionFromData,
            frames: options, control: control)
        DensityRun.describeOddities(points, estimator: configuration.estimator)
        var units = made.projection.densityUnits
        if forPicture, let given = Settings.units(args, areaUnits: units) { units = given }
        if made.pointsInFrames < points.count {
            let span =
                "\(UTCCalendar.iso8601(made.schedule.edges.first ?? 0)) … \(UTCCalendar.iso8601(made.schedule.edges.last ?? 0))"
            Console.note(
                "\(points.count - made.pointsInFrames) of \(points.count) points are in no frame (outside \(span)"
                    + (made.schedule.hasGaps ? ", or between windows shorter than the step)" : ")"))
        }
        return FramedRun(points: points, frames: made, configuration: made.configuration, units: units)
    }

    /// The thresholds every frame shares: a level rule over the range of
    /// all frames, else the spacing over all frames' values.
    func thresholds(_ rule: ContourOptions.LevelRule?, command: String, control: ComputeControl) throws -> [Double] {
        guard let rule else {
            return try frames.thresholds(
                spacing: configuration.levelSpacing, levelCount: configuration.contourLevels,
                control: control)
        }
        var highest = 0.0
        // A read-only pass: the frames' values in one reused buffer (NaN, undefined, never counts).
        try frames.forEachFrameValues(control: control) { _, values in
            for v in values where v > highest { highest = v }
        }
        do {
            switch rule {
            case .interval(let interval, let offset):
                return try IntervalLevels.interval(interval, offset: offset, minimum: 0, maximum: highest)
            case .exponential(let base):
                return try IntervalLevels.exponential(base: base, minimum: 0, maximum: highest)
            }
        } catch let e as IntervalLevels.Failure {
            throw ToolError.usage(e.description, command: command)
        }
    }
}
