import Foundation
import HeatMap

/// Turns parsed options into the library's settings: reader options and a
/// ``HeatMapConfiguration`` (docs/formats.md).
enum Settings {
    /// The projection chosen by --projection / --planar.
    static func projection(_ args: ParsedArguments) throws -> MapProjection {
        let chosen = try args.choice(Options.projection, MapProjection.allCases.map { ($0.rawValue, $0) })
        if args.flag(Options.planar) {
            if let chosen, chosen != .planar {
                throw ToolError.usage("--planar contradicts --projection \(chosen.rawValue)", command: args.command.name)
            }
            return .planar
        }
        return chosen ?? .equalArea
    }

    /// How to read the input points.
    static func reader(_ args: ParsedArguments) throws -> PointReaderOptions {
        let columns = PointColumns(latitude: args.string(Options.lat), longitude: args.string(Options.lon),
                                   weight: args.string(Options.weight), value: args.string(Options.value))
        for (spec, name) in [(Options.lat, columns.latitude), (Options.lon, columns.longitude),
                             (Options.weight, columns.weight), (Options.value, columns.value)] {
            if let name, name.trimmingCharacters(in: .whitespaces).isEmpty {
                throw args.bad(spec, name, "expected a column name")
            }
        }
        let format = try args.choice(Options.inputFormat, [("csv", InputFormat.csv), ("geojson", .geojson),
                                                           ("json", .geojson)])
        return PointReaderOptions(columns: columns, geographic: try projection(args) != .planar, format: format,
                                  skipInvalid: args.flag(Options.skipInvalid))
    }

    /// The INPUT operand: a path, or nil for standard input.
    static func input(_ args: ParsedArguments, operands: ArraySlice<String>) throws -> String? {
        if operands.count > 1 {
            throw ToolError.usage("unexpected operand '\(operands[operands.startIndex + 1])' (one INPUT at a time)",
                                  command: args.command.name)
        }
        guard let path = operands.first, path != "-" else {
            if StandardStreams.inputClosed {
                throw ToolError.failure("cannot read standard input: it is closed (give INPUT as a file)")
            }
            if operands.isEmpty, isatty(STDIN_FILENO) == 1 {
                throw ToolError.usage("no INPUT given (a CSV or GeoJSON file, or '-' for standard input)",
                                      command: args.command.name)
            }
            return nil
        }
        return path
    }

    /// The density and contour configuration, and whether the resolution
    /// is to come from the data (--radius auto without --resolution).
    static func configuration(_ args: ParsedArguments) throws -> (HeatMapConfiguration, resolutionFromData: Bool) {
        let kind = try projection(args)
        // The radius a rule falls back on when it has nothing to measure
        // (one point, all points at one place).
        var radius = kind == .planar ? 1 : HeatMapConfiguration().radius
        var bandwidth = Bandwidth.auto
        if let text = args.string(Options.radius) {
            switch text.lowercased() {
            case "auto": bandwidth = .auto
            case "scott": bandwidth = .scott
            case "silverman": bandwidth = .silverman
            default:
                guard let r = ArgumentValues.length(text) else {
                    throw args.bad(Options.radius, text, "expected a length (metres, or planar units) or auto, scott, silverman")
                }
                guard r.isFinite, r > 0 else { throw args.bad(Options.radius, text, "expected a length > 0") }
                radius = r
                bandwidth = .fixed
            }
        }
        let resolution = try args.integer(Options.resolution, in: 2...10_000)
        let padding = try args.number(Options.padding, minimum: 0) ?? 1.5
        if bandwidth == .fixed {
            // The grid spans the points plus padding × radius on each side:
            // keep that a quarter of the largest Double, whatever the points.
            let room = Double.greatestFiniteMagnitude / 4
            if radius * max(padding, 1) > room {
                func short(_ v: Double) -> String {
                    v == v.rounded() && abs(v) < 1e15 ? String(Int64(v)) : String(format: "%.3g", v)
                }
                if let text = args.string(Options.padding), padding * radius > room, radius <= room {
                    throw args.bad(Options.padding, text, "with --radius \(short(radius)) the padding may be at most \(short(room / radius))")
                }
                throw args.bad(Options.radius, args.string(Options.radius) ?? "",
                               "with --padding \(short(padding)) the radius may be at most \(short(room / max(padding, 1)))"
                                + (kind == .planar ? "" : " m"))
            }
        }
        let levels = try args.integer(Options.levels, in: 1...1000) ?? 10
        let spacing = try self.spacing(args) ?? .auto
        let smoother = try self.smoother(args) ?? .chaikin(iterations: 2)
        let estimator: DensityEstimator = args.string(Options.value) != nil ? .mean : .density
        let configuration = HeatMapConfiguration(
            radius: radius, contourLevels: levels, levelSpacing: spacing,
            gridResolution: resolution ?? HeatMapConfiguration().gridResolution,
            gradient: try gradient(args) ?? .thermal, paddingFactor: padding,
            fillOpacity: try opacity(args) ?? 1, renderMode: try renderMode(args) ?? .filled,
            smoother: smoother, projection: kind, estimator: estimator, bandwidth: bandwidth)
        return (configuration, bandwidth == .auto && resolution == nil)
    }

    /// --spacing.
    static func spacing(_ args: ParsedArguments) throws -> LevelSpacing? {
        guard let text = args.string(Options.spacing) else { return nil }
        let lower = text.lowercased()
        let words: [(String, LevelSpacing)] = [("auto", .auto), ("linear", .linear), ("log", .logarithmic),
                                               ("logarithmic", .logarithmic), ("quantile", .quantile),
                                               ("nice", .nice)]
        if let hit = words.first(where: { $0.0 == lower }) { return hit.1 }
        func list(_ prefix: String) throws -> [Double] {
            let body = text.dropFirst(prefix.count)
            let parts = body.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            guard !body.isEmpty else { throw args.bad(Options.spacing, text, "\(prefix) needs at least one value") }
            return try parts.map { part in
                guard let v = ArgumentValues.number(part), v.isFinite else {
                    throw args.bad(Options.spacing, text, "'\(part)' is not a finite number")
                }
                return v
            }
        }
        if lower.hasPrefix("custom:") {
            return .custom(try list("custom:"))
        }
        if lower.hasPrefix("probability:") {
            let shares = try list("probability:")
            if let off = shares.first(where: { !($0 > 0 && $0 < 1) }) {
                throw args.bad(Options.spacing, text, "share \(ArgumentValues.text(off)) is not between 0 and 1")
            }
            return .probability(shares)
        }
        var why = "expected auto, linear, log, quantile, nice, custom:V1,V2,… or probability:P1,P2,…"
        if let guess = suggestion(for: lower, among: words.map(\.0) + ["custom", "probability"]) {
            why += "; did you mean \(guess)?"
        }
        throw args.bad(Options.spacing, text, why)
    }

    /// --smooth.
    static func smoother(_ args: ParsedArguments) throws -> PolygonSmoother? {
        guard let text = args.string(Options.smooth) else { return nil }
        let lower = text.lowercased()
        if lower == "none" { return PolygonSmoother.none }
        if lower == "chaikin" { return .chaikin(iterations: 2) }
        if lower.hasPrefix("chaikin:"), let n = Int(lower.dropFirst("chaikin:".count)) {
            guard (0...8).contains(n) else { throw args.bad(Options.smooth, text, "passes must be 0...8") }
            return n == 0 ? PolygonSmoother.none : .chaikin(iterations: n)
        }
        throw args.bad(Options.smooth, text, "expected none, chaikin or chaikin:N")
    }

    /// --gradient (nil when not given).
    static func gradient(_ args: ParsedArguments) throws -> HeatMapGradient? {
        guard args.command.option(named: Options.gradient.name) != nil, let text = args.string(Options.gradient) else {
            return nil
        }
        do {
            return try HeatMapGradient(parsing: text)
        } catch {
            throw ToolError.usage("bad value for --gradient: \(error)", command: args.command.name)
        }
    }

    /// --opacity (nil when not given).
    static func opacity(_ args: ParsedArguments) throws -> Double? {
        guard let v = try args.number(Options.opacity, minimum: 0) else { return nil }
        guard v <= 1 else { throw args.bad(Options.opacity, args.string(Options.opacity)!, "expected a number from 0 to 1") }
        return v
    }

    /// --render (nil when not given).
    static func renderMode(_ args: ParsedArguments) throws -> HeatMapRenderMode? {
        guard let text = args.string(Options.render) else { return nil }
        guard let mode = HeatMapRenderMode(name: text) else {
            throw args.bad(Options.render, text, "expected filled, isolines or both")
        }
        return mode
    }

    /// The picture options (--legend, --basemap, --width, --height, --title).
    static func picture(_ args: ParsedArguments) throws -> HeatMapRenderOptions {
        var options = HeatMapRenderOptions()
        if let legend = try args.choice(Options.legend, [("vertical", HeatMapLegend.Axis?.some(.vertical)),
                                                        ("horizontal", .some(.horizontal)), ("none", nil)]) {
            options.legend = legend
        }
        if let w = try args.integer(Options.width, in: 50...20_000) { options.width = Double(w) }
        if let h = try args.integer(Options.height, in: 50...20_000) { options.height = Double(h) }
        options.title = args.string(Options.title)
        options.basemap = try basemap(args)
        let switches: [(String, Bool?)] = [("auto", nil), ("on", true), ("off", false)]
        options.graticule = try args.choice(Options.graticule, switches) ?? nil
        options.scaleBar = try args.choice(Options.scaleBar, switches) ?? nil
        return options
    }

    /// --basemap, repeatable: the default world, none, or the named layers stacked in order.
    static func basemap(_ args: ParsedArguments) throws -> HeatMapBasemap? {
        let given = args.strings(Options.basemap)
        guard !given.isEmpty else { return .world }
        var result: HeatMapBasemap?
        for item in given {
            let layer: HeatMapBasemap
            switch item.lowercased() {
            case "none":
                guard given.count == 1 else { throw args.bad(Options.basemap, item, "none cannot be combined with other basemaps") }
                return nil
            case "world":
                layer = .world
            default:
                do {
                    layer = try HeatMapBasemap(contentsOf: URL(fileURLWithPath: item))
                } catch {
                    throw ToolError.failure("\(error)")
                }
            }
            result = result.map { $0 + layer } ?? layer
        }
        return result
    }

    /// --units, or the units named from the columns: a weighted density
    /// counts the weight column per area, a mean is in its column's unit.
    static func units(_ args: ParsedArguments, areaUnits: String) -> String? {
        if let text = args.string(Options.units) { return text }
        if args.string(Options.value) != nil { return nil }
        guard let weight = args.string(Options.weight) else { return nil }
        return "\(weight) × points \(areaUnits)"
    }

    /// --scale (bins).
    static func scale(_ args: ParsedArguments) throws -> (HeatMapScaleType, BinColorScale) {
        guard let text = args.string(Options.scale) else { return (.linear, .linear) }
        guard let scale = HeatMapScaleType(name: text) else {
            throw args.bad(Options.scale, text, "expected linear, log, symlog or symlog:SLOPE")
        }
        let lower = text.lowercased()
        if lower == "log" { return (scale, .log) }
        if lower.hasPrefix("symlog") || lower == "symmetriclog" {
            let slope = lower.hasPrefix("symlog:") ? Double(lower.dropFirst(7)) ?? 1 : 1
            return (scale, .symlog(slopeAtZero: slope))
        }
        return (scale, .linear)
    }

    /// --precision.
    static func precision(_ args: ParsedArguments) throws -> Int {
        try args.integer(Options.precision, in: 0...15) ?? 6
    }

    /// --output / -o: a path, or nil for standard output.
    ///
    /// An output that is one of the command's input files (the same file
    /// through any link or `..`) is refused before anything is read.
    static func output(_ args: ParsedArguments) throws -> String? {
        guard let path = args.string(Options.output) else { return nil }
        if path.isEmpty { throw args.bad(Options.output, path, "expected a file name") }
        if path == "-" { return nil }
        let inputs = args.operands.filter { $0 != "-" } + args.strings(Options.basemap)
        if let input = inputs.first(where: { OutputFile.sameFile($0, path) }) {
            let same = input == path ? "" : " (the same file as \(input))"
            throw ToolError.usage("-o \(path) is an input\(same); it would be overwritten: write elsewhere",
                                  command: args.command.name)
        }
        return path
    }
}
