import Foundation
import HeatMap

/// `contours sql`: the statement that makes an engine compute a cells table.
enum SQLCommand {
    static func run(_ args: ParsedArguments) throws {
        let dialect = args[Options.dialect]
        guard let table = args[Options.table], !table.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw ToolError.usage(
                "--table NAME is required (the table of points the statement reads)",
                command: args.command.name)
        }
        let settings = try ToolConfiguration(args)
        let configuration = settings.configuration, resolutionFromData = settings.resolutionFromData
        // The table's sums hold one radius for all points, and the engine
        // has no median: a radius per point, the adaptive pilot and ArcGIS's
        // rule (a median distance) are the tool's own (it reads the points).
        let unsupported: [(given: Bool, what: String, why: String)] = [
            (configuration.bandwidth.adaptiveRule != nil, "--adaptive", "its pilot density is needed at every point"),
            (args.isGiven(Options.radiusColumn), "--radius-column", "a cells table holds one radius for all points"),
            (configuration.bandwidth == .arcgis, "--radius arcgis", "its rule takes a median distance")
        ]
        if let refused = unsupported.first(where: \.given) {
            throw ToolError.usage(
                "\(refused.what) is not available in SQL (\(refused.why)); run 'contours grid' or 'contours export' on the points instead",
                command: args.command.name)
        }
        let reader = try Settings.reader(args)
        let planar = configuration.projection == .planar
        let query = CellQuery(
            dialect: dialect, table: table, latitude: reader.columns.latitude ?? (planar ? "y" : "lat"),
            longitude: reader.columns.longitude ?? (planar ? "x" : "lon"), weight: reader.columns.weight,
            value: reader.columns.value, projection: configuration.projection,
            bandwidth: configuration.bandwidth.radiusRule, kernel: configuration.kernel,
            kernelValues: configuration.kernelValues, radius: configuration.radius,
            resolution: resolutionFromData ? nil : configuration.gridResolution,
            padding: configuration.paddingFactor)
        try OutputFile.write(query.sql(), to: try Settings.output(args))
    }
}
