import Foundation
import HeatMap

/// A cells table as INPUT of grid, export and info (made by `contours sql`).
enum CellsInput {
    /// Options that would change the grid a cells table already fixes.
    static let fixed: [any OptionDeclaration] = [Options.radius, Options.resolution, Options.padding, Options.projection, Options.planar,
                        Options.lat, Options.lon, Options.weight, Options.value, Options.skipInvalid,
                        Options.kernel, Options.kernelValues, Options.adaptive, Options.adaptiveTrim, Options.radiusColumn]

    /// Whether INPUT is a cells table: `--input-format cells`, or a CSV
    /// file whose header has the marker column.
    static func wanted(_ args: ParsedArguments, path: String?) throws -> Bool {
        if let format = args.given(Options.inputFormatOrCells) { return format == .cells }
        guard let path, let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        let head = (try? handle.read(upToCount: 1 << 16)) ?? Data()
        guard let text = String(data: head, encoding: .utf8) ?? String(data: head.prefix(1 << 12), encoding: .utf8),
              let line = text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).first
        else { return false }
        return CellTable.isCellsHeader(line)
    }

    /// Reads the table, refusing options that would change its grid.
    static func read(_ args: ParsedArguments, path: String?) throws -> CellTable {
        let name = path ?? "stdin"
        if args.isGiven(Options.h3Column) {
            throw ToolError.usage("\(Options.h3Column.name) reads H3 cell ids from rows of counts, but \(name) is a cells table of 'contours sql'",
                                  command: args.command.name)
        }
        for option in fixed where args.isGiven(option) {
            let spec = option.spec
            throw ToolError.usage("\(spec.name) cannot apply to \(name): a cells table's grid is fixed by the SQL that made it (give \(spec.name) to 'contours sql' instead)",
                                  command: args.command.name)
        }
        let data: Data
        do {
            if let path {
                data = try Data(contentsOf: URL(fileURLWithPath: path))
            } else {
                data = FileHandle.standardInput.readDataToEndOfFile()
            }
        } catch {
            throw ToolError.input(InputError(file: name, line: 0, column: "", reason: "unreadable",
                                             message: "cannot read: \(error.localizedDescription)"))
        }
        let table = try CellTable.parse([UInt8](data), name: name)
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
