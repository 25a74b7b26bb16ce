import HeatMap

/// The texts of `--help` and `--version`.
enum Help {
    static let version = "contours 0.1.0 (HeatMap for Linux)"

    static var tool: String {
        let commands = Commands.all.map {
            "  " + $0.name.padding(toLength: 8, withPad: " ", startingAt: 0) + $0.summary
        }
        let latitudes = PointColumns.latitudeNames.joined(separator: "/")
        let longitudes = PointColumns.longitudeNames.joined(separator: "/")
        return """
            contours: kernel-density contour heat maps and hexagon bins from points.

            Usage: contours <command> [INPUT] [options]

            Commands:
            \(commands.joined(separator: "\n"))

            INPUT is a CSV file with a header row (comma, semicolon or tab separated; quoted fields)
            or GeoJSON with Point or MultiPoint features, chosen by extension or content; '-' or no
            INPUT reads standard input. Columns: \(latitudes) and \(longitudes) by
            default (--lat, --lon), --weight for weights, --value to map a measured value's mean.

            Options:
              -h, --help     Show this help; 'contours <command> --help' shows a command's options.
              --version      Show the version.

            Exit status: 0 done, 1 bad input data or a failure (one line on standard error naming
            FILE:LINE:COLUMN), 2 bad command line, 130 interrupted (Ctrl-C; no partial output).

            Examples:
              contours export storms.csv --weight wind -o storms.geojson
              contours export snow_deaths.csv --planar --format svg -o snow.svg
              contours info airports.csv
              contours hit storms.geojson --at 25.8,-80.2

            """
    }

    static func command(_ c: CommandSpec) -> String {
        var s = "contours \(c.name): \(c.summary)\n\nUsage: \(c.synopsis)\n\n\(c.details)\n\nOptions:\n"
        for o in c.options {
            var head = "  " + (o.short.map { "\($0), " } ?? "") + o.name
            if let v = o.value { head += " \(v)" }
            if o.repeatable { head += " (repeatable)" }
            s += head + "\n"
            s += wrap(o.helpText, indent: 6) + "\n"
            if o.name != "--help" { s += "      e.g. \(o.example)\n" }
        }
        s += "\nExamples:\n" + c.examples.map { "  \($0)\n" }.joined()
        return s
    }

    /// Wraps text to 100 columns with the given indent.
    static func wrap(_ text: String, indent: Int) -> String {
        let pad = String(repeating: " ", count: indent)
        var lines: [String] = []
        var line = pad
        for word in text.split(separator: " ") {
            if line.count + word.count + 1 > 100 && line.count > indent {
                lines.append(line)
                line = pad
            }
            line += (line.count > indent ? " " : "") + word
        }
        lines.append(line)
        return lines.joined(separator: "\n")
    }
}
