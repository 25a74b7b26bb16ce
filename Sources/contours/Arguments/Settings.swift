import Foundation
import HeatMap

/// Turns parsed options into the library's settings: reader options and a
/// ``HeatMapConfiguration`` (docs/formats.md).
enum Settings {
    /// The projection chosen by --projection / --planar.
    static func projection(_ args: ParsedArguments) throws -> MapProjection {
        if args[Options.planar] {
            if let chosen = args.given(Options.projection), chosen != .planar {
                throw ToolError.usage("--planar contradicts --projection \(chosen.rawValue)", command: args.command.name)
            }
            return .planar
        }
        return args[Options.projection]
    }

    /// How to read the input points.
    static func reader(_ args: ParsedArguments) throws -> PointReaderOptions {
        // A radius column is read where a measured value would be (the two exclude each other).
        let columns = PointColumns(latitude: args[Options.lat], longitude: args[Options.lon],
                                   weight: args[Options.weight], value: args[Options.value] ?? args[Options.radiusColumn])
        // Either declaration of --input-format gives the value. Only the
        // density commands take cells, and they read a cells table
        // before ever asking for points (``CellsInput``).
        let format: InputFormat?
        switch args[Options.inputFormat] {
        case nil: format = nil
        case .csv: format = .csv
        case .geojson: format = .geojson
        case .cells:
            throw args.bad(Options.inputFormat, args.text(Options.inputFormat) ?? "cells",
                           "expected one of csv, geojson, json")
        }
        return PointReaderOptions(columns: columns, geographic: try projection(args) != .planar, format: format,
                                  skipInvalid: args[Options.skipInvalid])
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
    static func configuration(_ args: ParsedArguments) throws -> (configuration: HeatMapConfiguration, resolutionFromData: Bool) {
        let kind = try projection(args)
        // The radius a rule falls back on when it has nothing to measure
        // (one point, all points at one place).
        var radius = kind == .planar ? 1 : HeatMapConfiguration().radius
        let bandwidth: Bandwidth
        switch args[Options.radius] {
        case .rule(let rule):
            bandwidth = rule
        case .length(let r):
            radius = r
            bandwidth = .fixed
        }
        let padding = args[Options.padding]
        if bandwidth == .fixed {
            // The grid spans the points plus padding × radius on each side:
            // keep that a quarter of the largest Double, whatever the points.
            let room = Double.greatestFiniteMagnitude / 4
            if radius * max(padding, 1) > room {
                func short(_ v: Double) -> String {
                    v == v.rounded() && abs(v) < 1e15 ? String(Int64(v)) : String(format: "%.3g", v)
                }
                if let text = args.text(Options.padding), padding * radius > room, radius <= room {
                    throw args.bad(Options.padding, text, "with --radius \(short(radius)) the padding may be at most \(short(room / radius))")
                }
                throw args.bad(Options.radius, args.text(Options.radius) ?? "",
                               "with --padding \(short(padding)) the radius may be at most \(short(room / max(padding, 1)))"
                                + (kind == .planar ? "" : " m"))
            }
        }
        let estimator: DensityEstimator = args.isGiven(Options.value) ? .mean : .density
        var configuration = HeatMapConfiguration(
            radius: radius, contourLevels: args[Options.levels], levelSpacing: args[Options.spacing],
            gridResolution: args[Options.resolution], gradient: args[Options.gradient], paddingFactor: padding,
            fillOpacity: args[Options.opacity], renderMode: args[Options.render], smoother: args[Options.smooth],
            projection: kind, estimator: estimator, bandwidth: bandwidth)
        configuration.kernel = args[Options.kernel]
        configuration.kernelValues = args[Options.kernelValues]
        if let column = args[Options.radiusColumn] {
            for other in [Options.value as any OptionDeclaration, Options.adaptive] where args.isGiven(other) {
                throw ToolError.usage("--radius-column \(column) cannot be combined with \(other.spec.name)", command: args.command.name)
            }
        }
        if let sensitivity = args[Options.adaptive] {
            configuration.adaptive = AdaptiveBandwidth(sensitivity: sensitivity, trim: args[Options.adaptiveTrim])
        } else if args.isGiven(Options.adaptiveTrim) {
            throw ToolError.usage("--adaptive-trim needs --adaptive", command: args.command.name)
        }
        return (configuration, bandwidth == .auto && !args.isGiven(Options.resolution))
    }

    /// The picture options (--legend, --basemap, --width, --height, --title, --graticule, --scale-bar).
    static func picture(_ args: ParsedArguments) throws -> HeatMapRenderOptions {
        var options = HeatMapRenderOptions()
        options.legend = args[Options.legend]
        options.width = Double(args[Options.width])
        options.height = Double(args[Options.height])
        options.title = args[Options.title]
        options.basemap = try basemap(args)
        options.graticule = args[Options.graticule]
        options.scaleBar = args[Options.scaleBar]
        return options
    }

    /// --basemap, repeatable: the default world, none, or the named layers stacked in order.
    static func basemap(_ args: ParsedArguments) throws -> HeatMapBasemap? {
        let given = args.all(Options.basemap)
        let layers = given.isEmpty ? [Options.basemap.defaultValue] : given
        var result: HeatMapBasemap?
        for (k, item) in layers.enumerated() {
            let layer: HeatMapBasemap
            switch item {
            case .none:
                guard layers.count == 1 else {
                    throw args.bad(Options.basemap, args.texts(Options.basemap)[k], "none cannot be combined with other basemaps")
                }
                return nil
            case .world:
                layer = .world
            case .file(let path):
                do {
                    layer = try HeatMapBasemap(contentsOf: URL(fileURLWithPath: path))
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
        if let text = args[Options.units] { return text }
        if args.isGiven(Options.value) { return nil }
        guard let weight = args[Options.weight] else { return nil }
        return "\(weight) × points \(areaUnits)"
    }

    /// --output / -o: a path, or nil for standard output.
    ///
    /// An output that is one of the command's input files (the same file
    /// through any link or `..`) is refused before anything is read.
    static func output(_ args: ParsedArguments) throws -> String? {
        guard let path = args[Options.output], path != "-" else { return nil }
        let inputs = args.operands.filter { $0 != "-" } + args.texts(Options.basemap)
        if let input = inputs.first(where: { OutputFile.sameFile($0, path) }) {
            let same = input == path ? "" : " (the same file as \(input))"
            throw ToolError.usage("-o \(path) is an input\(same); it would be overwritten: write elsewhere",
                                  command: args.command.name)
        }
        return path
    }
}
