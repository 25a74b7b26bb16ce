import Foundation
import HeatMap

/// `contours sql`: the statement that makes an engine compute a cells table.
enum SQLCommand {
    static func run(_ args: ParsedArguments) throws {
        let dialect = args[Options.dialect]
        guard let table = args[Options.table], !table.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw ToolError.usage("--table NAME is required (the table of points the statement reads)",
                                  command: args.command.name)
        }
        let settings = try ToolConfiguration(args)
        let configuration = settings.configuration, resolutionFromData = settings.resolutionFromData
        let reader = try Settings.reader(args)
        let planar = configuration.projection == .planar
        let query = CellQuery(dialect: dialect, table: table, latitude: reader.columns.latitude ?? (planar ? "y" : "lat"),
                              longitude: reader.columns.longitude ?? (planar ? "x" : "lon"), weight: reader.columns.weight,
                              value: reader.columns.value, projection: configuration.projection,
                              bandwidth: configuration.bandwidth, radius: configuration.radius,
                              resolution: resolutionFromData ? nil : configuration.gridResolution,
                              padding: configuration.paddingFactor)
        try OutputFile.write(query.sql(), to: try Settings.output(args))
    }
}
