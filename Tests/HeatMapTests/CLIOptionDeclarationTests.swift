import Foundation
import HeatMap
import Testing

@testable import contours

/// The tool's option declarations (`Options`): each option's help, type,
/// default and reading in one place, the help printed from them, and the
/// one-line errors parsing gives.
@Suite struct CLIOptionDeclarationTests {
    static let geographic = ValueContext(geographic: true)

    /// The one line the command line's parsing error prints, nil when it parses.
    static func error(_ command: CommandSpec, _ arguments: [String]) -> String? {
        do {
            _ = try ParsedArguments(arguments, for: command)
            return nil
        } catch let error as ToolError {
            return error.line
        } catch {
            return "not a ToolError: \(error)"
        }
    }

    @Test func everyOptionOfEveryCommandHasHelpAnExampleAndOneName() {
        for command in Commands.all {
            let names = command.options.map(\.name)
            #expect(Set(names).count == names.count, "\(command.name) lists an option twice")
            #expect(names.contains("--help"), "\(command.name)")
            for option in command.options {
                #expect(option.name.hasPrefix("--"), "\(option.name)")
                #expect(!option.help.isEmpty && option.help.hasSuffix("."), "\(command.name) \(option.name)")
                #expect(
                    !option.help.contains("Default:"),
                    "\(option.name): the default belongs in the declaration, not in the help sentence")
                #expect(
                    option.example.contains(option.name) || option.short.map(option.example.hasPrefix) == true,
                    "\(option.name): example '\(option.example)'")
                // A value option has a placeholder and a reader; a flag neither.
                #expect((option.value != nil) == option.takesValue, "\(option.name)")
            }
        }
    }

    /// Reads `text` with the option's own reader.
    static func read<V>(_ option: Option<V>, _ text: String, _ context: ValueContext = geographic) throws -> V? {
        try option.spec.read.map { try $0(text, context) } as? V
    }

    /// The first word of the default help states ("6 (about 0.1 m); …" → "6").
    static func statedWord(_ option: OptionSpec) -> String? {
        option.defaultText?.split(whereSeparator: { $0 == " " || $0 == ";" }).first.map(String.init)
    }

    /// The default help states, read back by the option's reader, is the declared default.
    static func statesItsDefault<V: Equatable>(_ option: Option<V>) throws {
        let word = try #require(statedWord(option.spec), "\(option.name) states no default")
        #expect(try read(option, word) == option.defaultValue, "\(option.name): help says \(word)")
        #expect(option.spec.helpText.hasSuffix("Default: \(option.spec.defaultText!)."), "\(option.name)")
    }

    @Test func defaultsAreTheLibrarysAndHelpStatesThem() throws {
        let map = HeatMapConfiguration(), picture = HeatMapRenderOptions(), geo = GeoJSONOptions()
        let bins = BinningConfiguration(size: 1)
        #expect(Options.resolution.defaultValue == map.gridResolution)
        #expect(Options.padding.defaultValue == map.paddingFactor)
        #expect(Options.projection.defaultValue == map.projection)
        #expect(Options.levels.defaultValue == map.contourLevels)
        #expect(Options.spacing.defaultValue == map.levelSpacing)
        #expect(Options.smooth.defaultValue == map.smoother)
        #expect(Options.gradient.defaultValue == map.gradient)
        #expect(Options.opacity.defaultValue == map.fillOpacity)
        #expect(Options.render.defaultValue == map.renderMode)
        #expect(Options.mode.defaultValue == picture.contourMode)
        #expect(Options.legend.defaultValue == picture.legend)
        #expect(Options.graticule.defaultValue == picture.graticule)
        #expect(Options.scaleBar.defaultValue == picture.scaleBar)
        #expect(Double(Options.width.defaultValue) == picture.width)
        #expect(Double(Options.height.defaultValue) == picture.height)
        #expect(Options.feature.defaultValue == geo.grouping)
        #expect(Options.precision.defaultValue == geo.precision)
        #expect(Options.scale.defaultValue == geo.colorScale)
        #expect(Options.attributes.defaultValue == (geo.gdalAttributes != nil))
        #expect(Options.shape.defaultValue == bins.shape)
        #expect(Options.orientation.defaultValue == bins.orientation)
        // The tool's own defaults, where the library has none or another:
        // an automatic radius (the library's is a fixed 500 m) and a lower
        // empty-cell limit.
        #expect(Options.radius.defaultValue == .rule(.auto) && map.bandwidth == .fixed)
        #expect(Options.maxCells.defaultValue == 1_000_000 && bins.maximumCells == 5_000_000)

        #expect(Options.resolution.spec.defaultText == "from the data with --radius auto, else \(map.gridResolution)")
        try Self.statesItsDefault(Options.padding)
        try Self.statesItsDefault(Options.projection)
        try Self.statesItsDefault(Options.levels)
        try Self.statesItsDefault(Options.spacing)
        try Self.statesItsDefault(Options.smooth)
        try Self.statesItsDefault(Options.gradient)
        try Self.statesItsDefault(Options.opacity)
        try Self.statesItsDefault(Options.render)
        try Self.statesItsDefault(Options.mode)
        try Self.statesItsDefault(Options.feature)
        try Self.statesItsDefault(Options.precision)
        try Self.statesItsDefault(Options.legend)
        try Self.statesItsDefault(Options.graticule)
        try Self.statesItsDefault(Options.scaleBar)
        try Self.statesItsDefault(Options.width)
        try Self.statesItsDefault(Options.height)
        try Self.statesItsDefault(Options.scale)
        try Self.statesItsDefault(Options.attributes)
        try Self.statesItsDefault(Options.shape)
        try Self.statesItsDefault(Options.orientation)
        try Self.statesItsDefault(Options.aggregate)
        try Self.statesItsDefault(Options.maxCells)
        try Self.statesItsDefault(Options.offset)
        try Self.statesItsDefault(Options.radius)
        try Self.statesItsDefault(Options.dialect)
        try Self.statesItsDefault(Options.exportFormat)
        try Self.statesItsDefault(Options.gridFormat)
        try Self.statesItsDefault(Options.binFormat)
        try Self.statesItsDefault(Options.infoFormat)
        #expect(Options.lat.spec.defaultText == "the first of lat, latitude, y (any case)")
    }

    @Test func helpIsPrintedFromTheDeclarations() {
        for command in Commands.all {
            let text = Help.command(command)
            let flat = text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
            for option in command.options {
                let words = option.helpText.split(whereSeparator: \.isWhitespace).joined(separator: " ")
                #expect(flat.contains(words), "\(command.name) \(option.name)")
                if let value = option.value { #expect(text.contains("\(option.name) \(value)"), "\(option.name)") }
            }
            #expect(
                text.components(separatedBy: "Default:").count - 1
                    == command.options.filter { $0.defaultText != nil }.count, "\(command.name)")
        }
        // --feature band is per-level grouping: help says so and offers level|polygon.
        let feature = Help.command(Commands.export)
        #expect(feature.contains("--feature level|polygon"))
        #expect(Options.feature.spec.helpText.contains("'band' is read as level"))
        // The points-only commands do not offer cells tables.
        #expect(!Help.command(Commands.bin).contains("csv|geojson|cells"))
        #expect(Help.command(Commands.grid).contains("--input-format csv|geojson|cells"))
    }

    @Test func parsingGivesTypedValues() throws {
        let args = try ParsedArguments(
            [
                "in.csv", "--radius", "2.5km", "--levels=6", "--spacing", "custom:1,2",
                "--smooth", "chaikin:3", "--feature", "band", "--simplify", "auto",
                "--planar", "--crs", "epsg:32633", "--legend", "none"
            ],
            for: Commands.export)
        #expect(args.operands == ["in.csv"])
        #expect(args[Options.radius] == .length(2500))
        #expect(args[Options.levels] == 6)
        #expect(args[Options.spacing] == .custom([1, 2]))
        #expect(args[Options.smooth] == .chaikin(iterations: 3))
        #expect(args[Options.feature] == .level)
        #expect(args[Options.simplify] == .some(nil))
        #expect(args[Options.planar])
        #expect(args[Options.crs] == .epsg(32633))
        #expect(args[Options.legend] == nil)
        // Not given: the declared default, and nothing "given".
        #expect(args[Options.padding] == HeatMapConfiguration().paddingFactor)
        #expect(args.given(Options.padding) == nil && !args.isGiven(Options.padding))
        #expect(args[Options.mode] == .bands)
        #expect(args[Options.simplify] != nil)
        let plain = try ParsedArguments(["in.csv"], for: Commands.export)
        #expect(plain[Options.simplify] == nil)

        // Coordinate values read in the light of --planar.
        let km = try ParsedArguments(["--size", "800m"], for: Commands.bin)
        #expect(km[Options.size] == 0.8)
        #expect(
            Self.error(Commands.bin, ["--planar", "--size", "800m"])
                == "contours: bad value '800m' for --size: expected a size > 0 (e.g. --size 50); see 'contours bin --help'"
        )
        let queries = try ParsedArguments(["c.geojson", "--at", "-20.5,178.2", "--at", "1,2"], for: Commands.hit)
        #expect(
            queries.all(Options.at) == [
                HitQuery(latitude: -20.5, longitude: 178.2), HitQuery(latitude: 1, longitude: 2)
            ])
        #expect(
            try ParsedArguments(["c.geojson", "--planar", "--at", "95,1000"], for: Commands.hit)
                .all(Options.at) == [HitQuery(latitude: 95, longitude: 1000)])
        #expect(
            Self.error(Commands.hit, ["c.geojson", "--planar", "--at", "x"])?.contains("expected Y,X numbers") == true)
        #expect(
            Self.error(Commands.bin, ["--projection", "planar", "--size", "800m"])?
                .contains("expected a size > 0") == true)
    }

    @Test func unknownMissingAndBadValuesGiveOneLine() throws {
        let cases: [(CommandSpec, [String], String)] = [
            (Commands.export, ["--radus", "5"], "unknown option --radus (did you mean --radius?)"),
            (Commands.export, ["--shape", "hex"], "unknown option --shape for export (it is an option of 'bin')"),
            (
                Commands.export, ["--radius"],
                "option --radius needs a value (R|auto|scott|silverman|arcgis), e.g. --radius 25km"
            ),
            (Commands.export, ["--planar=1"], "option --planar takes no value"),
            (Commands.export, ["--levels", "3", "--levels", "4"], "option --levels given more than once"),
            (
                Commands.export, ["--levels", "ten"],
                "bad value 'ten' for --levels: expected a whole number (e.g. --levels 6)"
            ),
            (
                Commands.export, ["--levels", "0"],
                "bad value '0' for --levels: expected a whole number from 1 to 1000 (e.g. --levels 6)"
            ),
            (
                Commands.export, ["--radius", "-5"],
                "bad value '-5' for --radius: expected a length > 0 (e.g. --radius 25km)"
            ),
            (
                Commands.export, ["--mode", "band"],
                "bad value 'band' for --mode: expected one of bands, levels, isolines; did you mean bands? (e.g. --mode isolines)"
            ),
            (
                Commands.export, ["--opacity", "2"],
                "bad value '2' for --opacity: expected a number from 0 to 1 (e.g. --opacity 0.7)"
            ),
            (
                Commands.export, ["--padding", "nan"],
                "bad value 'nan' for --padding: expected a finite number (e.g. --padding 2)"
            ),
            (Commands.export, ["-o", ""], "bad value '' for --output: expected a file name (e.g. -o storms.geojson)"),
            (Commands.export, ["--lat", " "], "bad value ' ' for --lat: expected a column name (e.g. --lat Latitude)"),
            (
                Commands.export, ["--spacing", "probability:2"],
                "bad value 'probability:2' for --spacing: share 2 is not between 0 and 1 (e.g. --spacing probability:0.5,0.8,0.95)"
            ),
            (
                Commands.grid, ["--format", "x"],
                "bad value 'x' for --format: expected one of json, asc, tiff, tif, geotiff (e.g. --format tiff -o density.tif)"
            ),
            (
                Commands.bin, ["--shape", "x"],
                "bad value 'x' for --shape: expected one of hex, hexagon, square, h3 (e.g. --shape square)"
            ),
            (
                Commands.bin, ["--input-format", "cells"],
                "bad value 'cells' for --input-format: expected one of csv, geojson, json (e.g. --input-format geojson)"
            ),
            (
                Commands.hit, ["c.geojson", "--at", "95,10"],
                "bad value '95,10' for --at: latitude outside [-90, 90] (e.g. --at -20.5,178.2)"
            ),
            (
                Commands.sql, ["--dialect", "x"],
                "bad value 'x' for --dialect: expected one of duckdb, spark, postgres (e.g. --dialect postgres)"
            )
        ]
        for (command, arguments, message) in cases {
            #expect(
                Self.error(command, arguments) == "contours: \(message); see 'contours \(command.name) --help'",
                "\(command.name) \(arguments)")
        }
        // The gradient's own parser names the fault.
        #expect(
            Self.error(Commands.bin, ["--gradient", "x"])?.hasPrefix(
                "contours: bad value for --gradient: invalid gradient 'x'") == true)
        // Unknown options are found before any value is read; values in command-line order.
        #expect(
            Self.error(Commands.export, ["--levels", "ten", "--radus", "5"])?.contains("unknown option --radus") == true
        )
        #expect(
            Self.error(Commands.export, ["--levels", "ten", "--radius", "big"])?.contains("'ten' for --levels") == true)
        // Every value is read, even one the run would not use (a picture's width for GeoJSON).
        #expect(Self.error(Commands.export, ["--width", "10"])?.contains("bad value '10' for --width") == true)
        // --help wins over bad values.
        #expect(try ParsedArguments(["--levels", "ten", "--help"], for: Commands.export).wantsHelp)
    }

    @Test func everyValueOptionRefusesAControlCharacterOrReadsIt() {
        // No reader crashes or throws anything but a refusal, whatever the text.
        let texts = ["", " ", "\u{1b}[2J", "1\n2", "nan", "-inf", "1e308", "-0", "99999999999999999999", "💥"]
        for command in Commands.all {
            for option in command.options {
                guard let read = option.read else { continue }
                for text in texts {
                    for geographic in [true, false] {
                        do {
                            _ = try read(text, ValueContext(geographic: geographic))
                        } catch is ValueRefusal {
                        } catch {
                            Issue.record("\(option.name) '\(text)': \(error)")
                        }
                    }
                }
            }
        }
    }
}
