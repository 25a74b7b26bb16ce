import Foundation
import Testing

/// End-to-end runs of the built `contours` tool on small fixtures: help,
/// grids with known values, stdin, skipped rows, degenerate inputs,
/// atomic output, hit testing, progress and Ctrl-C.
@Suite struct CLITests {
    @Test func helpDocumentsEveryCommandAndOptionWithAnExample() throws {
        let top = try Tool.run(["--help"])
        #expect(top.status == 0)
        for command in ["export", "grid", "bin", "hit", "info"] {
            #expect(top.stdout.contains("  \(command) "), "\(command) missing from --help")
            let help = try Tool.run([command, "--help"])
            #expect(help.status == 0)
            #expect(help.stdout.hasPrefix("contours \(command): "))
            #expect(help.stdout.contains("Examples:\n  contours \(command) "))
            let options = help.stdout.split(separator: "\n").filter { $0.hasPrefix("  -") }
            let examples = help.stdout.split(separator: "\n").filter { $0.hasPrefix("      e.g. ") }
            // Every option but --help carries an example.
            #expect(options.count >= 4)
            #expect(examples.count == options.count - 1, "\(command)")
            #expect(try Tool.run(["help", command]).stdout == help.stdout)
        }
        let export = try Tool.run(["export", "-h"]).stdout
        for option in [
            "--lat", "--lon", "--weight", "--value", "--planar", "--input-format", "--skip-invalid",
            "--radius", "--resolution", "--padding", "--projection", "--levels", "--spacing", "--smooth",
            "--mode", "--feature", "--precision", "--format", "-o, --output", "--progress"
        ] {
            #expect(
                export.contains("\n  \(option) ") || export.contains("\n  \(option)\n"), "export --help lacks \(option)"
            )
        }
        let version = try Tool.run(["--version"])
        #expect(version.status == 0)
        #expect(version.stdout.hasPrefix("contours "))
        let none = try Tool.run([])
        #expect(none.status == 2)
        #expect(none.stderr == "contours: no command given; see 'contours --help'\n")
    }

    /// Without --format, the -o file's extension names the format (in any
    /// case), as GDAL's tools pick a driver; --format, when given, wins;
    /// an extension no format has keeps the default.
    @Test func theOutputsExtensionNamesItsFormat() throws {
        let folder = try ScratchFolder()
        try folder.write("p.csv", "x,y\n0,0\n1,2\n3,1\n2,2\n")
        func written(_ command: String, _ file: String, _ more: [String] = []) throws -> [UInt8] {
            let run = try Tool.run(
                [command, "p.csv", "--planar", "-o", file] + (command == "bin" ? [] : ["--radius", "2"]) + more,
                directory: folder.path)
            #expect(run.status == 0, "\(command) -o \(file): \(run.stderr)")
            return Array(try Data(contentsOf: folder.url.appendingPathComponent(file)))
        }
        func starts(_ bytes: [UInt8], _ text: String) -> Bool { bytes.starts(with: Array(text.utf8)) }
        #expect(starts(try written("export", "map.svg"), "<?xml"))
        #expect(starts(try written("export", "MAP.HTML"), "<!DOCTYPE html>"))
        #expect(starts(try written("export", "bands.json"), "{\"type\":\"FeatureCollection\""))
        #expect(starts(try written("export", "bands.data"), "{\"type\":\"FeatureCollection\""))
        #expect(starts(try written("export", "forced.svg", ["--format", "geojson"]), "{\"type\""))
        // A little-endian TIFF, an ESRI grid, a JSON grid.
        #expect(try written("grid", "density.tif").prefix(4) == [0x49, 0x49, 0x2A, 0x00])
        #expect(starts(try written("grid", "density.asc"), "ncols"))
        #expect(starts(try written("grid", "density.json"), "{\"columns\""))
        #expect(starts(try written("bin", "bins.csv", ["--size", "1"]), "q,r,x,y,count,value"))
    }

    /// One planar point of weight 2 at the origin, radius 3 (σ = 1): the
    /// padded box is [-4.5, 4.5]², nine cells of 1, nodes at -4…4.
    @Test func gridJSONHoldsTheExactKernel() throws {
        let folder = try ScratchFolder()
        try folder.write("one.csv", "x,y,w\n0,0,2\n")
        let run = try Tool.run(
            ["grid", "one.csv", "--planar", "--radius", "3", "--resolution", "9", "--weight", "w"],
            directory: folder.path)
        #expect(run.status == 0, "\(run.stderr)")
        let grid = try run.json()
        #expect(grid["columns"] as? Int == 9 && grid["rows"] as? Int == 9)
        #expect(grid["x0"] as? Double == -4 && grid["y0"] as? Double == -4)
        #expect(grid["dx"] as? Double == 1 && grid["dy"] as? Double == 1)
        #expect(grid["units"] as? String == "per square unit")
        let values = try #require(grid["values"] as? [Double])
        #expect(values.count == 81)
        var worst = 0.0
        for k in 0..<81 {
            let x = Double(k % 9) - 4, y = Double(k / 9) - 4
            let exact = 2 * exp(-(x * x + y * y) / 2) / (2 * Double.pi)
            worst = max(worst, abs(values[k] - exact))
        }
        #expect(worst <= 1e-3 * 2 / (2 * Double.pi))
        #expect(abs(values[40] - 1 / Double.pi) < 1e-9)
        #expect(run.stderr.contains("only one point"))

        let asc = try Tool.run(
            ["grid", "one.csv", "--planar", "--radius", "3", "--resolution", "9", "--format", "asc"],
            directory: folder.path)
        let lines = asc.stdout.split(separator: "\n")
        #expect(
            lines.prefix(6) == [
                "ncols 9", "nrows 9", "xllcenter -4", "yllcenter -4", "cellsize 1", "NODATA_value -9999"
            ])
        #expect(lines.count == 6 + 9)
    }

    @Test func standardInputGivesTheSameGridAsTheFile() throws {
        let folder = try ScratchFolder()
        var csv = "lat;lon;mag\r\n"
        for i in 0..<500 { csv += "\(-20 - Double(i % 17) * 0.1);\(179.5 + Double(i % 23) * 0.05);\(1 + i % 3)\r\n" }
        let path = try folder.write("q.csv", csv)
        let arguments = ["grid", "--weight", "mag", "--radius", "20km", "--resolution", "50"]
        let fromFile = try Tool.run(arguments + [path])
        let fromPipe = try Tool.run(arguments + ["-"], input: Array(csv.utf8), temporary: folder.path)
        let implicit = try Tool.run(arguments, stdin: path)
        #expect(fromFile.status == 0 && fromPipe.status == 0 && implicit.status == 0, "\(fromPipe.stderr)")
        #expect(!fromFile.stdout.isEmpty)
        #expect(fromPipe.stdout == fromFile.stdout)
        #expect(implicit.stdout == fromFile.stdout)
        // The spool of standard input leaves nothing in TMPDIR.
        #expect(folder.contents() == ["q.csv"])
        // Longitudes past 180 are one cluster around the antimeridian.
        let grid = try fromFile.json()
        let projection = try #require(grid["projection"] as? [String: Any])
        #expect(abs((projection["centre_longitude"] as? Double ?? 0) - (-179.95)) < 1e-9)
    }

    @Test func skipInvalidReportsHowManyAndWhy() throws {
        let folder = try ScratchFolder()
        try folder.write("p.csv", "lat,lon,w\n1,2,1\n95,2,1\n1,x,1\n2,3,-1\n96,1,1\n3,4,2\n")
        let strict = try Tool.run(["info", "p.csv", "--weight", "w"], directory: folder.path)
        #expect(strict.status == 1)
        #expect(strict.stderr == "contours: p.csv:3:lat: latitude 95 is outside [-90, 90]\n")
        let run = try Tool.run(
            ["info", "p.csv", "--weight", "w", "--skip-invalid", "--format", "json"], directory: folder.path)
        #expect(run.status == 0)
        #expect(
            run.stderrLines == [
                "contours: skipped 4 of 6 rows (--skip-invalid):",
                "contours:   2 × latitude outside [-90, 90]; first: p.csv:3:lat: latitude 95 is outside [-90, 90]",
                "contours:   1 × longitude is not a number; first: p.csv:4:lon: longitude is not a number: \"x\"",
                "contours:   1 × weight is negative; first: p.csv:5:w: weight -1 is negative"
            ])
        let info = try run.json()
        #expect(info["points"] as? Int == 2)
        #expect(info["rows"] as? Int == 6)
        #expect(info["total_weight"] as? Double == 3)
        let rejected = try #require(info["rejected"] as? [String: Int])
        #expect(rejected == ["latitude outside [-90, 90]": 2, "longitude is not a number": 1, "weight is negative": 1])
        #expect(info["bbox"] as? [Double] == [2, 1, 4, 3])
    }

    @Test func degenerateInputsGiveAMessageAndAValidResult() throws {
        let folder = try ScratchFolder()
        let cases: [(String, String, String)] = [
            ("one.csv", "lat,lon\n-41.3,174.8\n", "only one point; the map is a single kernel around it"),
            ("same.csv", "lat,lon\n-41.3,174.8\n-41.3,174.8\n-41.3,174.8\n", "all 3 points are at the same place"),
            ("zero.csv", "lat,lon,w\n1,2,0\n3,4,0\n", "all 2 weights are zero"),
            ("none.csv", "lat,lon\n", "no data rows; the result is empty"),
            ("skipped.csv", "lat,lon\n95,1\n", "no usable points (all 1 rows skipped); the result is empty")
        ]
        for (name, text, message) in cases {
            try folder.write(name, text)
            let weight = name == "zero.csv" ? ["--weight", "w"] : []
            let run = try Tool.run(["export", name, "--skip-invalid"] + weight, directory: folder.path)
            #expect(run.status == 0, "\(name): \(run.stderr)")
            #expect(run.stderr.contains(message), "\(name): \(run.stderr)")
            let document = try run.json()
            #expect(document["type"] as? String == "FeatureCollection")
            #expect(document["features"] is [Any])
        }
    }

    /// A given radius whose σ is under half a cell gets one line naming
    /// the resolution that resolves it, and that resolution gets none:
    /// 11 points along x from 0 to 100 (the box's longer side L = 100),
    /// radius 3 (σ 1) on the default padding of 1.5 radii: the resolution
    /// is L × 3 / (2 × 3) + 3 × 1.5 = 54.5, so 55.
    @Test func aRadiusUnderHalfACellIsNamedWithTheResolutionThatResolvesIt() throws {
        let folder = try ScratchFolder()
        let rows = (0...10).map { "\(10 * $0),\($0 % 3)" }.joined(separator: "\n")
        try folder.write("line.csv", "x,y\n" + rows + "\n")
        func note(_ extra: [String]) throws -> [String] {
            let run = try Tool.run(
                ["grid", "line.csv", "--planar", "-o", "/dev/null"] + extra, directory: folder.path)
            #expect(run.status == 0, "\(extra): \(run.stderr)")
            return run.stderrLines.filter { $0.contains("under half a grid cell") }
        }
        let coarse = try note(["--radius", "3", "--resolution", "54"])
        #expect(coarse.count == 1)
        let prefix = "contours: the radius 3 units (sigma 1 units) is under half a grid cell"
        #expect(coarse.first?.hasPrefix(prefix) == true)
        #expect(coarse.first?.hasSuffix("--resolution 55 or more, or a wider --radius, resolves it") == true)
        #expect(try note(["--radius", "3", "--resolution", "55"]).isEmpty)
        // A finite kernel's σ per axis: quartic R / √8, so 100 × √8 / 6 + 4.5 = 51.6.
        let quartic = try note(["--radius", "3", "--resolution", "51", "--kernel", "quartic"])
        #expect(quartic.first?.hasSuffix("--resolution 52 or more, or a wider --radius, resolves it") == true)
        #expect(try note(["--radius", "3", "--resolution", "52", "--kernel", "quartic"]).isEmpty)
        // The auto radius is raised to the floor, never under it.
        #expect(try note(["--resolution", "20"]).isEmpty)
    }

    /// Tiles whose every zoom's nodes miss the kernels (a 500 m radius
    /// seen at zoom 3, nodes 20 km apart): the archive is written, empty,
    /// and one line says why; a zoom that reaches them writes tiles, no line.
    @Test func anEmptyArchiveIsNamed() throws {
        let folder = try ScratchFolder()
        try folder.write("p.csv", "lat,lon\n10,20\n10.001,20.002\n10.002,20.001\n")
        let shallow = try Tool.run(
            ["tiles", "p.csv", "--radius", "500", "--max-zoom", "3", "-o", "a.pmtiles"], directory: folder.path)
        #expect(shallow.status == 0, "\(shallow.stderr)")
        #expect(shallow.stderrLines.count == 1)
        #expect(shallow.stderr.contains("no tile holds a band at zooms 3-3"), "\(shallow.stderr)")
        #expect(folder.contents().contains("a.pmtiles"))
        let deep = try Tool.run(["tiles", "p.csv", "--radius", "500", "-o", "b.pmtiles"], directory: folder.path)
        #expect(deep.status == 0 && deep.stderr.isEmpty, "\(deep.stderr)")
    }

    /// Points over the whole globe: the equal-area grid holds no density
    /// in a cap round the antipode of its centre (the plane's rim); one
    /// line says how much of the weight that cost, and where; data far
    /// from the antipode get none.
    @Test func weightLostAtThePlanesRimIsNamed() throws {
        let folder = try ScratchFolder()
        // 600 points spread evenly over the sphere (a Fibonacci lattice).
        let golden = Double.pi * (3 - 5.0.squareRoot())
        let rows = (0..<600).map { k -> String in
            let z = 1 - 2 * (Double(k) + 0.5) / 600
            let lon = (Double(k) * golden).truncatingRemainder(dividingBy: 2 * Double.pi) * 180 / Double.pi - 180
            return "\(asin(z) * 180 / Double.pi),\(lon)"
        }
        try folder.write("globe.csv", "lat,lon\n" + rows.joined(separator: "\n") + "\n")
        let coarse = try Tool.run(
            ["grid", "globe.csv", "--radius", "800km", "--resolution", "150", "-o", "/dev/null"], directory: folder.path
        )
        #expect(coarse.status == 0)
        let line = try #require(coarse.stderrLines.first { $0.contains("of the weight") }, "\(coarse.stderr)")
        #expect(line.hasPrefix("contours: the grid holds "))
        #expect(line.contains("(the antipode of the equal-area plane's centre, its rim) it holds no density"))
        // The northern third: the antipode of its centre is far from every point.
        try folder.write("north.csv", "lat,lon\n" + rows.prefix(200).joined(separator: "\n") + "\n")
        let north = try Tool.run(
            ["grid", "north.csv", "--radius", "800km", "--resolution", "150", "-o", "/dev/null"], directory: folder.path
        )
        #expect(north.status == 0 && !north.stderr.contains("of the weight"), "\(north.stderr)")
    }

    @Test func outputIsWrittenWholeThroughATemporaryFile() throws {
        let folder = try ScratchFolder()
        try folder.write("p.csv", "lat,lon\n-41.3,174.8\n-41.2,174.9\n-41.25,174.7\n")
        let run = try Tool.run(["export", "p.csv", "-o", "out/x.geojson"], directory: folder.path)
        #expect(run.status == 1)
        #expect(run.stderr.hasPrefix("contours: cannot write out/x.geojson: there is no folder"))
        #expect(folder.contents() == ["p.csv"])
        let good = try Tool.run(["grid", "p.csv", "-o", "grid.json"], directory: folder.path)
        #expect(good.status == 0)
        #expect(good.stdout.isEmpty)
        #expect(folder.contents() == ["grid.json", "p.csv"])
        let grid = try JSONSerialization.jsonObject(with: Data((folder.read("grid.json") ?? "").utf8)) as? [String: Any]
        #expect(grid?["columns"] is Int)
        let attributes = try FileManager.default.attributesOfItem(atPath: folder.file("grid.json"))
        #expect((attributes[.posixPermissions] as? Int ?? 0) & 0o044 != 0, "output should be readable like any file")
        // A device is written in place, never replaced by a renamed file.
        let null = try Tool.run(["grid", "p.csv", "-o", "/dev/null"], directory: folder.path)
        #expect(null.status == 0)
        let device = try FileManager.default.attributesOfItem(atPath: "/dev/null")
        #expect(device[.type] as? FileAttributeType == .typeCharacterSpecial)
    }

    /// Two square bands with a hole, and a band split at the antimeridian.
    static let contourFile = """
        {"type":"FeatureCollection","features":[
        {"type":"Feature","properties":{"level":0,"threshold":0.5,"upper":2,"units":"per km²"},"geometry":{"type":"MultiPolygon","coordinates":[
          [[[0,0],[4,0],[4,4],[0,4],[0,0]],[[1,1],[1,3],[3,3],[3,1],[1,1]]],
          [[[179,-10],[180,-10],[180,-8],[179,-8],[179,-10]]],
          [[[-180,-10],[-179,-10],[-179,-8],[-180,-8],[-180,-10]]]]}},
        {"type":"Feature","properties":{"level":1,"threshold":2,"upper":null,"units":"per km²"},"geometry":{"type":"Polygon","coordinates":[
          [[1,1],[3,1],[3,3],[1,3],[1,1]]]}}
        ]}
        """

    @Test func hitAnswersOneJSONLinePerQuery() throws {
        let folder = try ScratchFolder()
        try folder.write("c.geojson", Self.contourFile)
        let run = try Tool.run(
            [
                "hit", "c.geojson", "--at", "0.5,0.5", "--at", "2,2", "--at", "10,10",
                "--at", "-9,179.5", "--at", "-9,-179.5", "--at", "-9,180.5"
            ], directory: folder.path)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(
            run.stdout.split(separator: "\n") == [
                #"{"lat":0.5,"lon":0.5,"level":0,"threshold":0.5,"upper":2}"#,
                #"{"lat":2,"lon":2,"level":1,"threshold":2,"upper":null}"#,
                #"{"lat":10,"lon":10,"level":null,"threshold":null,"upper":null}"#,
                #"{"lat":-9,"lon":179.5,"level":0,"threshold":0.5,"upper":2}"#,
                #"{"lat":-9,"lon":-179.5,"level":0,"threshold":0.5,"upper":2}"#,
                #"{"lat":-9,"lon":180.5,"level":0,"threshold":0.5,"upper":2}"#
            ])
        // Queries from standard input, read like any input.
        let piped = try Tool.run(
            ["hit", "c.geojson"], input: Array("latitude;longitude\n3,5;\n2;2\n".utf8),
            directory: folder.path)
        #expect(piped.status == 1)
        #expect(piped.stderr == "contours: stdin:2:longitude: longitude is empty\n")
        let good = try Tool.run(
            ["hit", "c.geojson", "-"], input: Array("y,x\n3.5,3.5\n2,2\n".utf8), directory: folder.path)
        #expect(good.stdout.split(separator: "\n").map { $0.contains("\"level\":0") } == [true, false])
        #expect(good.stdout.split(separator: "\n").map { $0.contains("\"level\":1") } == [false, true])
    }

    /// ±180° is one meridian on both edges of a contour file: a point on it
    /// is in the upper of the bands the two edges give, whichever sign its
    /// longitude has (band 1 reaches 180° only on the east edge here).
    @Test func hitOnTheAntimeridianTakesTheUpperBandOfBothEdges() throws {
        let folder = try ScratchFolder()
        try folder.write(
            "am.geojson",
            """
            {"type":"FeatureCollection","features":[
            {"type":"Feature","properties":{"level":0,"threshold":1,"upper":2},"geometry":{"type":"MultiPolygon","coordinates":[
              [[[170,-10],[180,-10],[180,-5],[175,-5],[175,5],[180,5],[180,10],[170,10],[170,-10]]],
              [[[-180,-10],[-170,-10],[-170,10],[-180,10],[-180,-10]]]]}},
            {"type":"Feature","properties":{"level":1,"threshold":2,"upper":null},"geometry":{"type":"Polygon","coordinates":[
              [[175,-5],[180,-5],[180,5],[175,5],[175,-5]]]}}
            ]}
            """)
        let run = try Tool.run(
            ["hit", "am.geojson", "--at", "0,180", "--at", "0,-180", "--at", "8,180", "--at", "0,-179.9"],
            directory: folder.path)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(
            run.stdout.split(separator: "\n").map { $0.contains("\"level\":1") } == [true, true, false, false])
        #expect(run.stdout.split(separator: "\n").map { $0.contains("\"level\":0") } == [false, false, true, true])
    }

    @Test func progressGoesToStandardErrorOnlyWhenAsked() throws {
        let folder = try ScratchFolder()
        try folder.write("p.csv", "lat,lon\n-41.3,174.8\n-41.2,174.9\n-41.25,174.7\n")
        let quiet = try Tool.run(["grid", "p.csv"], directory: folder.path)
        #expect(quiet.stderr.isEmpty)
        let loud = try Tool.run(["grid", "p.csv", "--progress"], directory: folder.path)
        #expect(loud.status == 0)
        let stages = loud.stderrLines.compactMap { $0.split(separator: " ").dropFirst().first.map(String.init) }
        #expect(stages.first == "read")
        for stage in ["read", "project", "density", "export"] { #expect(stages.contains(stage), "\(stage)") }
        #expect(loud.stdout == quiet.stdout)
    }

    @Test func ctrlCStopsAtOnceWithStatus130AndNoFiles() throws {
        let executable = try #require(Tool.executable)
        let folder = try ScratchFolder()
        let process = Process()
        process.executableURL = executable
        process.arguments = ["export", "-", "-o", folder.file("out.geojson")]
        var environment = ProcessInfo.processInfo.environment
        environment["TMPDIR"] = folder.path
        process.environment = environment
        let input = Pipe()
        process.standardInput = input
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Half a file: the tool is now spooling standard input and waits for more.
        try input.fileHandleForWriting.write(contentsOf: Data("lat,lon\n1,2\n3,4\n".utf8))
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            let wchan = (try? String(contentsOfFile: "/proc/\(process.processIdentifier)/wchan", encoding: .utf8)) ?? ""
            if wchan.contains("pipe") { break }
            usleep(10_000)
        }
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        try? input.fileHandleForWriting.close()
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 130)
        #expect(folder.contents().isEmpty, "left \(folder.contents())")
    }

    /// Two clusters near Wellington, as CSV.
    static let clusters: String = {
        var text = "lat,lon,w\n"
        for i in 0..<300 {
            let a = Double(i % 17) / 17 * 2 * Double.pi, r = 0.002 + Double(i % 11) * 0.0015
            let centre = i % 3 == 0 ? (-41.29, 174.78) : (-41.22, 174.90)
            text += "\(centre.0 + r * sin(a)),\(centre.1 + r * cos(a)),\(1 + i % 4)\n"
        }
        return text
    }()

    @Test func exportWritesBandsWithTheirProperties() throws {
        let folder = try ScratchFolder()
        try folder.write("c.csv", Self.clusters)
        let run = try Tool.run(
            [
                "export", "c.csv", "--weight", "w", "--radius", "1500", "--levels", "5",
                "--spacing", "linear"
            ], directory: folder.path)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.isEmpty)
        let document = try run.json()
        #expect(document["type"] as? String == "FeatureCollection")
        let bbox = try #require(document["bbox"] as? [Double])
        #expect(bbox.count == 4 && bbox[0] > 174.7 && bbox[2] < 175 && bbox[1] > -41.4 && bbox[3] < -41.1)
        let features = try #require(document["features"] as? [[String: Any]])
        #expect(features.count == 5)
        var previous = -Double.infinity
        for (k, feature) in features.enumerated() {
            let properties = try #require(feature["properties"] as? [String: Any])
            #expect(properties["level"] as? Int == k)
            let threshold = try #require(properties["threshold"] as? Double)
            #expect(threshold > previous)
            previous = threshold
            #expect(properties["units"] as? String == "per km²")
            #expect((properties["fill"] as? String)?.hasPrefix("#") == true)
            if k == features.count - 1 {
                #expect(properties["upper"] is NSNull)
            } else {
                #expect(properties["upper"] is Double)
            }
            let geometry = try #require(feature["geometry"] as? [String: Any])
            let type = try #require(geometry["type"] as? String)
            #expect(type == "Polygon" || type == "MultiPolygon")
        }
        // One feature per polygon, lines, and pictures of the same contours.
        let polygons = try Tool.run(
            ["export", "c.csv", "--radius", "1500", "--feature", "polygon"], directory: folder.path)
        let types = try #require(try polygons.json()["features"] as? [[String: Any]])
            .compactMap { ($0["geometry"] as? [String: Any])?["type"] as? String }
        #expect(!types.isEmpty && types.allSatisfy { $0 == "Polygon" })
        let lines = try Tool.run(["export", "c.csv", "--radius", "1500", "--mode", "isolines"], directory: folder.path)
        let lineTypes = try #require(try lines.json()["features"] as? [[String: Any]])
            .compactMap { ($0["geometry"] as? [String: Any])?["type"] as? String }
        #expect(!lineTypes.isEmpty && lineTypes.allSatisfy { $0.hasSuffix("LineString") })
        let svg = try Tool.run(
            ["export", "c.csv", "--radius", "1500", "--format", "svg", "--title", "<b>&</b>"],
            directory: folder.path)
        #expect(svg.status == 0)
        #expect(svg.stdout.contains("<svg") && svg.stdout.contains("data-level=\"0\""))
        #expect(svg.stdout.contains("&lt;b&gt;&amp;&lt;/b&gt;") && !svg.stdout.contains("<b>&</b>"))
        let html = try Tool.run(["export", "c.csv", "--radius", "1500", "--format", "html"], directory: folder.path)
        #expect(html.stdout.lowercased().hasPrefix("<!doctype html>"))

        // hit reads the export back: the cluster centre is in the top band.
        try folder.write("c.geojson", run.stdout)
        let hit = try Tool.run(["hit", "c.geojson", "--at", "-41.22,174.90", "--at", "-40,170"], directory: folder.path)
        let answers = hit.stdout.split(separator: "\n")
        #expect(answers.count == 2)
        #expect(answers.first?.contains("\"level\":4,") == true)
        #expect(answers.last?.contains("\"level\":null") == true)
    }

    @Test func binCountsEveryPoint() throws {
        let folder = try ScratchFolder()
        try folder.write("c.csv", Self.clusters)
        let csv = try Tool.run(["bin", "c.csv", "--size", "2", "--format", "csv"], directory: folder.path)
        #expect(csv.status == 0, "\(csv.stderr)")
        let rows = csv.stdout.split(separator: "\n")
        #expect(rows.first == "q,r,x,y,count,value")
        let counts = rows.dropFirst().compactMap { Int($0.split(separator: ",")[4]) }
        #expect(counts.reduce(0, +) == 300)
        let squares = try Tool.run(
            [
                "bin", "c.csv", "--shape", "square", "--size", "1500m", "--format", "csv",
                "--value", "w", "--aggregate", "sum"
            ], directory: folder.path)
        let squareRows = squares.stdout.split(separator: "\n")
        #expect(squareRows.first == "i,j,x,y,count,value")
        let sums = squareRows.dropFirst().compactMap { Double($0.split(separator: ",")[5]) }
        #expect(sums.reduce(0, +) == 750)
        let geojson = try Tool.run(["bin", "c.csv", "--size", "2"], directory: folder.path)
        let features = try #require(try geojson.json()["features"] as? [[String: Any]])
        #expect(features.count == rows.count - 1)
        let defaulted = try Tool.run(["bin", "c.csv", "--format", "csv"], directory: folder.path)
        #expect(defaulted.stderr.contains("(from the data; set it with --size)"))
    }

    /// The shared data sets, with the options a new user would start with.
    @Test(arguments: [
        ("storms.csv", ["--weight", "wind"]), ("airports.csv", []), ("ames.csv", ["--value", "Sale_Price"]),
        ("snow_deaths.csv", ["--planar"]), ("quakes_fiji.csv", []), ("quakes_fiji.csv", ["0-360"])
    ])
    func realDataExportsWithDefaults(file: String, options: [String]) throws {
        let data = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Samples/data/\(file)")
        var path = data.path
        let folder = try ScratchFolder()
        var options = options
        if options == ["0-360"] {
            // The same quakes with longitudes in 0...360, as some catalogues write them.
            options = []
            let text = try String(contentsOf: data, encoding: .utf8)
            let shifted = text.split(separator: "\n").enumerated().map { k, line -> String in
                var fields = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
                if k > 0, fields.count > 1, let lon = Double(fields[1]), lon < 0 { fields[1] = "\(lon + 360)" }
                return fields.joined(separator: ",")
            }
            path = try folder.write("quakes_0_360.csv", shifted.joined(separator: "\n") + "\n")
        }
        let run = try Tool.run(["export", path] + options)
        #expect(run.status == 0, "\(file): \(run.stderr)")
        #expect(run.stderr.isEmpty, "\(file): \(run.stderr)")
        let features = try #require(try run.json()["features"] as? [[String: Any]])
        #expect(features.count == 10, "\(file)")
        for feature in features {
            let g = feature["geometry"] as? [String: Any]
            for part in (g?["coordinates"] as? [[[[Double]]]]) ?? [] {
                let lons = part[0].map { $0[0] }
                // No part wraps the long way round the globe (airports cross ±180°).
                #expect((lons.max() ?? 0) - (lons.min() ?? 0) <= 180, "\(file)")
            }
        }
    }

    @Test func geoJSONOnStandardInputAndForcedFormats() throws {
        let folder = try ScratchFolder()
        var features: [String] = []
        for line in Self.clusters.split(separator: "\n").dropFirst() {
            let f = line.split(separator: ",")
            features.append(
                "{\"type\":\"Feature\",\"properties\":{\"mag\":\(f[2])},"
                    + "\"geometry\":{\"type\":\"Point\",\"coordinates\":[\(f[1]),\(f[0])]}}")
        }
        let geojson = "{\"type\":\"FeatureCollection\",\"features\":[\n" + features.joined(separator: ",\n") + "\n]}\n"
        let piped = try Tool.run(
            ["info", "--weight", "mag", "--format", "json", "--radius", "1500"],
            input: Array(geojson.utf8), temporary: folder.path)
        #expect(piped.status == 0, "\(piped.stderr)")
        let info = try piped.json()
        #expect(info["format"] as? String == "geojson")
        #expect(info["points"] as? Int == 300)
        #expect(info["total_weight"] as? Double == 750)
        #expect((info["thresholds"] as? [Double])?.count == 10)
        // The same points as CSV in a file named .json: --input-format says what it is.
        try folder.write("points.json", Self.clusters)
        let wrong = try Tool.run(["info", "points.json"], directory: folder.path)
        #expect(wrong.status == 1)
        #expect(wrong.stderr.hasPrefix("contours: points.json:1:1: invalid JSON"))
        let forced = try Tool.run(
            [
                "info", "points.json", "--input-format", "csv", "--weight", "w", "--radius", "1500",
                "--format", "json"
            ], directory: folder.path)
        #expect(forced.status == 0, "\(forced.stderr)")
        #expect(try forced.json()["thresholds"] as? [Double] == info["thresholds"] as? [Double])
        // Text for people: every line of the report is there.
        let text = try Tool.run(["info", "points.json", "--input-format", "csv"], directory: folder.path)
        let keys = text.stdout.split(separator: "\n").map { String($0.prefix(while: { $0 != " " })) }
        #expect(
            keys == [
                "input", "points", "box", "weights", "projection", "radius", "kernel", "grid", "values", "thresholds"
            ])
        // hit on an empty contour file answers null for everything.
        try folder.write("empty.geojson", "{\"type\":\"FeatureCollection\",\"features\":[]}")
        let none = try Tool.run(["hit", "empty.geojson", "--at", "1,2"], directory: folder.path)
        #expect(none.stdout == "{\"lat\":1,\"lon\":2,\"level\":null,\"threshold\":null,\"upper\":null}\n")
    }

    @Test func columnNamesAndUnitsReachThePageEscaped() throws {
        // A weight column and units that try to become markup or script.
        let hostile = "</script><script>alert(1)</script><b>"
        let folder = try ScratchFolder()
        var csv = "lat,lon,\"\(hostile.replacingOccurrences(of: "\"", with: "\"\""))\"\n"
        for k in 0..<40 { csv += "\(40 + Double(k % 7) * 0.3),\(-30 + Double(k % 5) * 0.4),\(1 + k % 3)\n" }
        try folder.write("p.csv", csv)
        for extra in [[], ["--units", hostile]] {
            let run = try Tool.run(
                [
                    "export", "p.csv", "--weight", hostile, "--format", "html", "--title", hostile,
                    "-o", "p.html"
                ] + extra, directory: folder.path)
            #expect(run.status == 0, "\(run.stderr)")
            let html = try #require(folder.read("p.html"))
            #expect(!html.contains("<script>alert") && !html.contains("<b>"))
            #expect(html.components(separatedBy: "<script").count - 1 == 2)
            #expect(html.contains("&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;&lt;b&gt;"))
        }
    }
}
