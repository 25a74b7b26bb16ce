import Foundation
import HeatMap

/// `--h3 COLUMN` for `export` and `grid`: pre-aggregated H3 rows become
/// weighted points at their cells' centres.
enum H3Input {
    /// The points, and the coarsest cell resolution among them.
    static func points(
        input: InputFile, column: String, options: PointReaderOptions,
        control: ComputeControl
    ) throws -> (StreamedPoints, coarsest: Int?) {
        let rows = try H3CellReader.read(
            source: input.source, column: column,
            weight: options.columns.weight ?? options.columns.value,
            skipInvalid: options.skipInvalid)
        // Through a temporary CSV, so that the points are checked, counted
        // and spooled exactly as any input is.
        var text = "lat,lon,weight\n"
        for (cell, w) in zip(rows.cells, rows.weights) {
            let c = cell.center
            text += "\(c.latitude),\(c.longitude),\(w)\n"
        }
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("contours-h3-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString).csv")
        try text.write(to: url, atomically: false, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: url) }
        var reader = options
        reader.columns = PointColumns(latitude: "lat", longitude: "lon", weight: "weight")
        reader.format = .csv
        let points = try StreamedPoints.read(path: url.path, options: reader, replay: .spool, control: control)
        let columns = "h3: \(column)" + (rows.weightColumn.map { ", weight: \($0)" } ?? "")
        return (
            points.relabeled(
                name: rows.name, columnsDescription: columns, rowsRead: rows.rowsRead,
                rejections: rows.rejections),
            rows.cells.map(\.resolution).min()
        )
    }

    /// Refuses cells too coarse for the kernel (a cell's corner lies up to
    /// its edge length from the centre that stands for it; beyond σ = R/3
    /// that moves mass by more than the kernel's own width) and otherwise
    /// says how far the centres may be from the rows' true places — unless
    /// `quiet` (another note already said what the map is) or the shift is
    /// under 1% of σ, when it changes nothing one could see.
    static func check(coarsest resolution: Int, radiusMetres: Double, quiet: Bool = false) throws {
        let edge = H3Cell.averageEdgeKm[resolution]
        let sigma = radiusMetres / 3000
        let share = edge / sigma
        guard share <= 1 else {
            throw ToolError.failure(
                "H3 cells of resolution \(resolution) (edge ~\(ArgumentValues.text(BinCommand.rounded(edge))) km) "
                    + "are too coarse for radius \(ArgumentValues.text(BinCommand.rounded(radiusMetres / 1000))) km "
                    + "(σ \(ArgumentValues.text(BinCommand.rounded(sigma))) km): use finer cells or --radius of at least "
                    + "\(ArgumentValues.text(BinCommand.rounded(3 * edge))) km")
        }
        guard !quiet, share >= 0.01 else { return }
        Console.note(
            "each H3 cell (resolution \(resolution), edge ~\(ArgumentValues.text(BinCommand.rounded(edge))) km) "
                + "counts at its centre: rows move by up to ~\(ArgumentValues.text(BinCommand.rounded(edge))) km, "
                + "\(Int((share * 100).rounded()))% of the kernel's σ")
    }
}
