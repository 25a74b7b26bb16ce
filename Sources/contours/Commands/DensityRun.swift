import Foundation
import HeatMap

/// The part every density command shares: read the points (streaming),
/// say what was skipped and what is odd about them, compute the grid.
struct DensityRun {
    /// The points read; nil when INPUT was a cells table.
    let points: StreamedPoints?
    /// The cells table read instead of points.
    let cells: CellTable?
    let density: StreamedDensity.Result
    let configuration: HeatMapConfiguration

    /// Reads INPUT and computes its grid under the command's options and
    /// `settings` (``ToolConfiguration``).
    /// With `forPicture`, an automatic radius (no --radius) follows the
    /// picture rule (``PictureRadius``) instead of the point-spacing rule.
    /// A cells table (see ``CellsInput``) brings its own grid.
    static func run(
        _ args: ParsedArguments,
        _ settings: ToolConfiguration,
        operands: ArraySlice<String>, input opened: InputFile? = nil, control: ComputeControl,
        forPicture: Bool = false
    ) throws -> DensityRun {
        var settings = settings
        let path = try Settings.input(args, operands: operands)
        let input = try opened ?? Settings.openInput(args, path: path)
        if input.kind.isRaster {
            let what =
                input.kind == .geotiff ? "a GeoTIFF" : input.kind == .asciiGrid ? "an ESRI ASCII grid" : "a JSON grid"
            throw ToolError.failure(
                "\(input.name): \(what) is not points; 'contours export' contours a raster as it is")
        }
        if input.kind == .cells {
            let cells = try CellsInput.read(args, input: input)
            let used = settings.settled(byCells: cells)
            var grid = try cells.densityGrid(control: control)
            if forPicture, let units = Settings.units(args, areaUnits: grid.projection.densityUnits) {
                grid.units = units
            }
            let density = StreamedDensity.Result(
                grid: grid, configuration: used, bandwidth: cells.bandwidth,
                radiusRaised: cells.radiusRaised,
                summary: InputSummary(used: cells.points, rejected: cells.rejected))
            return DensityRun(points: nil, cells: cells, density: density, configuration: used)
        }
        let options = try Settings.reader(args)
        var points: StreamedPoints
        var h3Resolution: Int?
        if let column = args[Options.h3Column] {
            (points, h3Resolution) = try H3Input.points(
                input: input, column: column, options: options, control: control)
        } else {
            points = try StreamedPoints.read(input: input, options: options, control: control)
        }
        Console.report(points.rejections, rows: points.rowsRead)
        if forPicture, !args.isGiven(Options.radius),
            let rule = PictureRadius(points.statistics, geographic: settings.configuration.projection != .planar)
        {
            settings = settings.settled(byPicture: rule, resolutionGiven: args.isGiven(Options.resolution))
        }
        let configuration = settings.configuration
        var density = try StreamedDensity.compute(
            from: points, configuration: configuration,
            resolutionFromData: settings.resolutionFromData,
            control: control)
        // Said once the grid is made: a run refused (an adaptive pilot
        // that is the same everywhere) gets its one line alone.
        let odd = describeOddities(points, estimator: configuration.estimator)
        if let h3Resolution {
            try H3Input.check(coarsest: h3Resolution, radiusMetres: density.configuration.radius, quiet: odd)
        }
        if !odd, let resolving = density.resolvingResolution {
            describeCoarseCells(density.grid, resolving: resolving)
        } else if !odd, density.grid.maximum > density.grid.minimum {
            // (A flat grid gets its own line, which says enough.)
            describeRimCap(density.grid, totalWeight: points.statistics.totalWeight)
        }
        // A mean is in the unit of the measured column: name it, so legends
        // and GeoJSON read "400,000 Sale_Price", not a bare number.
        if configuration.estimator == .mean, let column = options.columns.value {
            density.grid.units = column
        }
        if forPicture, let units = Settings.units(args, areaUnits: density.grid.projection.densityUnits) {
            density.grid.units = units
        }
        return DensityRun(points: points, cells: nil, density: density, configuration: density.configuration)
    }

    /// Says why a map will be empty or a single blob (docs/faults.md): no points, one
    /// point, all at one place, all weights zero.
    /// Returns whether it said anything.
    @discardableResult
    static func describeOddities(_ points: StreamedPoints, estimator: DensityEstimator) -> Bool {
        let s = points.statistics
        switch HeatMapNote.points(
            count: s.count, weighted: s.weightedCount, atOnePlace: s.allIdentical, leftOut: points.rowsRead - s.count)
        {
        case nil:
            return false
        case .noPoints?:
            Console.note(
                points.rowsRead == 0
                    ? "\(points.name): no data rows; the result is empty"
                    : "\(points.name): no usable points (all \(points.rowsRead) rows skipped); the result is empty")
        case let note?:
            Console.note("\(points.name): \(note)")
        }
        return true
    }

    /// Says how much of the weight the grid lost to the equal-area plane's
    /// rim: round the antipode of the plane's centre the grid holds no
    /// density (docs/density-model.md), a cap several cells wide on the
    /// ground; data over the globe may have points there. One line when the
    /// grid's density holds under 99 % of the weight.
    static func describeRimCap(_ grid: DensityGrid, totalWeight: Double) {
        guard let note = HeatMapNote.rim(grid, totalWeight: totalWeight) else { return }
        Console.note("\(note); a finer --resolution narrows that cap")
    }

    /// Says that the radius is far narrower than the grid's cells (its σ
    /// under half a cell): the nodes sample each kernel at a few points or
    /// none, so the grid misses much of its mass and the contours between
    /// nodes follow the cells rather than the density (docs/faults.md).
    static func describeCoarseCells(_ grid: DensityGrid, resolving: Int) {
        let unit = grid.projection.isGeographic ? "m" : "units"
        let sigma = grid.radius / grid.kernel.radiusPerSigma
        let cell = max(grid.geometry.dx, grid.geometry.dy)
        // A grid that missed every kernel is flat: one line says both.
        let flat = grid.maximum > grid.minimum ? "" : "; here it missed all: the grid is flat and there are no contours"
        Console.note(
            "the radius \(reportNumber(grid.radius)) \(unit) (sigma \(reportNumber(sigma)) \(unit)) is under half a grid cell "
                + "(\(reportNumber(cell)) \(unit)): the grid misses much of each kernel; "
                + "--resolution \(resolving) or more, or a wider --radius, resolves it" + flat)
    }

    /// Says why there are no contours when the input looked fine: the
    /// levels asked for (`spacing`, placed by `rule` when one was given)
    /// all fall outside the grid's range, or the grid is flat.
    func describeEmptyLevels(
        _ thresholds: [Double], spacing: LevelSpacing? = nil, rule: ContourOptions.LevelRule? = nil
    ) {
        guard let points else {
            if thresholds.isEmpty {
                Console.note("the grid is flat (no value above its minimum); there are no contours")
            }
            return
        }
        let s = points.statistics
        guard thresholds.isEmpty, s.count > 0, s.weightedCount > 0 else { return }
        let grid = density.grid
        let range =
            "the grid's range \(String(format: "%.4g", grid.minimum)) … \(String(format: "%.4g", grid.maximum))"
            + (grid.units.isEmpty ? "" : " \(grid.units)")
        if grid.maximum > grid.minimum {
            switch (rule, spacing ?? configuration.levelSpacing) {
            case (.interval(let i, let offset)?, _):
                Console.note(
                    "no level of --interval \(ArgumentValues.text(i))"
                        + (offset == 0 ? "" : " --offset \(ArgumentValues.text(offset))")
                        + " lies inside \(range); there are no contours")
                return
            case (.exponential(let base)?, _):
                Console.note(
                    "no power of --exp-base \(ArgumentValues.text(base)) (1, \(ArgumentValues.text(base)), …) lies inside \(range); there are no contours"
                )
                return
            case (nil, .probability(let shares)):
                let shown =
                    shares.prefix(5).map(ArgumentValues.text).joined(separator: ", ") + (shares.count > 5 ? ", …" : "")
                Console.note(
                    "no probability level (\(shown)) gives a threshold inside \(range): each region holding that share of the mass is smaller than a grid cell; there are no contours"
                )
                return
            default:
                break
            }
        }
        if case .custom(let values) = configuration.levelSpacing, grid.maximum > grid.minimum {
            let shown =
                values.prefix(5).map(ArgumentValues.text).joined(separator: ", ") + (values.count > 5 ? ", …" : "")
            Console.note(
                "no custom level (\(shown)) lies inside the grid's range \(String(format: "%.4g", grid.minimum))"
                    + " … \(String(format: "%.4g", grid.maximum)) \(grid.units) (levels must be above the minimum"
                    + " and at most the maximum); there are no contours")
        } else if configuration.estimator == .mean && s.minValue == s.maxValue {
            Console.note(
                "every value is \(ArgumentValues.text(s.minValue)); the mean is flat and there are no contours")
        } else if density.resolvingResolution == nil {
            // (With a radius under half a cell, its note said it already.)
            Console.note("the grid is flat (no value above its minimum); there are no contours")
        }
    }
}
