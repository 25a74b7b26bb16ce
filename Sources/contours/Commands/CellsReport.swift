import Foundation
import HeatMap

/// `contours info` of a cells table: what the engine counted and the grid
/// it gives.
struct CellsReport {
    let run: DensityRun
    let cells: CellTable
    let thresholds: [Double]

    private var geographic: Bool { cells.projection.isGeographic }

    private var radiusRule: String {
        switch cells.bandwidth.radiusRule {
        case .fixed, .adaptive: return "given"
        case .auto:
            return cells.radiusRaised
                ? "auto: mean point spacing, raised so sigma spans half a grid cell" : "auto: mean point spacing"
        case .scott: return "scott"
        case .silverman: return "silverman"
        case .arcgis: return "arcgis"
        }
    }

    func text() -> String {
        let g = cells.geometry, grid = run.density.grid
        let unit = geographic ? "m" : "units"
        let rejected = cells.rejected.values.reduce(0, +)
        var lines: [(String, String)] = [
            ("input", "cells table (\(cells.nodes.count) cells, \(cells.scheme.name) sums)"),
            ("points", "\(cells.points) used, \(rejected) rejected by the engine")
        ]
        for (reason, count) in cells.rejected.sorted(by: { $0.key < $1.key }) {
            lines.append(("rejected", "\(count) × \(reason)"))
        }
        if let lat = cells.latitudeRange, let lon = cells.longitudeEnds {
            lines.append(
                geographic
                    ? (
                        "box",
                        "latitude \(n(lat.lowerBound)) … \(n(lat.upperBound)), longitude \(n(lon.west)) … \(n(lon.east))"
                            + (lon.west > lon.east ? " (across ±180°)" : "")
                    )
                    : ("box", "x \(n(lon.west)) … \(n(lon.east)), y \(n(lat.lowerBound)) … \(n(lat.upperBound))"))
        }
        lines.append(("weights", "total \(n(cells.totalWeight)), \(cells.weightedPoints) above zero"))
        let p = cells.projection
        lines.append(
            (
                "projection",
                p.isGeographic
                    ? "\(p.kind.rawValue), centred at \(n(p.centreLatitude)), \(n(p.centreLongitude))"
                    : "planar (coordinates as given)"
            ))
        lines.append(("radius", kernelRadiusText(grid, rule: radiusRule, unit: unit, number: n)))
        lines.append(("kernel", kernelText(grid)))
        let cell = geographic ? "\(n(g.dx / 1000)) × \(n(g.dy / 1000)) km" : "\(n(g.dx)) × \(n(g.dy))"
        lines.append(("grid", "\(g.columns) × \(g.rows) nodes, cells \(cell)"))
        lines.append(("values", "\(n(grid.minimum)) … \(n(grid.maximum)) \(grid.units)"))
        let spacing = run.configuration.levelSpacing
        lines.append(
            (
                "thresholds",
                thresholds.isEmpty
                    ? "none (\(spacing))"
                    : "\(thresholds.count) (\(spacing)), \(grid.units): " + thresholds.map(n).joined(separator: ", ")
            ))
        return lines.map { $0.0.padding(toLength: 11, withPad: " ", startingAt: 0) + $0.1 }.joined(separator: "\n")
            + "\n"
    }

    func json() -> String {
        let grid = run.density.grid
        var fields: [String] = ["\"input\":\"cells\"", "\"cells\":\(cells.nodes.count)", "\"points\":\(cells.points)"]
        let rejected = cells.rejected.sorted { $0.key < $1.key }.map { "\(quote($0.key)):\($0.value)" }
        fields.append("\"rejected\":{\(rejected.joined(separator: ","))}")
        fields.append("\"total_weight\":\(n(cells.totalWeight))")
        fields += gridFields(grid, bandwidth: cells.bandwidth, number: n)
        fields.append("\"thresholds\":[\(thresholds.map(n).joined(separator: ","))]")
        return "{" + fields.joined(separator: ",") + "}\n"
    }

    private func n(_ v: Double) -> String { reportNumber(v) }
}
