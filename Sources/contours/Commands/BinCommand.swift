import Foundation
import HeatMap

/// `contours bin`: points → hexagon or square cells with aggregates, as
/// GeoJSON, CSV, SVG or HTML. Streams: memory grows with occupied cells,
/// not points.
enum BinCommand {
    enum Format: String { case geojson, csv, svg, html }

    static func run(_ args: ParsedArguments, control: ComputeControl) throws {
        let shape = args[Options.shape]
        if shape == .h3 || args.isGiven(Options.h3Column) {
            return try H3BinCommand.run(args, control: control)
        }
        let orientation = args[Options.orientation]
        let aggregate = args[Options.aggregate]
        let format = args.format(Options.binFormat)
        let kind = try Settings.projection(args)
        let size = args[Options.size]
        let maxCells = args[Options.maxCells]
        let settings = try BinSettings(args, format: format)
        let (precision, output, options, path) = (settings.precision, settings.output, settings.reader, settings.input)

        let points = try StreamedPoints.read(path: path, options: options, control: control)
        Console.report(points.rejections, rows: points.rowsRead)
        if points.count == 0 { DensityRun.describeOddities(points, estimator: .density) }
        let statistics = points.statistics
        var projection = statistics.projection(kind)
        if kind != .planar {
            // The plane's x = 0 is the centre meridian, an edge of squares and
            // of every other row of pointy hexagons. Data on a lattice of round
            // longitudes (0.1° storm fixes) would put points exactly on it,
            // where a GIS join of the output polygons cannot tell which cell
            // they belong to. A third of 10⁻⁵° (0.4 m) off, it stays off every
            // lattice of up to 5 decimals even after 6-decimal output rounding.
            projection.centreLongitude += 1.0 / 300_000
        }
        var chosen = size ?? defaultSize(statistics, projection: kind)
        if size == nil, kind == .planar, statistics.count > 0 {
            let reach =
                [
                    statistics.minLongitude, statistics.maxLongitude, statistics.minLatitude,
                    statistics.maxLatitude
                ].map(abs).max() ?? 0
            chosen = max(chosen, Binner.smallestExactSize(reach: reach, planar: true))
        }
        if size == nil, format != .csv {
            // An automatic size is one the drawn output can show (points
            // all at one place, or 1e-12 apart, would give a vanishing one).
            chosen = max(chosen, smallestDrawable(unit: kind == .planar ? "units" : "km", precision: precision))
        }
        let configuration = BinningConfiguration(
            shape: shape, size: chosen, orientation: orientation,
            projection: kind, includeEmpty: args[Options.includeEmpty],
            maximumCells: maxCells)
        var binner = try Binner(configuration: configuration, projection: projection)
        let useValues = options.columns.value != nil || options.columns.weight != nil
        control.report(.bin, 0)
        var done = 0
        try points.forEachBatch(control: control) { batch in
            let values = useValues ? (options.columns.value != nil ? batch.value : batch.weight) : nil
            if kind == .planar {
                try binner.add(x: batch.longitude, y: batch.latitude, values: values, control: control)
            } else {
                try binner.add(latitudes: batch.latitude, longitudes: batch.longitude, values: values, control: control)
            }
            done += batch.count
            control.report(.bin, Double(done) / Double(max(points.count, 1)))
        }
        let unit = kind == .planar ? "units" : "km"
        try checkNothingLost(binner, size: size, chosen: chosen, unit: unit, args: args)
        let result: BinningResult
        do {
            result = try binner.result(control: control)
        } catch HeatMapError.invalidConfiguration(let why) where configuration.includeEmpty {
            throw ToolError.failure("--include-empty: \(why), or raise --max-cells")
        }
        if format != .csv {
            try checkDrawable(chosen, unit: unit, precision: precision, format: format.rawValue)
        }

        control.report(.export, 0)
        // The text is built whole: up to some 400 bytes a cell (GeoJSON, SVG).
        try MemoryBudget.reserve(
            MemoryBudget.product(result.bins.count, format == .csv ? 120 : 400),
            for: "the \(format.rawValue) text of \(result.bins.count) cells")
        let text: String
        switch format {
        case .geojson:
            let geo = settings.geoJSON
            try OutputFile.streaming(to: output) { out in
                try GeoJSONExport.write(result, aggregate: aggregate, options: geo, to: out, control: control)
            }
            control.report(.export, 1)
            return
        case .csv:
            text = BinCSV.text(result, aggregate: aggregate, precision: precision)
        case .svg, .html:
            let name = BinSettings.valueLabel(
                aggregate, of: options.columns.value ?? options.columns.weight ?? "weight")
            text = settings.picture(
                HeatMapBinLayer(result, aggregate: aggregate, valueName: name), aggregate: aggregate)
        }
        try OutputFile.write(text, to: output)
        control.report(.export, 1)
        // Said after the output is written, so a failure stays one line.
        if size == nil, points.count > 0 {
            Console.note("bin size \(short(rounded(chosen))) \(unit) (from the data; set it with --size)")
        }
    }

    /// Refuses a run in which the binner left points out: cells so small
    /// that their numbers are not exact over the data.
    static func checkNothingLost(
        _ binner: Binner, size: Double?, chosen: Double, unit: String,
        args: ParsedArguments
    ) throws {
        let lost = binner.summary.rejected
        guard !lost.isEmpty else { return }
        let count = lost.values.reduce(0, +)
        let total = count + binner.summary.used
        if let far = lost[Binner.tooFarReason], binner.reach > Binner.largestReach {
            throw ToolError.failure(
                "\(far) of \(total) points have x or y beyond ±\(short(Binner.largestReach)), "
                    + "too large to bin at any size")
        }
        if let far = lost[Binner.tooFarReason] {
            let why =
                "\(far) of \(total) points lie too far from the origin to number cells this small exactly; "
                + "the smallest size the data allows is \(short(binner.smallestExactSize)) \(unit)"
            if let text = args.text(Options.size), size != nil { throw args.bad(Options.size, text, why) }
            throw ToolError.failure("bin size \(short(chosen)) \(unit): \(why)")
        }
        let reasons = lost.sorted { $0.key < $1.key }.map { "\($0.value) × \($0.key)" }.joined(separator: ", ")
        throw ToolError.failure("\(count) of \(total) points could not be binned: \(reasons)")
    }

    /// The smallest size ``checkDrawable(_:unit:precision:format:)`` lets
    /// through, rounded up to two significant digits.
    static func smallestDrawable(unit: String, precision: Int) -> Double {
        let span = 10 * pow(10, -Double(precision))
        let least = unit == "km" ? span * 111.32 : span
        let step = pow(10, floor(log10(least)) - 1)
        return (least / step).rounded(.up) * step
    }

    /// Refuses cells too small to survive rounding to `precision` decimals
    /// in a drawn format (GeoJSON, SVG, HTML), where they would vanish.
    static func checkDrawable(_ size: Double, unit: String, precision: Int, format: String) throws {
        // A cell must span at least ten steps of the last decimal (output
        // degrees for km: one degree is at most about 111 km).
        let span = unit == "km" ? size / 111.32 : size
        guard span < 10 * pow(10, -Double(precision)) else { return }
        let fits = (1...15).first { span >= 10 * pow(10, -Double($0)) }
        let advice = fits.map { "use --precision \($0) or a larger --size" } ?? "use a larger --size or --format csv"
        throw ToolError.failure(
            "bin size \(short(size)) \(unit) is too small to draw as \(format) "
                + "with \(precision) decimals (the cells would vanish); \(advice)")
    }

    /// A size for messages: whole numbers as they are, else three significant digits.
    static func short(_ v: Double) -> String {
        if v == v.rounded(), abs(v) < 1e15 { return String(Int64(v)) }
        return String(format: "%.3g", v)
    }

    /// A fortieth of the data's longer side (km for geographic data), so a
    /// first look shows some forty cells across.
    static func defaultSize(_ s: InputStatistics, projection kind: MapProjection) -> Double {
        guard s.count >= 2 else { return kind == .planar ? 1 : 10 }
        let longer: Double
        if kind == .planar {
            longer = max(s.maxLongitude - s.minLongitude, s.maxLatitude - s.minLatitude)
        } else {
            let arc = s.longitudeArc?.width ?? 0
            let centre = (s.minLatitude + s.maxLatitude) / 2
            longer = max(arc * 111.32 * cos(centre * .pi / 180), (s.maxLatitude - s.minLatitude) * 111.32)
        }
        guard longer > 0, longer.isFinite else { return kind == .planar ? 1 : 10 }
        return rounded(longer / 40)
    }

    /// Two significant digits: 37.2 km → 37, 0.01234 → 0.012.
    static func rounded(_ v: Double) -> Double {
        guard v > 0, v.isFinite else { return v }
        let step = pow(10, floor(log10(v)) - 1)
        return (v / step).rounded() * step
    }
}
