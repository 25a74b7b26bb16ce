import Foundation

/// A table of grid cells as `contours sql` makes an engine compute it
/// (see ``CellQuery``): per node, the sums of ``CellScheme``; on every row,
/// the grid's geometry, projection, radius and the input's counts.
///
/// Read whole (memory O(cells)); every row must carry the same geometry,
/// every node must lie inside it, and the geometry must follow from the
/// table's box and radius by ``GridGeometry/fitting(box:radius:paddingFactor:resolution:)``,
/// so a table from another tool or a hand-edited one is refused.
public struct CellTable: Sendable {
    /// Where the nodes are.
    public var geometry: GridGeometry
    /// The plane the sums were taken in.
    public var projection: PlaneProjection
    /// The kernel radius used (plane units).
    public var radius: Double
    /// How the radius was chosen, and whether the `auto` floor raised it.
    public var bandwidth: Bandwidth
    public var radiusRaised: Bool
    /// The grid options the engine used.
    public var resolution: Int
    public var padding: Double
    /// Density or kernel-weighted mean, and the mean's unit (the value column).
    public var estimator: DensityEstimator
    public var units: String
    public var scheme: CellScheme
    /// Points used, points of weight > 0 and Σ w.
    public var points: Int
    public var weightedPoints: Int
    public var totalWeight: Double
    /// Rows left out, by reason.
    public var rejected: [String: Int]
    /// The projected points' box (plane units).
    public var box: PlaneBox
    /// Latitude range and longitude arc ends of the points (planar y and x).
    public var latitudeRange: ClosedRange<Double>?
    public var longitudeEnds: (west: Double, east: Double)?
    /// Node index (row · columns + column) of each cell, ascending.
    public var nodes: [Int]
    /// ``CellScheme/sumCount`` weight sums per cell, then (mean) as many value sums.
    public var sums: [Double]

    /// The marker column that makes a CSV a cells table.
    public static let marker = "contours_cells"

    static let shared = ["scheme", "order", "columns", "rows", "x0", "y0", "dx", "dy", "radius", "bandwidth",
                         "radius_raised", "resolution", "padding", "projection", "centre_lat", "centre_lon",
                         "estimator", "units", "points", "weighted_points", "total_weight", "rejected_nonfinite",
                         "rejected_latitude", "rejected_longitude", "rejected_weight", "box_min_x", "box_max_x",
                         "box_min_y", "box_max_y", "lat_min", "lat_max", "lon_west", "lon_east"]
    static let cellColumns = ["i", "j"] + (0..<CellScheme.sumCount).map { "s\($0)" }

    /// The reasons of the rejection columns, as the point readers word them.
    static let rejectionReasons = [("rejected_nonfinite", "missing, NaN or infinite field"),
                                   ("rejected_latitude", "latitude outside [-90, 90]"),
                                   ("rejected_longitude", "longitude outside [-180, 360)"),
                                   ("rejected_weight", "negative weight")]

    /// Whether a CSV header line names a cells table.
    public static func isCellsHeader(_ line: Substring) -> Bool {
        CSVFields.split(line).contains { $0.lowercased() == marker }
    }

    /// Reads a cells table from `text` (`name` for messages).
    /// - Throws: ``InputError`` naming the line and column of the first problem.
    public static func parse(_ text: String, name: String) throws -> CellTable {
        var lines = text.replacingOccurrences(of: "\r\n", with: "\n")
            .split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" })
        while let last = lines.last, last.trimmingCharacters(in: .whitespaces).isEmpty { lines.removeLast() }
        func fail(_ line: Int, _ column: String, _ message: String) -> InputError {
            InputError(file: name, line: line, column: column, reason: "bad cells table", message: message)
        }
        guard let headerLine = lines.first else { throw fail(1, "", "empty file: no cells table header") }
        let header = CSVFields.split(headerLine).map { $0.lowercased() }
        var index: [String: Int] = [:]
        for (k, h) in header.enumerated() where index[h] == nil { index[h] = k }
        guard index[marker] != nil else { throw fail(1, "", "not a cells table: no '\(marker)' column") }
        let missing = (shared + cellColumns).filter { index[$0] == nil }
        guard missing.isEmpty else {
            throw fail(1, missing[0], "cells table lacks column\(missing.count > 1 ? "s" : "") "
                       + missing.prefix(5).map { "'\($0)'" }.joined(separator: ", ") + (missing.count > 5 ? ", …" : ""))
        }
        guard lines.count >= 2 else { throw fail(1, "", "cells table has a header but no rows") }

        // The shared fields, as text, from the first row; every row must repeat them.
        let first = CSVFields.split(lines[1])
        func field(_ row: [String], _ column: String, line: Int) throws -> String {
            let k = index[column]!
            guard k < row.count else { throw fail(line, column, "row has \(row.count) fields, the header \(header.count)") }
            return row[k]
        }
        var meta: [String: String] = [:]
        for c in shared { meta[c] = try field(first, c, line: 2) }
        func number(_ c: String) throws -> Double {
            guard let v = Double(meta[c]!.trimmingCharacters(in: .whitespaces)), v.isFinite else {
                throw fail(2, c, "\(c) is not a finite number: '\(meta[c]!)'")
            }
            return v
        }
        func optionalNumber(_ c: String) -> Double? { Double(meta[c]!.trimmingCharacters(in: .whitespaces)) }
        func integer(_ c: String) throws -> Int {
            let v = try number(c)
            guard v == v.rounded(), abs(v) < 1e15 else { throw fail(2, c, "\(c) is not a whole number: '\(meta[c]!)'") }
            return Int(v)
        }
        guard let kind = MapProjection(rawValue: meta["projection"]!.lowercased()) else {
            throw fail(2, "projection", "unknown projection '\(meta["projection"]!)'")
        }
        guard let estimator = DensityEstimator(rawValue: meta["estimator"]!.lowercased()) else {
            throw fail(2, "estimator", "unknown estimator '\(meta["estimator"]!)'")
        }
        guard let bandwidth = Bandwidth(rawValue: meta["bandwidth"]!.lowercased()) else {
            throw fail(2, "bandwidth", "unknown bandwidth rule '\(meta["bandwidth"]!)'")
        }
        let scheme: CellScheme
        switch meta["scheme"]!.lowercased() {
        case "splat": scheme = .splat
        case "taylor":
            let order = try integer("order")
            guard (1...CellScheme.maximumOrder).contains(order) else {
                throw fail(2, "order", "Taylor order \(order) is outside 1...\(CellScheme.maximumOrder)")
            }
            scheme = .taylor(order: order)
        default: throw fail(2, "scheme", "unknown scheme '\(meta["scheme"]!)' (expected splat or taylor)")
        }
        let geometry = GridGeometry(columns: try integer("columns"), rows: try integer("rows"), x0: try number("x0"),
                                    y0: try number("y0"), dx: try number("dx"), dy: try number("dy"))
        guard geometry.columns >= 1, geometry.rows >= 1, geometry.columns <= 1 << 20, geometry.rows <= 1 << 20,
              geometry.dx > 0, geometry.dy > 0 else {
            throw fail(2, "columns", "grid \(geometry.columns) × \(geometry.rows) with cells \(geometry.dx) × \(geometry.dy) has no area or is too large")
        }
        let radius = try number("radius")
        guard radius > 0 else { throw fail(2, "radius", "radius must be > 0, not \(radius)") }
        let resolution = try integer("resolution"), padding = try number("padding")
        let box = PlaneBox(minX: try number("box_min_x"), minY: try number("box_min_y"),
                           maxX: try number("box_max_x"), maxY: try number("box_max_y"))
        // The geometry must be what the planner makes of the box and radius.
        let planned = GridGeometry.fitting(box: box, radius: radius, paddingFactor: padding, resolution: resolution)
        guard planned == geometry else {
            throw fail(2, "x0", "the grid (\(geometry.columns) × \(geometry.rows) from \(geometry.x0), \(geometry.y0) by \(geometry.dx) × \(geometry.dy)) does not follow from the table's box, radius, padding and resolution (expected \(planned.columns) × \(planned.rows) from \(planned.x0), \(planned.y0) by \(planned.dx) × \(planned.dy))")
        }
        let sigmaInCells = radius / 3 / max(geometry.dx, geometry.dy)
        guard CellScheme.choose(sigmaInCells: sigmaInCells) == scheme else {
            throw fail(2, "scheme", "scheme \(meta["scheme"]!) does not suit a kernel of \(sigmaInCells) cells")
        }
        var rejected: [String: Int] = [:]
        for (c, reason) in rejectionReasons {
            let v = try integer(c)
            if v > 0 { rejected[reason] = v }
        }
        let mean = estimator == .mean
        let valueColumns = mean ? (0..<CellScheme.sumCount).map { "v\($0)" } : []
        if let gone = valueColumns.first(where: { index[$0] == nil }) {
            throw fail(1, gone, "cells table of a mean lacks column '\(gone)'")
        }
        let sumIndex = (0..<CellScheme.sumCount).map { index["s\($0)"]! } + valueColumns.map { index[$0]! }
        let perCell = sumIndex.count
        let lat = (optionalNumber("lat_min"), optionalNumber("lat_max"))
        let lon = (optionalNumber("lon_west"), optionalNumber("lon_east"))

        var table = CellTable(
            geometry: geometry,
            projection: PlaneProjection(kind: kind, centreLatitude: try number("centre_lat"),
                                        centreLongitude: try number("centre_lon")),
            radius: radius, bandwidth: bandwidth, radiusRaised: try integer("radius_raised") != 0,
            resolution: resolution, padding: padding, estimator: estimator, units: meta["units"]!, scheme: scheme,
            points: try integer("points"), weightedPoints: try integer("weighted_points"),
            totalWeight: try number("total_weight"), rejected: rejected, box: box,
            latitudeRange: lat.0.flatMap { lo in lat.1.map { lo...max(lo, $0) } },
            longitudeEnds: lon.0.flatMap { w in lon.1.map { (w, $0) } }, nodes: [], sums: [])

        var cells: [(node: Int, line: Int)] = []
        var values: [Double] = []
        cells.reserveCapacity(lines.count)
        values.reserveCapacity(lines.count * perCell)
        for l in 1..<lines.count {
            let line = l + 1
            // Engines writing in parts repeat the header in each part.
            if lines[l] == headerLine { continue }
            let row = CSVFields.split(lines[l])
            guard row.count == header.count else {
                throw fail(line, "", "row has \(row.count) fields, the header \(header.count)")
            }
            for c in shared where row[index[c]!] != meta[c]! {
                throw fail(line, c, "\(c) is '\(row[index[c]!])' here but '\(meta[c]!)' on line 2: rows of one table share one grid")
            }
            let iText = row[index["i"]!], jText = row[index["j"]!]
            // A table without points has one row and no cell.
            if iText.isEmpty && jText.isEmpty { continue }
            guard let i = Int(iText), let j = Int(jText) else {
                throw fail(line, "i", "node ('\(iText)', '\(jText)') is not a pair of whole numbers")
            }
            guard (0..<geometry.columns).contains(i), (0..<geometry.rows).contains(j) else {
                throw fail(line, "i", "node (\(i), \(j)) is outside the \(geometry.columns) × \(geometry.rows) grid")
            }
            cells.append((j * geometry.columns + i, line))
            for k in sumIndex {
                let text = row[k]
                guard let v = Double(text), v.isFinite else {
                    throw fail(line, header[k], "sum is not a finite number: '\(text)'")
                }
                values.append(v)
            }
        }
        // Engines return rows in any order: sorted by node, the grid is the
        // same bytes whatever the order.
        let order = cells.indices.sorted { cells[$0].node < cells[$1].node }
        table.nodes.reserveCapacity(order.count)
        table.sums.reserveCapacity(values.count)
        var previous = -1
        for k in order {
            if cells[k].node == previous {
                throw fail(cells[k].line, "i", "node (\(cells[k].node % geometry.columns), \(cells[k].node / geometry.columns)) appears twice")
            }
            previous = cells[k].node
            table.nodes.append(cells[k].node)
            table.sums.append(contentsOf: values[k * perCell ..< (k + 1) * perCell])
        }
        return table
    }
}

/// Splits one CSV line into fields (RFC 4180 quoting; a trailing CR dropped).
enum CSVFields {
    static func split(_ line: Substring) -> [String] {
        var fields: [String] = []
        var current = ""
        var quoted = false, wasQuoted = false
        var chars = line.makeIterator()
        var pending: Character? = nil
        while let c = pending ?? chars.next() {
            pending = nil
            if quoted {
                if c == "\"" {
                    if let next = chars.next() {
                        if next == "\"" { current.append("\"") } else { quoted = false; pending = next }
                    } else {
                        quoted = false
                    }
                } else {
                    current.append(c)
                }
            } else if c == "," {
                fields.append(current)
                current = ""
                wasQuoted = false
            } else if c == "\"" && current.isEmpty && !wasQuoted {
                quoted = true
                wasQuoted = true
            } else if c == "\r\n" || c == "\r" {
                continue
            } else {
                current.append(c)
            }
        }
        fields.append(current)
        return fields
    }
}
