import Foundation
import HeatMap

/// `contours grid`: points → density grid as JSON or an ESRI ASCII grid.
enum GridCommand {
    static func run(_ args: ParsedArguments, control: ComputeControl) throws {
        let asc = try args.choice(Options.gridFormat, [("json", false), ("asc", true)]) ?? false
        let output = try Settings.output(args)
        _ = try Settings.configuration(args)

        let run = try DensityRun.run(args, operands: args.operands[...], control: control)
        control.report(.export, 0)
        let grid = run.density.grid
        // The text is built whole: up to 24 bytes a value.
        try MemoryBudget.reserve(MemoryBudget.product(grid.values.count, 24),
                                 for: "the text of the \(grid.geometry.columns) × \(grid.geometry.rows) grid")
        try OutputFile.write(asc ? GridEncoding.asc(grid) : GridEncoding.json(grid), to: output)
        control.report(.export, 1)
    }
}
