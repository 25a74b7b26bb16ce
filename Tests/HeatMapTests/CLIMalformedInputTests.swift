import Foundation
import Testing

/// A table of malformed inputs and command lines (docs/faults.md): each gets its exit
/// status and a one-line message naming what and where, never a crash,
/// and leaves no output file behind.
@Suite struct CLIMalformedInputTests {
    struct Case: Sendable, CustomStringConvertible {
        var name: String
        /// File name and content of the input (nil: no input file).
        var file: String?
        var content: [UInt8]?
        /// Arguments after `contours`; INPUT is replaced by the input's path.
        var arguments: [String]
        var status: Int32
        /// Standard error must contain this.
        var message: String
        var description: String { name }

        init(
            _ name: String, _ file: String?, _ content: String?, _ arguments: [String], _ status: Int32,
            _ message: String
        ) {
            self.name = name
            self.file = file
            self.content = content.map { Array($0.utf8) }
            self.arguments = arguments
            self.status = status
            self.message = message
        }

        init(_ name: String, _ file: String, bytes: [UInt8], _ arguments: [String], _ status: Int32, _ message: String)
        {
            self.init(name, file, nil, arguments, status, message)
            content = bytes
        }
    }

    static let export = ["export", "INPUT", "-o", "OUT"]

    static let cases: [Case] = [
        Case(
            "non-number", "t.csv", "lat,lon\n1,2\nabc,3\n", export, 1,
            "contours: t.csv:3:lat: latitude is not a number: \"abc\""),
        Case("NaN", "t.csv", "lat,lon\n1,2\n3,NaN\n", export, 1, "contours: t.csv:3:lon: longitude is NaN"),
        Case("+inf", "t.csv", "lat,lon\ninf,2\n", export, 1, "contours: t.csv:2:lat: latitude is not finite (\"inf\")"),
        Case(
            "-inf weight", "t.csv", "lat,lon,mass\n1,2,-inf\n", export + ["--weight", "mass"], 1,
            "contours: t.csv:2:mass: weight is not finite (\"-inf\")"),
        Case(
            "latitude 95", "t.csv", "lat,lon\n10,20\n95,20\n", export, 1,
            "contours: t.csv:3:lat: latitude 95 is outside [-90, 90]"),
        Case(
            "longitude 400", "t.csv", "lat,lon\n10,400\n", export, 1,
            "contours: t.csv:2:lon: longitude 400 is outside [-180, 360)"),
        Case(
            "negative weight", "t.csv", "lat,lon,w\n1,2,3\n1,2,-2\n", export + ["--weight", "w"], 1,
            "contours: t.csv:3:w: weight -2 is negative"),
        Case(
            "short row", "t.csv", "lat,lon,w\n1,2,3\n4,5\n", export + ["--weight", "w"], 1,
            "contours: t.csv:3:w: short row: 2 fields but the header has 3"),
        Case(
            "too many fields", "t.csv", "lat,lon\n1,2\n3,4,5\n", export, 1,
            "contours: t.csv:3:3: row has 3 fields but the header has 2"),
        Case("empty value", "t.csv", "lat,lon\n1,\n", export, 1, "contours: t.csv:2:lon: longitude is empty"),
        Case(
            "open quote", "t.csv", "lat,lon\n1,2\n\"3,4\n5,6\n", export, 1,
            "contours: t.csv:3:lat: unterminated quoted field"),
        Case(
            "missing lat column", "t.csv", "a,b\n1,2\n", export, 1,
            "contours: t.csv:1:lat: no latitude column: looked for lat, latitude, y"),
        Case(
            "missing weight column", "t.csv", "lat,lon\n1,2\n", export + ["--weight", "mag"], 1,
            "contours: t.csv:1:mag: no column 'mag' for the weight in the header (columns: lat, lon)"),
        Case("empty file", "t.csv", "", export, 1, "contours: t.csv:1:1: empty file"),
        Case(
            "binary noise", "t.csv",
            bytes: [0x50, 0x4B, 0x03, 0x04, 0x14, 0x00, 0x08, 0x00, 0xFF, 0xD8, 0x00, 0x10]
                + Array(repeating: 0xAB, count: 200),
            export, 1, "contours: t.csv:1:1: binary data"),
        Case(
            "NUL in a row", "t.csv", bytes: Array("lat,lon\n1,2\n3,".utf8) + [0] + Array("4\n".utf8), export, 1,
            "contours: t.csv:3:lon: binary data"),
        Case(
            "UTF-16 with a byte-order mark", "t.csv",
            bytes: [0xFF, 0xFE] + Array("lat,lon\n1,2\n".utf16).flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] },
            export, 1, "contours: t.csv:1:1: UTF-16LE text: save it as UTF-8"),
        Case(
            "UTF-16 without a mark", "t.csv",
            bytes: Array("lat,lon\n1,2\n".utf16).flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] },
            export, 1, "contours: t.csv:1:1: UTF-16BE text: save it as UTF-8"),
        Case(
            "truncated GeoJSON", "t.geojson",
            "{\"type\":\"FeatureCollection\",\"features\":[{\"type\":\"Feature\",\"properties\":{},\"geometry\":{\"type\":\"Point\",\"coordinates\":[1,2",
            export, 1, "(truncated JSON?)"),
        Case(
            "non-point GeoJSON", "t.geojson",
            "{\"type\":\"Feature\",\"properties\":{},\"geometry\":{\"type\":\"LineString\",\"coordinates\":[[0,0],[1,1]]}}",
            export, 1, "contours: t.geojson:1:46: expected a Point or MultiPoint geometry, found LineString"),
        Case(
            "invalid JSON", "t.geojson", "{\"type\": Feature}", export, 1,
            "contours: t.geojson:1:10: invalid JSON: unexpected word 'Feature'"),
        Case(
            "GeoJSON latitude 95", "t.geojson", "{\"type\":\"Point\",\"coordinates\":[10,95]}", export, 1,
            "contours: t.geojson:1:35: latitude 95 is outside [-90, 90]"),
        Case(
            "GeoJSON without the weight property", "t.geojson",
            "{\"type\":\"Feature\",\"properties\":{\"a\":1},\"geometry\":{\"type\":\"Point\",\"coordinates\":[1,2]}}",
            export + ["--weight", "mag"], 1, "feature has no property 'mag' for the weight"),
        Case(
            "missing file", nil, nil, ["export", "/nonexistent/points.csv"], 1,
            "contours: /nonexistent/points.csv: cannot open: No such file or directory"),
        Case("folder as input", nil, nil, ["export", "/tmp"], 1, "contours: /tmp: is a directory"),
        Case(
            "unknown option", "t.csv", "lat,lon\n1,2\n", ["export", "INPUT", "--radus", "5"], 2,
            "contours: unknown option --radus (did you mean --radius?); see 'contours export --help'"),
        Case(
            "option of another command", "t.csv", "lat,lon\n1,2\n", ["export", "INPUT", "--shape", "hex"], 2,
            "contours: unknown option --shape for export (it is an option of 'bin'); see 'contours export --help'"),
        Case(
            "unknown command", nil, nil, ["exprot", "x.csv"], 2,
            "contours: unknown command 'exprot' (did you mean 'export'?); see 'contours --help'"),
        Case(
            "levels not a number", "t.csv", "lat,lon\n1,2\n", export + ["--levels", "ten"], 2,
            "contours: bad value 'ten' for --levels: expected a whole number (e.g. --levels 6); see 'contours export --help'"
        ),
        Case(
            "levels zero", "t.csv", "lat,lon\n1,2\n", export + ["--levels", "0"], 2,
            "bad value '0' for --levels: expected a whole number from 1 to 1000"),
        Case(
            "negative radius", "t.csv", "lat,lon\n1,2\n", export + ["--radius", "-5"], 2,
            "bad value '-5' for --radius: expected a length > 0"),
        Case(
            "radius past half the globe", "t.csv", "lat,lon\n1,2\n", export + ["--radius", "30000km"], 2,
            "bad value '30000km' for --radius: a kernel radius on the globe is at most half its circumference (20015 km)"
        ),
        Case(
            "web mercator past its edge", "t.csv", "lat,lon\n86,0\n87,10\n80,5\n",
            export + ["--projection", "web-mercator"], 1,
            "points lie at or beyond latitude ±85.05112877980659°, the edge of the web-mercator projection"),
        Case(
            "raw values of a mean", "t.csv", "lat,lon,v\n1,2,3\n", export + ["--value", "v", "--kernel-values", "raw"],
            2,
            "--kernel-values raw has nothing to change with --value"),
        Case(
            "radius word", "t.csv", "lat,lon\n1,2\n", export + ["--radius", "big"], 2,
            "bad value 'big' for --radius: expected a length (metres, or planar units) or auto, scott, silverman"),
        Case(
            "spacing typo", "t.csv", "lat,lon\n1,2\n", export + ["--spacing", "quantil"], 2,
            "did you mean quantile?"),
        Case(
            "probability share 1.5", "t.csv", "lat,lon\n1,2\n", export + ["--spacing", "probability:0.5,1.5"], 2,
            "share 1.5 is not between 0 and 1"),
        Case(
            "custom not numbers", "t.csv", "lat,lon\n1,2\n", export + ["--spacing", "custom:1,x"], 2,
            "'x' is not a finite number"),
        Case(
            "smooth passes", "t.csv", "lat,lon\n1,2\n", export + ["--smooth", "chaikin:20"], 2, "passes must be 0...8"),
        Case(
            "mode typo", "t.csv", "lat,lon\n1,2\n", export + ["--mode", "band"], 2,
            "bad value 'band' for --mode: expected one of bands, levels, isolines; did you mean bands?"),
        Case(
            "precision", "t.csv", "lat,lon\n1,2\n", export + ["--precision", "40"], 2,
            "expected a whole number from 0 to 15"),
        Case(
            "value missing", "t.csv", "lat,lon\n1,2\n", ["export", "INPUT", "--radius"], 2,
            "option --radius needs a value (R|auto|scott|silverman|arcgis), e.g. --radius 25km"),
        Case(
            "flag with a value", "t.csv", "lat,lon\n1,2\n", ["export", "INPUT", "--planar=yes"], 2,
            "option --planar takes no value"),
        Case(
            "planar and a projection", "t.csv", "lat,lon\n1,2\n", export + ["--planar", "--projection", "web-mercator"],
            2,
            "--planar contradicts --projection web-mercator"),
        Case(
            "repeated option", "t.csv", "lat,lon\n1,2\n", export + ["--levels", "3", "--levels", "4"], 2,
            "option --levels given more than once"),
        Case(
            "two inputs", "t.csv", "lat,lon\n1,2\n", export + ["other.csv"], 2,
            "unexpected operand 'other.csv' (one INPUT at a time)"),
        Case(
            "bad --at", "t.geojson", "{\"type\":\"FeatureCollection\",\"features\":[]}",
            ["hit", "INPUT", "--at", "95,10"], 2,
            "bad value '95,10' for --at: latitude outside [-90, 90]"),
        Case("header only", "t.csv", "lat,lon\n", export, 0, "contours: t.csv: no data rows; the result is empty"),
        // No point to adapt to: the same empty result as without --adaptive
        // (the pilot's empty sums were taken for an overflow).
        Case(
            "header only, adaptive", "t.csv", "lat,lon\n", export + ["--adaptive"], 0,
            "contours: t.csv: no data rows; the result is empty"),
        Case(
            "no weight, adaptive", "t.csv", "lat,lon,w\n1,2,0\n3,4,0\n",
            export + ["--weight", "w", "--adaptive", "--kernel", "quartic"], 0,
            "all 2 weights are zero; the density is zero everywhere and there are no contours")
    ]

    @Test(arguments: cases)
    func malformedInput(_ c: Case) throws {
        let folder = try ScratchFolder()
        if let file = c.file { try folder.write(file, c.content ?? []) }
        // An earlier good result must survive a failed run untouched.
        try folder.write("out.geojson", "previous")
        let arguments = c.arguments.map { $0 == "INPUT" ? c.file ?? "" : ($0 == "OUT" ? "out.geojson" : $0) }
        let run = try Tool.run(arguments, temporary: folder.path, directory: folder.path)
        #expect(!run.signalled, "crashed: \(run.stderr)")
        #expect(run.status == c.status, "\(c.name): \(run.stderr)")
        #expect(run.stderr.contains(c.message), "\(c.name): \(run.stderr)")
        if c.status != 0 {
            #expect(run.stderrLines.count == 1, "\(c.name): \(run.stderr)")
            #expect(run.stdout.isEmpty)
            #expect(folder.read("out.geojson") == "previous")
        }
        // No temporary file is left: only the input and the output.
        let expected = Set([c.file, "out.geojson"].compactMap { $0 })
        #expect(Set(folder.contents()) == expected, "\(c.name): left \(folder.contents())")
    }
}
