import Foundation
import HeatMapCore

/// A table of grid cells as `contours sql` makes an engine compute it
/// (see ``CellQuery``): per node, the sums of ``CellScheme``; on every row,
/// the grid's geometry, projection, radius and the input's counts.
///
/// Read whole (memory O(cells)); every row must carry the same geometry,
/// every node must lie inside it, and the geometry must follow from the
/// table's box and radius by ``GridGeometry/fitting(box:radius:paddingFactor:resolution:)``,
/// so a table from another tool or a hand-edited one is refused.
package struct CellTable: Sendable {
    /// Where the nodes are.
    package var geometry: GridGeometry
    /// The plane the sums were taken in.
    package var projection: PlaneProjection
    /// The kernel radius used (plane units).
    package var radius: Double
    /// How the radius was chosen, and whether the `auto` floor raised it.
    package var bandwidth: Bandwidth
    package var radiusRaised: Bool
    /// The grid options the engine used.
    package var resolution: Int
    package var padding: Double
    /// Density or kernel-weighted mean, and the mean's unit (the value column).
    package var estimator: DensityEstimator
    package var units: String
    /// The kernel and what its sums are (a table without these columns,
    /// from a version before the finite kernels, is the Gaussian's density).
    package var kernel: DensityKernel = .gaussian
    package var kernelValues: KernelValues = .density
    package var scheme: CellScheme
    /// Points used, points of weight > 0 and Σ w.
    package var points: Int
    package var weightedPoints: Int
    package var totalWeight: Double
    /// Rows left out, by reason.
    package var rejected: [String: Int]
    /// The projected points' box (plane units).
    package var box: PlaneBox
    /// Latitude range and longitude arc ends of the points (planar y and x).
    package var latitudeRange: ClosedRange<Double>?
    package var longitudeEnds: (west: Double, east: Double)?
    /// Node index (row · columns + column) of each cell, ascending.
    package var nodes: [Int]
    /// ``CellScheme/sumsPerChannel`` weight sums per cell, then (mean) as
    /// many value sums.
    package var sums: [Double]

    /// The marker column that makes a CSV a cells table.
    package static let marker = InputKind.cellsMarker

    package static let shared = [
        "scheme", "order", "columns", "rows", "x0", "y0", "dx", "dy", "radius", "bandwidth",
        "radius_raised", "resolution", "padding", "projection", "centre_lat", "centre_lon",
        "estimator", "units", "points", "weighted_points", "total_weight", "rejected_nonfinite",
        "rejected_latitude", "rejected_longitude", "rejected_weight", "box_min_x", "box_max_x",
        "box_min_y", "box_max_y", "lat_min", "lat_max", "lon_west", "lon_east"
    ]
    /// Shared columns a table may lack, and what their absence means.
    static let optionalShared = [
        ("kernel", DensityKernel.gaussian.name), ("kernel_values", KernelValues.density.rawValue)
    ]
    static let nodeColumns = ["i", "j"]

    /// The sum columns of `channel` ("s" weights, "v" values) of `scheme`.
    static func sumColumns(_ channel: String, _ scheme: CellScheme) -> [String] {
        (0..<scheme.sumsPerChannel).map { "\(channel)\($0)" }
    }

    /// The reasons of the rejection columns, as the point readers word them.
    static let rejectionReasons = [
        ("rejected_nonfinite", "missing, NaN or infinite field"),
        ("rejected_latitude", "latitude outside [-90, 90]"),
        ("rejected_longitude", "longitude outside [-180, 360)"),
        ("rejected_weight", "negative weight")
    ]

    /// Whether a CSV header line names a cells table (``InputKind/isCellsHeader(_:)``).
    static func isCellsHeader(_ line: Substring) -> Bool {
        InputKind.isCellsHeader(line)
    }

    /// Reads a cells table from the bytes of a CSV file (`name` for messages).
    /// O(bytes + cells log cells).
    /// - Throws: ``InputError`` naming the line and column of the first problem.
    package static func parse(_ bytes: [UInt8], name: String) throws -> CellTable {
        func fail(_ line: Int, _ column: String, _ message: String) -> InputError {
            InputError(file: name, line: line, column: column, reason: "bad cells table", message: message)
        }
        // Line ranges, a CR before the LF dropped, blank lines skipped.
        var lines: [(lo: Int, hi: Int, number: Int)] = []
        var start = 0, lineNumber = 1
        for k in 0...bytes.count where k == bytes.count || bytes[k] == 0x0a {
            var hi = k
            if hi > start, bytes[hi - 1] == 0x0d { hi -= 1 }
            if bytes[start..<hi].contains(where: { $0 != 0x20 && $0 != 0x09 }) { lines.append((start, hi, lineNumber)) }
            start = k + 1
            lineNumber += 1
        }
        guard let headerLine = lines.first else { throw fail(1, "", "empty file: no cells table header") }
        let header = CSVFields(bytes, headerLine.lo, headerLine.hi).texts(bytes).map { $0.lowercased() }
        var index: [String: Int] = [:]
        for (k, h) in header.enumerated() where index[h] == nil { index[h] = k }
        guard index[marker] != nil else {
            throw fail(headerLine.number, "", "not a cells table: no '\(marker)' column")
        }
        let missing = (shared + nodeColumns + ["s0"]).filter { index[$0] == nil }
        guard missing.isEmpty else {
            throw fail(
                headerLine.number, missing[0],
                "cells table lacks column\(missing.count > 1 ? "s" : "") "
                    + missing.prefix(5).map { "'\($0)'" }.joined(separator: ", ") + (missing.count > 5 ? ", …" : ""))
        }
        guard lines.count >= 2 else { throw fail(headerLine.number, "", "cells table has a header but no rows") }

        // The shared fields, as text, from the first row; every row must repeat them.
        let firstLine = lines[1]
        let first = CSVFields(bytes, firstLine.lo, firstLine.hi)
        guard first.count == header.count else {
            throw fail(firstLine.number, "", "row has \(first.count) fields, the header \(header.count)")
        }
        var meta: [String: String] = [:]
        for c in shared { meta[c] = first.text(index[c]!, bytes) }
        for (c, absent) in optionalShared { meta[c] = index[c].map { first.text($0, bytes) } ?? absent }
        let line2 = firstLine.number
        func number(_ c: String) throws -> Double {
            guard let v = Double(meta[c]!.trimmingCharacters(in: .whitespaces)), v.isFinite else {
                throw fail(line2, c, "\(c) is not a finite number: '\(meta[c]!)'")
            }
            return v
        }
        func optionalNumber(_ c: String) -> Double? { Double(meta[c]!.trimmingCharacters(in: .whitespaces)) }
        func integer(_ c: String) throws -> Int {
            let v = try number(c)
            guard v == v.rounded(), abs(v) < 1e15 else {
                throw fail(line2, c, "\(c) is not a whole number: '\(meta[c]!)'")
            }
            return Int(v)
        }
        guard let kind = MapProjection(rawValue: meta["projection"]!.lowercased()) else {
            throw fail(line2, "projection", "unknown projection '\(meta["projection"]!)'")
        }
        guard let estimator = DensityEstimator(rawValue: meta["estimator"]!.lowercased()) else {
            throw fail(line2, "estimator", "unknown estimator '\(meta["estimator"]!)'")
        }
        guard let bandwidth = Bandwidth(rawValue: meta["bandwidth"]!.lowercased()) else {
            throw fail(line2, "bandwidth", "unknown bandwidth rule '\(meta["bandwidth"]!)'")
        }
        let kernel: DensityKernel
        do { kernel = try DensityKernel(name: meta["kernel"]!.trimmingCharacters(in: .whitespaces)) } catch {
            guard case HeatMapError.invalidConfiguration(let why) = error else { throw error }
            throw fail(line2, "kernel", why)
        }
        guard let kernelValues = KernelValues(rawValue: meta["kernel_values"]!.lowercased()) else {
            throw fail(
                line2, "kernel_values", "unknown kernel values '\(meta["kernel_values"]!)' (expected density or raw)")
        }
        let points = try integer("points")
        var rejected: [String: Int] = [:]
        for (c, reason) in rejectionReasons {
            let v = try integer(c)
            if v > 0 { rejected[reason] = v }
        }
        if points == 0 {
            // No usable point: the empty grid the tool makes of no points.
            let radius = try number("radius"), resolution = try integer("resolution"), padding = try number("padding")
            let geometry = GridGeometry.fitting(
                box: .empty, radius: radius, paddingFactor: padding, resolution: resolution)
            return CellTable(
                geometry: geometry, projection: PlaneProjection(kind: kind), radius: radius,
                bandwidth: bandwidth, radiusRaised: false, resolution: resolution, padding: padding,
                estimator: estimator, units: meta["units"]!, kernel: kernel, kernelValues: kernelValues,
                scheme: kernel.isFinite ? .disc : .splat, points: 0,
                weightedPoints: 0, totalWeight: 0, rejected: rejected, box: .empty, latitudeRange: nil,
                longitudeEnds: nil, nodes: [], sums: [])
        }
        let scheme: CellScheme
        switch meta["scheme"]!.lowercased() {
        case "splat": scheme = .splat
        case "disc": scheme = .disc
        case "cubic": scheme = .cubic
        case "taylor":
            let order = try integer("order")
            guard (1...CellScheme.maximumOrder).contains(order) else {
                throw fail(line2, "order", "Taylor order \(order) is outside 1...\(CellScheme.maximumOrder)")
            }
            scheme = .taylor(order: order)
        default:
            throw fail(line2, "scheme", "unknown scheme '\(meta["scheme"]!)' (expected splat, taylor, disc or cubic)")
        }
        let geometry = GridGeometry(
            columns: try integer("columns"), rows: try integer("rows"), x0: try number("x0"),
            y0: try number("y0"), dx: try number("dx"), dy: try number("dy"))
        guard geometry.columns >= 1, geometry.rows >= 1, geometry.columns <= 1 << 20, geometry.rows <= 1 << 20,
            geometry.dx > 0, geometry.dy > 0
        else {
            throw fail(
                line2, "columns",
                "grid \(geometry.columns) × \(geometry.rows) with cells \(geometry.dx) × \(geometry.dy) has no area or is too large"
            )
        }
        let radius = try number("radius")
        guard radius > 0 else { throw fail(line2, "radius", "radius must be > 0, not \(radius)") }
        let resolution = try integer("resolution"), padding = try number("padding")
        let box = PlaneBox(
            minX: try number("box_min_x"), minY: try number("box_min_y"),
            maxX: try number("box_max_x"), maxY: try number("box_max_y"))
        // The geometry must be what the planner makes of the box and radius.
        let planned = GridGeometry.fitting(box: box, radius: radius, paddingFactor: padding, resolution: resolution)
        guard planned == geometry else {
            throw fail(
                line2, "x0",
                "the grid (\(geometry.columns) × \(geometry.rows) from \(geometry.x0), \(geometry.y0) by \(geometry.dx) × \(geometry.dy)) does not follow from the table's box, radius, padding and resolution (expected \(planned.columns) × \(planned.rows) from \(planned.x0), \(planned.y0) by \(planned.dx) × \(planned.dy))"
            )
        }
        guard scheme.suits(kernel: kernel, radius: radius, dx: geometry.dx, dy: geometry.dy, estimator: estimator)
        else {
            let width =
                kernel.isFinite
                ? "the \(kernel.name) kernel \(radius / max(geometry.dx, geometry.dy)) cells wide"
                : "a kernel of \(radius / 3 / max(geometry.dx, geometry.dy)) cells"
            throw fail(line2, "scheme", "scheme \(meta["scheme"]!) does not suit \(width)")
        }
        let weightColumns = sumColumns("s", scheme)
        if let gone = weightColumns.first(where: { index[$0] == nil }) {
            throw fail(headerLine.number, gone, "cells table lacks column '\(gone)'")
        }
        let mean = estimator == .mean
        let valueColumns = mean ? sumColumns("v", scheme) : []
        if let gone = valueColumns.first(where: { index[$0] == nil }) {
            throw fail(headerLine.number, gone, "cells table of a mean lacks column '\(gone)'")
        }
        let sumIndex = weightColumns.map { index[$0]! } + valueColumns.map { index[$0]! }
        let perCell = sumIndex.count
        let lat = (optionalNumber("lat_min"), optionalNumber("lat_max"))
        let lon = (optionalNumber("lon_west"), optionalNumber("lon_east"))

        var table = CellTable(
            geometry: geometry,
            projection: PlaneProjection(
                kind: kind, centreLatitude: try number("centre_lat"),
                centreLongitude: try number("centre_lon")),
            radius: radius, bandwidth: bandwidth, radiusRaised: try integer("radius_raised") != 0,
            resolution: resolution, padding: padding, estimator: estimator, units: meta["units"]!, kernel: kernel,
            kernelValues: kernelValues, scheme: scheme,
            points: points, weightedPoints: try integer("weighted_points"),
            totalWeight: try number("total_weight"), rejected: rejected, box: box,
            latitudeRange: lat.0.flatMap { lo in lat.1.map { lo...max(lo, $0) } },
            longitudeEnds: lon.0.flatMap { w in lon.1.map { (w, $0) } }, nodes: [], sums: [])
        // The planner's rule for grids its projection cannot unproject once.
        try DensityPlanner.checkCoverage(table.geometry, projection: table.projection)
        try DensityPlanner.checkMercatorEdge(box, projection: table.projection)

        let sharedNames = shared + optionalShared.map(\.0).filter { index[$0] != nil }
        let sharedIndex = sharedNames.map { index[$0]! }
        let iIndex = index["i"]!, jIndex = index["j"]!
        let headerBytes = bytes[headerLine.lo..<headerLine.hi]
        var cells: [(node: Int, line: Int)] = []
        var values: [Double] = []
        cells.reserveCapacity(lines.count)
        values.reserveCapacity(lines.count * perCell)
        try bytes.withUnsafeBufferPointer { all in
            func value(_ row: CSVFields, _ k: Int) -> ParsedNumber {
                let (lo, hi) = row.unquotedRange(k, bytes)
                return NumberParser.parse(UnsafeBufferPointer(rebasing: all[lo..<hi]))
            }
            for l in lines.dropFirst() {
                // Engines writing in parts repeat the header in each part.
                if bytes[l.lo..<l.hi] == headerBytes { continue }
                let row = CSVFields(bytes, l.lo, l.hi)
                guard row.count == header.count else {
                    throw fail(l.number, "", "row has \(row.count) fields, the header \(header.count)")
                }
                // Same bytes, or the same value quoted otherwise ("" and an empty field).
                for (c, k) in zip(sharedNames, sharedIndex)
                where !row.same(k, as: first, bytes) && row.text(k, bytes) != first.text(k, bytes) {
                    throw fail(
                        l.number, c,
                        "\(c) is '\(row.text(k, bytes))' here but '\(meta[c]!)' on line \(line2): rows of one table share one grid"
                    )
                }
                guard case .number(let iv) = value(row, iIndex), case .number(let jv) = value(row, jIndex),
                    iv == iv.rounded(), jv == jv.rounded(), abs(iv) < 1e9, abs(jv) < 1e9
                else {
                    // A table without points in cells has one row and no node.
                    if row.isEmpty(iIndex) && row.isEmpty(jIndex) { continue }
                    throw fail(
                        l.number, "i",
                        "node ('\(row.text(iIndex, bytes))', '\(row.text(jIndex, bytes))') is not a pair of whole numbers"
                    )
                }
                let i = Int(iv), j = Int(jv)
                guard (0..<geometry.columns).contains(i), (0..<geometry.rows).contains(j) else {
                    throw fail(
                        l.number, "i", "node (\(i), \(j)) is outside the \(geometry.columns) × \(geometry.rows) grid")
                }
                cells.append((j * geometry.columns + i, l.number))
                for k in sumIndex {
                    guard case .number(let v) = value(row, k) else {
                        throw fail(l.number, header[k], "sum is not a finite number: '\(row.text(k, bytes))'")
                    }
                    values.append(v)
                }
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
                throw fail(
                    cells[k].line, "i",
                    "node (\(cells[k].node % geometry.columns), \(cells[k].node / geometry.columns)) appears twice")
            }
            previous = cells[k].node
            table.nodes.append(cells[k].node)
            table.sums.append(contentsOf: values[k * perCell..<(k + 1) * perCell])
        }
        return table
    }
}

/// The fields of one CSV line as byte ranges (RFC 4180 quoting: a quoted
/// field's range includes its quotes).
struct CSVFields {
    private var bounds: [(lo: Int, hi: Int)] = []

    package init(_ bytes: [UInt8], _ lo: Int, _ hi: Int) {
        var start = lo, k = lo, quoted = false
        while k < hi {
            let b = bytes[k]
            if quoted {
                if b == 0x22 { quoted = false }
            } else if b == 0x22 {
                quoted = true
            } else if b == 0x2c {
                bounds.append((start, k))
                start = k + 1
            }
            k += 1
        }
        bounds.append((start, hi))
    }

    package var count: Int { bounds.count }

    package func isEmpty(_ k: Int) -> Bool { bounds[k].lo == bounds[k].hi }

    /// Field k's range without surrounding quotes.
    func unquotedRange(_ k: Int, _ bytes: [UInt8]) -> (Int, Int) {
        let (lo, hi) = bounds[k]
        if hi - lo >= 2, bytes[lo] == 0x22, bytes[hi - 1] == 0x22 { return (lo + 1, hi - 1) }
        return (lo, hi)
    }

    /// Field k as text (quotes removed, doubled quotes undone).
    package func text(_ k: Int, _ bytes: [UInt8]) -> String {
        let (lo, hi) = bounds[k]
        let raw = String(decoding: bytes[lo..<hi], as: UTF8.self)
        guard raw.count >= 2, raw.hasPrefix("\""), raw.hasSuffix("\"") else { return raw }
        return String(raw.dropFirst().dropLast()).replacingOccurrences(of: "\"\"", with: "\"")
    }

    package func texts(_ bytes: [UInt8]) -> [String] { (0..<count).map { text($0, bytes) } }

    /// Whether field k holds the same bytes as field k of `other`.
    package func same(_ k: Int, as other: CSVFields, _ bytes: [UInt8]) -> Bool {
        let a = bounds[k], b = other.bounds[k]
        return a.hi - a.lo == b.hi - b.lo && bytes[a.lo..<a.hi] == bytes[b.lo..<b.hi]
    }
}
