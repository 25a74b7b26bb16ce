import Foundation
import HeatMap

/// The library configuration a command runs with, and every change made to
/// it, in one place. It is built from the options (``init(_:)``), then
/// settled by what the input brings: a cells table's own grid
/// (``settled(byCells:)``), a picture's radius rule
/// (``settled(byPicture:resolutionGiven:)``) and levels placed by a rule
/// over the grid's range (``settled(byLevels:grid:command:)``). The
/// commands read it and never change it themselves.
struct ToolConfiguration {
    /// The density and contour configuration.
    var configuration: HeatMapConfiguration
    /// Whether the grid's resolution is to come from the data (--radius
    /// auto, or a rule, without --resolution).
    var resolutionFromData: Bool

    /// The configuration the options ask for.
    ///
    /// - Throws: a usage error for contradicting options, or a radius and
    ///   padding whose grid would not fit in a Double.
    init(_ args: ParsedArguments) throws {
        let kind = try Settings.projection(args)
        // The radius a rule falls back on when it has nothing to measure
        // (one point, all points at one place).
        var radius = kind == .planar ? 1 : HeatMapConfiguration().radius
        let bandwidth: Bandwidth
        switch args[Options.radius] {
        case .rule(let rule):
            bandwidth = rule
        case .length(let r):
            radius = r
            bandwidth = .fixed
        }
        let padding = args[Options.padding]
        if bandwidth == .fixed {
            try Self.checkRoom(radius: radius, padding: padding, planar: kind == .planar, args)
            if kind != .planar, PointRule.isOutside(radius: radius, geographic: true) {
                throw args.bad(
                    Options.radius, args.text(Options.radius) ?? "",
                    "a kernel radius on the globe is at most half its circumference (20015 km)")
            }
        }
        let estimator: DensityEstimator = args.isGiven(Options.value) ? .mean : .density
        configuration = HeatMapConfiguration(
            radius: radius, contourLevels: args[Options.levels], levelSpacing: args[Options.spacing],
            gridResolution: args[Options.resolution], gradient: args[Options.gradient], paddingFactor: padding,
            fillOpacity: args[Options.opacity], renderMode: args[Options.render], smoother: args[Options.smooth],
            projection: kind, estimator: estimator, bandwidth: bandwidth)
        // Over map tiles the streets show through the bands.
        if args.isGiven(Options.basemapTiles), !args.isGiven(Options.opacity) {
            configuration.fillOpacity = Self.opacityOverTiles
        }
        configuration.kernel = args[Options.kernel]
        configuration.kernelValues = args[Options.kernelValues]
        if estimator == .mean, configuration.kernelValues == .raw {
            // The mean's kernel sums divide each other: their scale cancels.
            throw ToolError.usage(
                "--kernel-values raw has nothing to change with --value (a kernel-weighted mean, whose kernel's scale cancels)",
                command: args.command.name)
        }
        if let column = args[Options.radiusColumn] {
            if args.isGiven(Options.adaptive) {
                throw ToolError.usage(
                    "--radius-column \(column) cannot be combined with --adaptive (each point has its radius already)",
                    command: args.command.name)
            }
        }
        if let sensitivity = args[Options.adaptive] {
            configuration.bandwidth = .adaptive(
                AdaptiveBandwidth(sensitivity: sensitivity, trim: args[Options.adaptiveTrim], pilot: bandwidth))
        } else if args.isGiven(Options.adaptiveTrim) {
            throw ToolError.usage("--adaptive-trim needs --adaptive", command: args.command.name)
        }
        resolutionFromData = bandwidth == .auto && !args.isGiven(Options.resolution)
    }

    /// The fill opacity over map tiles when --opacity is not given.
    static let opacityOverTiles = 0.6

    /// The grid spans the points plus padding × radius on each side: keep
    /// that a quarter of the largest Double, whatever the points.
    private static func checkRoom(radius: Double, padding: Double, planar: Bool, _ args: ParsedArguments) throws {
        let room = Double.greatestFiniteMagnitude / 4
        guard radius * max(padding, 1) > room else { return }
        func short(_ v: Double) -> String {
            v == v.rounded() && abs(v) < 1e15 ? String(Int64(v)) : String(format: "%.3g", v)
        }
        if let text = args.text(Options.padding), padding * radius > room, radius <= room {
            throw args.bad(
                Options.padding, text,
                "with --radius \(short(radius)) the padding may be at most \(short(room / radius))")
        }
        throw args.bad(
            Options.radius, args.text(Options.radius) ?? "",
            "with --padding \(short(padding)) the radius may be at most \(short(room / max(padding, 1)))"
                + (planar ? "" : " m"))
    }

    /// The configuration a cells table was computed with: its radius (now
    /// fixed), resolution, padding, projection, estimator and kernel replace the
    /// options' (which the table refuses to change; ``CellsInput``).
    func settled(byCells cells: CellTable) -> HeatMapConfiguration {
        var used = configuration
        used.radius = cells.radius
        used.bandwidth = used.bandwidth.fixingRadius()
        used.gridResolution = cells.resolution
        used.paddingFactor = cells.padding
        used.projection = cells.projection.kind
        used.estimator = cells.estimator
        used.kernel = cells.kernel
        used.kernelValues = cells.kernelValues
        return used
    }

    /// A picture drawn without --radius: the picture rule's fixed radius,
    /// and its grid resolution unless --resolution was given.
    func settled(byPicture rule: PictureRadius, resolutionGiven: Bool) -> ToolConfiguration {
        var settled = self
        settled.configuration.radius = rule.radius
        settled.configuration.bandwidth = settled.configuration.bandwidth.fixingRadius()
        if !resolutionGiven { settled.configuration.gridResolution = PictureRadius.resolution }
        settled.resolutionFromData = false
        return settled
    }

    /// `configuration` with a level rule's levels (--interval/--offset,
    /// --exp-base) as custom thresholds over the grid's range; unchanged
    /// without a rule.
    ///
    /// - Throws: a usage error when the rule gives no usable levels there.
    static func settled(
        _ configuration: HeatMapConfiguration, byLevels rule: ContourOptions.LevelRule?,
        grid: DensityGrid, command: String
    ) throws -> HeatMapConfiguration {
        guard let rule else { return configuration }
        var c = configuration
        let thresholds: [Double]
        do {
            switch rule {
            case .interval(let interval, let offset):
                thresholds = try IntervalLevels.interval(
                    interval, offset: offset, minimum: grid.minimum, maximum: grid.maximum)
            case .exponential(let base):
                thresholds = try IntervalLevels.exponential(base: base, minimum: grid.minimum, maximum: grid.maximum)
            }
        } catch let e as IntervalLevels.Failure {
            throw ToolError.usage(e.description, command: command)
        }
        c.levelSpacing = .custom(thresholds)
        c.contourLevels = max(1, min(thresholds.count, 10_000))
        return c
    }
}
