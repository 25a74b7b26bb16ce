import Foundation
import HeatMap

/// Turns parsed options into the library's settings: reader options,
/// picture options, the output (the ``HeatMapConfiguration`` is
/// ``ToolConfiguration``'s; docs/formats.md).
enum Settings {
    /// The projection chosen by --projection / --planar.
    static func projection(_ args: ParsedArguments) throws -> MapProjection {
        if args[Options.planar] {
            if let chosen = args.given(Options.projection), chosen != .planar {
                throw ToolError.usage(
                    "--planar contradicts --projection \(chosen.rawValue)", command: args.command.name)
            }
            return .planar
        }
        return args[Options.projection]
    }

    /// How to read the input points.
    static func reader(_ args: ParsedArguments) throws -> PointReaderOptions {
        var columns = PointColumns(
            latitude: args[Options.lat], longitude: args[Options.lon],
            weight: args[Options.weight], value: args[Options.value], time: try TimeSettings.columns(args))
        columns.radius = args[Options.radiusColumn]
        // Either declaration of --input-format gives the value. Only the
        // density commands take cells, and they read a cells table
        // before ever asking for points (``CellsInput``).
        let format: InputFormat?
        switch args[Options.inputFormat] {
        case nil: format = nil
        case .csv: format = .csv
        case .geojson: format = .geojson
        case .cells:
            throw args.bad(
                Options.inputFormat, args.text(Options.inputFormat) ?? "cells",
                "expected one of csv, geojson, json")
        }
        return PointReaderOptions(
            columns: columns, geographic: try projection(args) != .planar, format: format,
            skipInvalid: args[Options.skipInvalid])
    }

    /// Opens INPUT once and tells what it holds (``InputKind``): the
    /// `--input-format` given, else what its first bytes say. Every reader
    /// of the command goes on from these bytes, so a pipe, `/dev/stdin` or
    /// `<(…)` works as a file does (docs/faults.md#streams-as-input).
    static func openInput(_ args: ParsedArguments, path: String?) throws -> InputFile {
        let option =
            args.command.option(named: "--input-format") != nil
            ? (args.given(Options.inputFormatOrCells) ?? nil) : nil
        let forced: InputKind? = option.map {
            switch $0 {
            case .csv: .csv
            case .geojson: .geojson
            case .cells: .cells
            }
        }
        return try InputFile(path: path, forced: forced)
    }

    /// The INPUT operand: a path, or nil for standard input.
    static func input(_ args: ParsedArguments, operands: ArraySlice<String>) throws -> String? {
        if operands.count > 1 {
            throw ToolError.usage(
                "unexpected operand '\(operands[operands.startIndex + 1])' (one INPUT at a time)",
                command: args.command.name)
        }
        guard let path = operands.first, path != "-" else {
            if StandardStreams.inputClosed {
                throw ToolError.failure("cannot read standard input: it is closed (give INPUT as a file)")
            }
            if operands.isEmpty, isatty(STDIN_FILENO) == 1 {
                throw ToolError.usage(
                    "no INPUT given (a CSV or GeoJSON file, or '-' for standard input)",
                    command: args.command.name)
            }
            return nil
        }
        return path
    }

    /// The picture options (--legend, --basemap, --width, --height, --title, --graticule, --scale-bar,
    /// --basemap-tiles, --attribution).
    static func picture(_ args: ParsedArguments) throws -> HeatMapRenderOptions {
        var options = HeatMapRenderOptions()
        options.legend = args[Options.legend]
        options.width = Double(args[Options.width])
        options.height = Double(args[Options.height])
        options.title = args[Options.title]
        options.attribution = args[Options.attribution]
        options.basemap = try basemap(args)
        options.graticule = args[Options.graticule]
        options.scaleBar = args[Options.scaleBar]
        if let template = args[Options.basemapTiles] {
            do {
                options.basemapTiles = try HeatMapTileBasemap(urlTemplate: template)
            } catch HeatMapError.invalidConfiguration(let why) {
                throw args.bad(Options.basemapTiles, template, why)
            }
            // The tiles are the map: no land drawn over them unless asked.
            if !args.isGiven(Options.basemap) { options.basemap = nil }
            if options.attribution == nil {
                Console.note(
                    "--basemap-tiles without --attribution: credit the tiles' source (their licence asks for it)")
            }
        }
        return options
    }

    /// Refuses --basemap-tiles outside an HTML page of geographic data.
    static func checkBasemapTiles(_ args: ParsedArguments, html: Bool, geographic: Bool) throws {
        guard args.isGiven(Options.basemapTiles) else { return }
        if !html {
            throw ToolError.usage(
                "--basemap-tiles draws under an HTML page only (--format html)", command: args.command.name)
        }
        if !geographic {
            throw ToolError.usage(
                "--basemap-tiles needs geographic data (longitude and latitude): map tiles have no place for planar x/y",
                command: args.command.name)
        }
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
                    throw args.bad(
                        Options.basemap, args.texts(Options.basemap)[k], "none cannot be combined with other basemaps")
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
            throw ToolError.usage(
                "-o \(path) is an input\(same); it would be overwritten: write elsewhere",
                command: args.command.name)
        }
        return path
    }
}
