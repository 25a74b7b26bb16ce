import Foundation
import HeatMapContouring
import HeatMapCore
import HeatMapDensity

/// Rows of pre-aggregated H3 cells, as a warehouse exports them (a cell id
/// column and a count or weight column).
package struct H3CellRows: Sendable {
    /// The input's name for messages: the path, or "stdin".
    package var name = ""
    /// The cells, one per accepted row.
    package var cells: [H3Cell] = []
    /// Each row's count or weight (1 where no weight column is read).
    package var weights: [Double] = []
    /// Rows left out (with `skipInvalid`).
    package var rejections = InputRejections()
    /// Data rows read.
    package var rowsRead = 0
    /// The weight column read, nil for 1 per row.
    package var weightColumn: String?
}

/// Reads a CSV of H3 cell ids with counts or weights.
///
/// Ids are the reference's 15-hex-digit strings (any case, optional `0x`),
/// or the same 64-bit index as a decimal integer (as SQL engines store it).
/// The weight is the named column, else a column called `count`, `weight`
/// or `n` (any case) if there is one, else 1 per row.
package enum H3CellReader {
    /// Reads the whole file (`nil` or "-" for standard input). O(rows).
    /// - Throws: ``InputError`` naming the file, line and column of the first
    ///   bad row (unless `skipInvalid`), or of a missing column.
    package static func read(
        path: String?, column: String, weight: String? = nil,
        skipInvalid: Bool = false
    ) throws -> H3CellRows {
        try read(
            source: ByteSource(path: path == "-" ? nil : path), column: column, weight: weight,
            skipInvalid: skipInvalid)
    }

    /// Reads the rest of an input already opened (see ``read(path:column:weight:skipInvalid:)``).
    package static func read(
        source: ByteSource, column: String, weight: String? = nil,
        skipInvalid: Bool = false
    ) throws -> H3CellRows {
        try CSVPointReader.refuseUTF16(source)
        var header: [String] = []
        do {
            return try read(
                CSVTokenizer(source: source), name: source.name, column: column, weight: weight,
                skipInvalid: skipInvalid, header: &header)
        } catch let error as CSVTokenizer.SyntaxError {
            throw CSVPointReader.describe(error, file: source.name, header: header)
        }
    }

    /// The rows of `csv`; `header` gets the header's names once read.
    private static func read(
        _ csv: CSVTokenizer, name: String, column: String, weight: String?, skipInvalid: Bool,
        header names: inout [String]
    ) throws -> H3CellRows {
        guard try csv.next() else {
            throw InputError(file: name, line: 0, column: "", reason: "empty input", message: "no header row")
        }
        let header = (0..<csv.fieldCount).map { csv.string($0).trimmingCharacters(in: .whitespaces) }
        names = header
        func find(_ wanted: String) -> Int? { header.firstIndex { $0.lowercased() == wanted.lowercased() } }
        guard let idColumn = find(column) else {
            throw InputError(
                file: name, line: csv.line, column: column, reason: "missing column",
                message: "no column '\(column)' for --h3 (columns: \(header.joined(separator: ", ")))")
        }
        var weightColumn: Int?
        if let weight {
            guard let k = find(weight) else {
                throw InputError(
                    file: name, line: csv.line, column: weight, reason: "missing column",
                    message: "no weight column '\(weight)' (columns: \(header.joined(separator: ", ")))")
            }
            weightColumn = k
        } else {
            weightColumn = ["count", "weight", "n"].lazy.compactMap(find).first
        }
        var rows = H3CellRows()
        rows.name = name
        rows.weightColumn = weightColumn.map { header[$0] }
        while try csv.next() {
            rows.rowsRead += 1
            func bad(_ col: Int, _ reason: String, _ message: String) throws {
                let error = InputError(
                    file: name, line: csv.line, column: header[col], reason: reason, message: message)
                guard skipInvalid else { throw error }
                rows.rejections.record(error)
            }
            let text = idColumn < csv.fieldCount ? csv.string(idColumn).trimmingCharacters(in: .whitespaces) : ""
            guard let cell = parse(text) else {
                try bad(idColumn, "not an H3 cell", "'\(text)' is not a valid H3 cell id")
                continue
            }
            var w = 1.0
            if let k = weightColumn {
                let t = k < csv.fieldCount ? csv.string(k).trimmingCharacters(in: .whitespaces) : ""
                guard let v = Double(t), v.isFinite, v >= 0 else {
                    try bad(k, "bad weight", "'\(t)' is not a count or weight >= 0")
                    continue
                }
                w = v
            }
            rows.cells.append(cell)
            rows.weights.append(w)
        }
        return rows
    }

    /// A cell from its hex form, or from its decimal 64-bit index.
    package static func parse(_ text: String) -> H3Cell? {
        if text.count != 15, text.allSatisfy(\.isNumber), let v = UInt64(text), let c = H3Cell(rawValue: v) { return c }
        return H3Cell(text)
    }
}
