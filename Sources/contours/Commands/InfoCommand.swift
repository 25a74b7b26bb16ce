import Foundation
import HeatMap

/// `contours info`: what the input holds and what map it gives.
enum InfoCommand {
    static func run(_ args: ParsedArguments, control: ComputeControl) throws {
        let json = args[Options.infoFormat]
        let run = try DensityRun.run(
            args, try ToolConfiguration(args), operands: args.operands[...],
            control: control)
        let configuration = run.configuration
        let grid = run.density.grid
        control.report(.levels, 0)
        let thresholds = ThresholdResolver.thresholds(
            for: configuration.levelSpacing,
            levelCount: configuration.contourLevels, grid: grid)
        control.report(.levels, 1)
        guard let points = run.points else {
            let report = CellsReport(run: run, cells: run.cells!, thresholds: thresholds)
            try OutputFile.write(json ? report.json() : report.text(), to: nil)
            return
        }
        let report = Report(run: run, points: points, thresholds: thresholds)
        try OutputFile.write(json ? report.json() : report.text(), to: nil)
    }

    /// The facts, gathered once and printed as text or JSON.
    struct Report {
        let run: DensityRun
        let points: StreamedPoints
        let thresholds: [Double]

        var statistics: InputStatistics { points.statistics }
        var geographic: Bool { run.configuration.projection != .planar }

        /// [west, south, east, north]; west > east when the box crosses ±180°.
        var bbox: [Double]? {
            let s = statistics
            guard s.count > 0 else { return nil }
            guard geographic, let arc = s.longitudeArc else {
                return [s.minLongitude, s.minLatitude, s.maxLongitude, s.maxLatitude]
            }
            let east = arc.west + arc.width
            return [arc.west, s.minLatitude, east > 180 ? east - 360 : east, s.maxLatitude]
        }

        var radiusRule: String {
            switch run.density.bandwidth.radiusRule {
            case .fixed, .adaptive: return "given"
            case .auto:
                return run.density.radiusRaised
                    ? "auto: mean point spacing, raised so sigma spans half a grid cell" : "auto: mean point spacing"
            case .scott: return "scott"
            case .silverman: return "silverman"
            case .arcgis: return "arcgis: ArcGIS Pro's default search radius"
            }
        }

        func text() -> String {
            let s = statistics
            let g = run.density.grid.geometry
            let unit = geographic ? "m" : "units"
            var lines: [(String, String)] = []
            var input = "\(points.name) (\(points.format.rawValue.uppercased())"
            if let columns = points.columnsDescription { input += ": \(columns)" }
            lines.append(("input", input + ")"))
            lines.append(("points", "\(s.count) used of \(points.rowsRead) read, \(points.rejections.count) rejected"))
            for tally in points.rejections.tallies {
                lines.append(("rejected", "\(tally.count) × \(tally.first.reason) (first at \(tally.first.location))"))
            }
            if let b = bbox {
                if geographic {
                    lines.append(
                        (
                            "box",
                            "latitude \(n(b[1])) … \(n(b[3])), longitude \(n(b[0])) … \(n(b[2]))"
                                + (b[0] > b[2] ? " (across ±180°)" : "")
                        ))
                } else {
                    lines.append(("box", "x \(n(b[0])) … \(n(b[2])), y \(n(b[1])) … \(n(b[3]))"))
                }
            } else {
                lines.append(("box", "none (no points)"))
            }
            // Each weight is finite, but their sum can pass the largest double.
            let total = s.totalWeight.isFinite ? n(s.totalWeight) : "above 1.8e308 (the sum overflows a double)"
            lines.append(("weights", "total \(total), \(s.weightedCount) above zero"))
            if run.configuration.estimator == .mean, s.minValue <= s.maxValue {
                lines.append(("measured", "\(n(s.minValue)) … \(n(s.maxValue)) (mapping their kernel-weighted mean)"))
            }
            let p = run.density.grid.projection
            lines.append(
                (
                    "projection",
                    p.isGeographic
                        ? "\(p.kind.rawValue), centred at \(n(p.centreLatitude)), \(n(p.centreLongitude))"
                        : "planar (coordinates as given)"
                ))
            lines.append(("radius", kernelRadiusText(run.density.grid, rule: radiusRule, unit: unit, number: n)))
            lines.append(("kernel", kernelText(run.density.grid)))
            if let a = run.density.adaptive {
                lines.append(
                    (
                        "adaptive",
                        "pilot radius \(n(a.pilotRadius)) \(unit); local radii geometric mean \(n(a.geometricMean)) \(unit), "
                            + "5-95 % \(n(a.percentile5)) … \(n(a.percentile95)), all \(n(a.smallest)) … \(n(a.largest)) \(unit), \(a.trimmed) trimmed"
                    ))
            } else if let largest = run.density.maximumRadius {
                lines.append(("radii", "per point (--radius-column), up to \(n(largest)) \(unit)"))
            }
            let cell = geographic ? "\(n(g.dx / 1000)) × \(n(g.dy / 1000)) km" : "\(n(g.dx)) × \(n(g.dy))"
            lines.append(("grid", "\(g.columns) × \(g.rows) nodes, cells \(cell)"))
            let grid = run.density.grid
            lines.append(("values", "\(n(grid.minimum)) … \(n(grid.maximum)) \(grid.units)"))
            let spacing = run.configuration.levelSpacing
            if thresholds.isEmpty {
                lines.append(("thresholds", "none (\(spacing))"))
            } else {
                lines.append(
                    (
                        "thresholds",
                        "\(thresholds.count) (\(spacing)), \(grid.units): "
                            + thresholds.map(n).joined(separator: ", ")
                    ))
            }
            return lines.map { $0.0.padding(toLength: 11, withPad: " ", startingAt: 0) + $0.1 }
                .joined(separator: "\n") + "\n"
        }

        func json() -> String {
            let s = statistics
            let grid = run.density.grid
            var fields: [String] = []
            fields.append("\"input\":\(quote(points.name))")
            fields.append("\"format\":\(quote(points.format.rawValue))")
            fields.append("\"rows\":\(points.rowsRead)")
            fields.append("\"points\":\(s.count)")
            let rejected = points.rejections.tallies.map { "\(quote($0.first.reason)):\($0.count)" }
            fields.append("\"rejected\":{\(rejected.joined(separator: ","))}")
            fields.append("\"bbox\":" + (bbox.map { "[" + $0.map(n).joined(separator: ",") + "]" } ?? "null"))
            fields.append("\"total_weight\":\(n(s.totalWeight))")
            fields += gridFields(grid, bandwidth: run.density.bandwidth, number: n)
            if let a = run.density.adaptive {
                fields.append(
                    "\"adaptive\":{\"pilot_radius\":\(n(a.pilotRadius)),\"geometric_mean\":\(n(a.geometricMean)),"
                        + "\"p5\":\(n(a.percentile5)),\"p95\":\(n(a.percentile95)),\"smallest\":\(n(a.smallest)),"
                        + "\"largest\":\(n(a.largest)),\"trimmed\":\(a.trimmed)}")
            } else if let largest = run.density.maximumRadius {
                fields.append("\"largest_radius\":\(n(largest))")
            }
            fields.append("\"spacing\":\(quote("\(run.configuration.levelSpacing)"))")
            fields.append("\"thresholds\":[\(thresholds.map(n).joined(separator: ","))]")
            return "{" + fields.joined(separator: ",") + "}\n"
        }

        private func n(_ v: Double) -> String { reportNumber(v) }
    }
}

/// `info`'s radius line: the radius, how it was chosen, and what it means for the kernel.
func kernelRadiusText(_ grid: DensityGrid, rule: String, unit: String, number n: (Double) -> String) -> String {
    let r = grid.radius
    let sigma = r / grid.kernel.radiusPerSigma
    if grid.kernel == .gaussian { return "\(n(r)) \(unit) (\(rule)); sigma \(n(sigma)) \(unit)" }
    return "\(n(r)) \(unit) (\(rule)); the kernel's support, sigma \(n(sigma)) \(unit) per axis"
}

/// `info`'s kernel line: its name and what the values are.
func kernelText(_ grid: DensityGrid) -> String {
    let values = grid.kernelValues == .raw ? "raw sums (weight × shape, peak 1)" : "density (integrates to 1)"
    return "\(grid.kernel.name), \(values)"
}

/// A JSON string literal.
func quote(_ s: String) -> String { JSONEscaping.quoted(s) }

/// The members of `info --format json` that describe a density grid, from
/// its projection to its range, with numbers written by `number`.
func gridFields(_ grid: DensityGrid, bandwidth: Bandwidth, number n: (Double) -> String) -> [String] {
    let g = grid.geometry, p = grid.projection
    var projection = "{\"name\":\(quote(p.kind.rawValue))"
    if p.isGeographic {
        projection += ",\"centre_latitude\":\(n(p.centreLatitude)),\"centre_longitude\":\(n(p.centreLongitude))"
    }
    return [
        "\"projection\":\(projection)}",
        "\"radius\":\(n(grid.radius))",
        "\"bandwidth\":\(quote(bandwidth.rawValue))",
        "\"kernel\":\(quote(grid.kernel.name))",
        "\"kernel_values\":\(quote(grid.kernelValues.rawValue))",
        "\"sigma\":\(n(grid.radius / grid.kernel.radiusPerSigma))",
        "\"grid\":{\"columns\":\(g.columns),\"rows\":\(g.rows),\"dx\":\(n(g.dx)),\"dy\":\(n(g.dy))}",
        "\"estimator\":\(quote(grid.estimator.rawValue))",
        "\"units\":\(quote(grid.units))",
        "\"minimum\":\(n(grid.minimum)),\"maximum\":\(n(grid.maximum))"
    ]
}
