import Foundation
import HeatMapContouring
import HeatMapCore
import HeatMapDensity

/// Bins points (or pre-aggregated cells) into H3 cells batch by batch, in
/// memory proportional to the occupied cells.
///
/// ```swift
/// var binner = try H3Binner(resolution: 7)
/// try binner.add(latitudes: lats, longitudes: lons, values: nil)
/// let result = try binner.result()
/// ```
package struct H3Binner: Sendable {
    /// The resolution cells are binned at.
    package let resolution: Int
    /// When true, the first bad point throws instead of being left out.
    package let strict: Bool
    /// Points binned and points left out (with why).
    package private(set) var summary = InputSummary()
    private var table: [UInt64: BinStatistics] = [:]
    private var fitter = ProjectionFitter()

    /// Creates an empty binner.
    /// - Throws: ``HeatMapError/invalidConfiguration(_:)`` for a resolution outside 0...15.
    package init(resolution: Int, strict: Bool = false) throws {
        guard (0...H3Cell.maximumResolution).contains(resolution) else {
            throw HeatMapError.invalidConfiguration("H3 resolution must be 0...15 (got \(resolution))")
        }
        self.resolution = resolution
        self.strict = strict
    }

    /// The number of occupied cells so far.
    var occupiedCellCount: Int { table.count }

    /// Adds points (degrees). `values` (a value column or the weights) may
    /// be nil: every value is then 1. O(n · resolution), on all cores.
    /// - Throws: ``HeatMapError/invalidPoint(index:reason:)`` for a bad point
    ///   when `strict`; `CancellationError`.
    package mutating func add(
        latitudes: [Double], longitudes: [Double], values: [Double]? = nil,
        control: ComputeControl = .none
    ) throws {
        guard latitudes.count == longitudes.count, values.map({ $0.count == latitudes.count }) ?? true else {
            throw HeatMapError.invalidConfiguration("latitudes, longitudes and values differ in length")
        }
        try control.checkCancellation()
        let ids = H3Cell.indexes(latitudes: latitudes, longitudes: longitudes, resolution: resolution)
        for k in ids.indices {
            let value = values?[k] ?? 1
            if let why = PointRule.problem(
                latitude: latitudes[k], longitude: longitudes[k], weight: 0,
                value: value, geographic: true)
            {
                if strict { throw HeatMapError.invalidPoint(index: k, reason: why) }
                summary.rejected[why, default: 0] += 1
                continue
            }
            table[ids[k], default: .empty].add(value)
            fitter.add(latitude: latitudes[k], longitude: longitudes[k])
            summary.used += 1
        }
    }

    /// Adds pre-aggregated cells (a cell id and its count or weight per
    /// row, as a warehouse exports them). A cell finer than the binner's
    /// resolution goes to its ancestor; a coarser one is refused. `weights`
    /// may be nil (each row counts 1). O(n).
    /// - Throws: ``HeatMapError/invalidPoint(index:reason:)`` for a coarser
    ///   cell or a bad weight when `strict`.
    package mutating func add(cells: [H3Cell], weights: [Double]? = nil) throws {
        for (k, cell) in cells.enumerated() {
            let w = weights?[k] ?? 1
            var why: String?
            if !w.isFinite {
                why = PointRule.notFinite(.weight, geographic: true)
            } else if cell.resolution < resolution {
                why = "H3 cell of resolution \(cell.resolution) is coarser than the binning resolution \(resolution)"
            }
            if let why {
                if strict { throw HeatMapError.invalidPoint(index: k, reason: why) }
                summary.rejected[why, default: 0] += 1
                continue
            }
            let target = cell.parent(at: resolution) ?? cell
            var s = table[target.rawValue, default: .empty]
            s.add(w)
            table[target.rawValue] = s
            let c = cell.center
            fitter.add(latitude: c.latitude, longitude: c.longitude)
            summary.used += 1
        }
    }

    /// The bins, ascending; with `includeEmpty`, also every empty cell
    /// covering the data: the cells reached from occupied ones, step by
    /// step, whose centres lie within the data's latitude band and
    /// longitude arc.
    /// - Throws: ``HeatMapError/invalidConfiguration(_:)`` when the covering
    ///   cells would exceed `maximumCells` or a cell's sum passes the
    ///   largest double; `CancellationError`.
    package func result(
        includeEmpty: Bool = false, maximumCells: Int = 5_000_000,
        control: ComputeControl = .none
    ) throws -> H3BinningResult {
        guard table.values.allSatisfy({ $0.sum.isFinite }) else {
            throw HeatMapError.sumsOverflow(values: true, cells: true)
        }
        var ids = Set(table.keys)
        if includeEmpty, !table.isEmpty {
            ids = try covering(limit: maximumCells, control: control)
        }
        var bins: [H3Bin] = []
        bins.reserveCapacity(ids.count)
        for (n, id) in ids.sorted().enumerated() {
            if n % 4096 == 0 { try control.checkCancellation() }
            bins.append(H3Bin(cell: H3Cell(unchecked: id), statistics: table[id] ?? .empty))
        }
        return H3BinningResult(
            resolution: resolution, bins: bins, summary: summary,
            projection: fitter.projection(.equalArea))
    }

    private func covering(limit: Int, control: ComputeControl) throws -> Set<UInt64> {
        var south = 90.0, north = -90.0
        var lons: [Double] = []
        for id in table.keys {
            let c = H3Cell(unchecked: id).center
            south = min(south, c.latitude)
            north = max(north, c.latitude)
            lons.append(c.longitude)
        }
        let arc = LongitudeArc.smallest(containing: lons)
        // Refuse before walking: the box's share of the sphere × the cells of a resolution.
        let margin = 2 * H3Cell.averageEdgeKm[resolution] / 111.2
        let width = (arc?.width ?? 360) + 2 * margin
        let band = sin(min(90, north + margin) * .pi / 180) - sin(max(-90, south - margin) * .pi / 180)
        let estimate = min(1, width / 360 * band / 2) * (2 + 120 * pow(7, Double(resolution)))
        guard estimate <= Double(limit) else {
            throw HeatMapError.invalidConfiguration(
                "--include-empty would make about \(Int(estimate)) H3 cells (limit \(limit)); use a coarser resolution")
        }
        func inside(_ c: LocationCoordinate2D) -> Bool {
            guard c.latitude >= south, c.latitude <= north else { return false }
            guard let arc else { return true }
            var offset = LongitudeArc.normalized(c.longitude) - arc.west
            if offset < 0 { offset += 360 }
            return offset <= arc.width
        }
        var seen = Set(table.keys)
        var frontier = Array(table.keys)
        while !frontier.isEmpty {
            try control.checkCancellation()
            var next: [UInt64] = []
            for id in frontier {
                for n in H3Cell(unchecked: id).neighbors where !seen.contains(n.rawValue) && inside(n.center) {
                    seen.insert(n.rawValue)
                    next.append(n.rawValue)
                }
            }
            guard seen.count <= limit else {
                throw HeatMapError.invalidConfiguration(
                    "--include-empty would make more than \(limit) H3 cells; use a coarser resolution")
            }
            frontier = next
        }
        return seen
    }
}
