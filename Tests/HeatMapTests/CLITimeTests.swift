import Foundation
import Testing

/// The tool's time options (docs/time.md): frames in the JSON grid and
/// GeoJSON, and one clear line for each bad value.
@Suite struct CLITimeTests {
    /// Nine points over three months of 2021, written in three time forms.
    static let points = """
        lat,lon,w,time,year,month,day
        40.0,-100.0,1,2021-01-05T10:00:00Z,2021,1,5
        40.2,-100.1,2,2021-01-20 23:59:59,2021,1,20
        40.1,-99.8,1,2021-02-01T01:00:00+02:00,2021,1,31
        40.3,-99.9,1,2021-02-10,2021,2,10
        40.0,-99.7,1,2021-02-28T23:59:59.5Z,2021,2,28
        40.4,-100.2,1,2021-03-01T00:00:00Z,2021,3,1
        40.2,-99.6,3,2021-03-15T12:00:00-05:00,2021,3,15
        40.1,-100.3,1,2021-03-31T23:00:00Z,2021,3,31
        40.3,-99.5,1,2021-03-02T00:00Z,2021,3,2

        """

    @Test func jsonGridHasOneFramePerMonthOnOneGrid() throws {
        let folder = try ScratchFolder()
        let input = try folder.write("p.csv", Self.points)
        for time in [["--time", "time"], ["--time", "year,month,day"]] {
            let run = try Tool.run(
                [
                    "grid", input, "--planar", "--radius", "0.3", "--resolution", "40",
                    "--frames", "1mo"
                ] + time)
            #expect(run.status == 0, "\(run.stderr)")
            let json = try run.json()
            let frames = try #require(json["frames"] as? [[String: Any]])
            #expect(
                frames.map { $0["start"] as? String } == [
                    "2021-01-01T00:00:00Z", "2021-02-01T00:00:00Z", "2021-03-01T00:00:00Z"
                ])
            #expect(
                frames.map { $0["end"] as? String } == [
                    "2021-02-01T00:00:00Z", "2021-03-01T00:00:00Z", "2021-04-01T00:00:00Z"
                ])
            let cells = (json["columns"] as? Int ?? 0) * (json["rows"] as? Int ?? 0)
            #expect(frames.allSatisfy { ($0["values"] as? [Any])?.count == cells })
            #expect(json["values"] == nil)
        }
    }

    @Test func geoJSONFeaturesCarryTheirFrame() throws {
        let folder = try ScratchFolder()
        let input = try folder.write("p.csv", Self.points)
        let run = try Tool.run([
            "export", input, "--planar", "--radius", "0.3", "--resolution", "40", "--time", "time",
            "--frames", "1mo", "--window", "2mo", "--levels", "3", "--spacing", "linear"
        ])
        #expect(run.status == 0, "\(run.stderr)")
        let features = try #require(try run.json()["features"] as? [[String: Any]])
        #expect(!features.isEmpty)
        var thresholds: [Int: Set<Double>] = [:]
        for f in features {
            let p = try #require(f["properties"] as? [String: Any])
            let frame = try #require(p["frame"] as? Int)
            #expect(
                p["start"] as? String == ["2021-01-01T00:00:00Z", "2021-02-01T00:00:00Z", "2021-03-01T00:00:00Z"][frame]
            )
            #expect(
                p["end"] as? String == ["2021-03-01T00:00:00Z", "2021-04-01T00:00:00Z", "2021-05-01T00:00:00Z"][frame])
            thresholds[p["level"] as? Int ?? -1, default: []].insert(p["threshold"] as? Double ?? .nan)
        }
        // One set of thresholds for every frame.
        #expect(thresholds.values.allSatisfy { $0.count == 1 })
    }

    /// `hit` on a file of frames answers for the frame `--frame` names, the
    /// same as on that frame's features alone; without it, or for a frame
    /// the file lacks, one line says why.
    @Test func hitAnswersForOneFrame() throws {
        let folder = try ScratchFolder()
        let input = try folder.write("p.csv", Self.points)
        let framed = folder.file("framed.geojson")
        let export = try Tool.run([
            "export", input, "--planar", "--radius", "0.3", "--resolution", "40", "--time", "time",
            "--frames", "1mo", "--levels", "4", "-o", framed
        ])
        #expect(export.status == 0, "\(export.stderr)")
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: framed)))
        let features = try #require((json as? [String: Any])?["features"] as? [[String: Any]])
        let queries = ["--at", "40.1,-99.9", "--at", "40.3,-99.6", "--at", "40.2,-100.1"]
        var answers: [String] = []
        for frame in 0..<3 {
            // The frame's features alone, as a file of its own.
            let own = features.filter { ($0["properties"] as? [String: Any])?["frame"] as? Int == frame }
            let alone = try JSONSerialization.data(withJSONObject: ["type": "FeatureCollection", "features": own])
            let path = folder.file("frame\(frame).geojson")
            try alone.write(to: URL(fileURLWithPath: path))
            let expected = try Tool.run(["hit", path, "--planar", "--frame", "\(frame)"] + queries)
            let hit = try Tool.run(["hit", framed, "--planar", "--frame", "\(frame)"] + queries)
            #expect(hit.status == 0 && expected.status == 0, "\(hit.stderr)")
            #expect(hit.stdout == expected.stdout)
            answers.append(hit.stdout)
        }
        #expect(Set(answers).count > 1)
        for (extra, message) in [
            ([String](), "the file holds 3 frames"), (["--frame", "7"], "--frame 7: the file has no band in that frame")
        ] {
            let refused = try Tool.run(["hit", framed, "--planar"] + extra + queries)
            #expect(refused.status == 1)
            #expect(refused.stderrLines.count == 1)
            #expect(refused.stderr.contains(message), "\(refused.stderr)")
        }
    }

    /// A raster of frames given back to `export`: the GeoTIFF's first band
    /// (a frame) is contoured with a note saying so; the JSON grid of
    /// frames is refused with one line that says what it is.
    @Test func gridsOfFramesReadBackSayWhatTheyAre() throws {
        let folder = try ScratchFolder()
        let input = try folder.write("p.csv", Self.points)
        let options = ["--planar", "--radius", "0.3", "--resolution", "40", "--time", "time", "--frames", "1mo"]
        let tiff = folder.file("frames.tif"), json = folder.file("frames.json")
        for path in [tiff, json] {
            let made = try Tool.run(["grid", input] + options + ["-o", path])
            #expect(made.status == 0, "\(made.stderr)")
        }
        let fromTIFF = try Tool.run(["export", tiff, "-o", folder.file("t.geojson")])
        #expect(fromTIFF.status == 0, "\(fromTIFF.stderr)")
        #expect(fromTIFF.stderr.contains("frames.tif has 3 bands; contouring the first"), "\(fromTIFF.stderr)")
        let fromJSON = try Tool.run(["export", json, "-o", folder.file("j.geojson")])
        #expect(fromJSON.status == 1)
        #expect(fromJSON.stderrLines.count == 1)
        #expect(fromJSON.stderr.contains("a grid of frames (from --frames)"), "\(fromJSON.stderr)")
    }

    /// The same points as GeoJSON features, their times in properties
    /// (strings, and calendar parts as numbers), in the same order.
    static var geoJSONPoints: String {
        let rows = points.split(separator: "\n").dropFirst().map { $0.split(separator: ",").map(String.init) }
        let features = rows.map { f in
            "{\"type\":\"Feature\",\"properties\":{\"w\":\(f[2]),\"time\":\"\(f[3])\",\"year\":\(f[4]),"
                + "\"month\":\(f[5]),\"day\":\(f[6])},\"geometry\":{\"type\":\"Point\",\"coordinates\":[\(f[1]),\(f[0])]}}"
        }
        return "{\"type\":\"FeatureCollection\",\"features\":[\n" + features.joined(separator: ",\n") + "]}\n"
    }

    /// GeoJSON points carry their times in properties: the frames are the
    /// CSV's, byte for byte; a bad time names the property and its place.
    @Test func geoJSONPointsReadTheirTimesFromProperties() throws {
        let folder = try ScratchFolder()
        let csv = try folder.write("p.csv", Self.points)
        let geojson = try folder.write("p.geojson", Self.geoJSONPoints)
        for time in [["--time", "time"], ["--time", "year,month,day"]] {
            let options = ["--weight", "w", "--frames", "1mo", "--window", "2mo", "--resolution", "30"] + time
            let fromCSV = try Tool.run(["grid", csv] + options)
            let fromGeoJSON = try Tool.run(["grid", geojson] + options)
            #expect(fromCSV.status == 0 && fromGeoJSON.status == 0, "\(fromGeoJSON.stderr)")
            #expect(fromCSV.stdout.contains("\"frames\"") && fromCSV.stdout == fromGeoJSON.stdout)
        }
        let bad = try folder.write(
            "bad.geojson",
            Self.geoJSONPoints.replacingOccurrences(of: "\"2021-02-10\"", with: "\"2021-02-30\""))
        let run = try Tool.run(["grid", bad, "--time", "time", "--frames", "1mo", "-o", folder.file("out.json")])
        #expect(run.status == 1)
        #expect(run.stderrLines.count == 1, "\(run.stderr)")
        #expect(run.stderr.contains("bad.geojson:5:") && run.stderr.contains("property 'time': time \"2021-02-30\""))
        #expect(!folder.contents().contains("out.json"))
    }

    @Test(arguments: [
        (["--time", "time", "--frames", "0d"], Int32(2), "bad value '0d' for --frames: no time at all"),
        (["--time", "time", "--frames", "1d", "--window", "0s"], 2, "bad value '0s' for --window: no time at all"),
        (
            ["--time", "time", "--frames", "1d", "--window", "0.5s"], 2,
            "bad value '0.5s' for --window: not a length of time"
        ),
        (["--time", "time", "--frames", "1d", "--from", "2021-03-01", "--to", "2021-02-01"], 2, "empty frame range"),
        (
            ["--time", "time", "--frames", "1d", "--from", "2022-01-01"], 1,
            "empty frame range: no point's time is at or after 2022-01-01T00:00:00Z"
        ),
        (
            ["--time", "time", "--frames", "1h", "--from", "1990-01-01"], 1,
            "frames of 1h from 1990-01-01T00:00:00Z; at most 10000"
        ),
        (["--time", "bad", "--frames", "1d"], 1, "p.csv:3:bad: time is not an ISO 8601 date or date-time"),
        (
            ["--time", "time", "--time-format", "epoch", "--frames", "1d"], 1,
            "p.csv:2:time: time is not a number of seconds since 1970"
        ),
        (["--frames", "1d"], 2, "--frames needs each point's time"),
        (
            ["--time", "year,month", "--time-format", "epoch", "--frames", "1d"], 2,
            "--time-format is for one time column"
        )
    ])
    func badValuesGetOneLine(_ extra: [String], _ status: Int32, _ message: String) throws {
        let folder = try ScratchFolder()
        let input = try folder.write(
            "p.csv", "lat,lon,time,bad\n1,2,2021-01-01,2021-01-01\n1.5,2.5,2021-01-02,2021-1-2\n")
        let run = try Tool.run(["grid", input, "-o", folder.file("out.json")] + extra)
        #expect(run.status == status)
        #expect(run.stderrLines.count == 1 && run.stderr.contains(message), "\(run.stderr)")
        #expect(!folder.contents().contains("out.json"))
    }
}
