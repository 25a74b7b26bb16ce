import Foundation
import HeatMap

/// A cells table as INPUT of grid, export and info (made by `contours sql`).
enum CellsInput {
    /// Options that would change the grid a cells table already fixes.
    static let fixed: [any OptionDeclaration] = [
        Options.radius, Options.resolution, Options.padding, Options.projection, Options.planar,
        Options.lat, Options.lon, Options.weight, Options.value, Options.skipInvalid,
        Options.kernel, Options.kernelValues, Options.adaptive, Options.adaptiveTrim, Options.radiusColumn
    ]

    /// Reads the table, refusing options that would change its grid.
    static func read(_ args: ParsedArguments, input: InputFile) throws -> CellTable {
        let name = input.name
        if args.isGiven(Options.h3Column) {
            throw ToolError.usage(
                "\(Options.h3Column.name) reads H3 cell ids from rows of counts, but \(name) is a cells table of 'contours sql'",
                command: args.command.name)
        }
        for option in fixed where args.isGiven(option) {
            let spec = option.spec
            throw ToolError.usage(
                "\(spec.name) cannot apply to \(name): a cells table's grid is fixed by the SQL that made it (give \(spec.name) to 'contours sql' instead)",
                command: args.command.name)
        }
        let table = try CellTable.parse(input.readAll(), name: name)
        if table.rejected.values.reduce(0, +) > 0 {
            let parts = table.rejected.sorted { $0.key < $1.key }.map { "\($0.value) × \($0.key)" }
            Console.note("\(name): the engine left out \(parts.joined(separator: ", "))")
        }
        if table.points == 0 {
            Console.note("\(name): the engine found no usable points; the result is empty")
        }
        return table
    }
}
