import Foundation
import Testing

@testable import HeatMapContouring
@testable import HeatMapCore
@testable import HeatMapDensity
@testable import HeatMapFormats

@Suite struct CLIH3Tests {
    @Test func binShapeH3WritesReferenceIdsAndAggregates() throws {
        let folder = try ScratchFolder()
        // Three points in one resolution-4 cell (their ids are the reference's:
        // H3ReferenceFixtures has the San Francisco cell), one far away.
        try folder.write(
            "p.csv", "lat,lon,w\n37.7759,-122.418,1\n37.776,-122.417,2\n37.7758,-122.4181,3\n-17,179.99,4\n")
        let run = try Tool.run(
            [
                "bin", "p.csv", "--shape", "h3", "--h3-resolution", "4", "--weight", "w",
                "--aggregate", "sum"
            ], directory: folder.path)
        #expect(run.status == 0, "\(run.stderr)")
        let features = try #require(try run.json()["features"] as? [[String: Any]])
        let props = features.compactMap { $0["properties"] as? [String: Any] }
        let sf = try #require(
            props.first {
                $0["h3"] as? String == H3Cell(latitude: 37.7759, longitude: -122.418, resolution: 4)?.description
            })
        #expect(sf["count"] as? Int == 3 && sf["value"] as? Double == 6 && sf["id"] as? String == sf["h3"] as? String)
        #expect((sf["area_km2"] as? Double ?? 0) > 1000)
        // The Fiji cell straddles ±180°: a MultiPolygon.
        let fiji = try #require(features.first { ($0["properties"] as? [String: Any])?["count"] as? Int == 1 })
        #expect((fiji["geometry"] as? [String: Any])?["type"] as? String == "MultiPolygon")

        let csv = try Tool.run(["bin", "p.csv", "--shape", "h3", "--format", "csv"], directory: folder.path)
        #expect(csv.stdout.hasPrefix("h3,lat,lon,count,value,area_km2,density\n"))
        #expect(csv.stderr.contains("H3 resolution"))
    }

    /// Pictures of H3 cells name the aggregate's units as `--units` says,
    /// like every other bin picture.
    @Test func h3PicturesTakeTheUnitsOption() throws {
        let folder = try ScratchFolder()
        try folder.write("p.csv", "lat,lon,w\n37.7759,-122.418,1\n37.776,-122.417,2\n-17,179.99,4\n")
        let run = try Tool.run(
            [
                "bin", "p.csv", "--shape", "h3", "--h3-resolution", "4", "--value", "w",
                "--aggregate", "mean", "--units", "knots of wind", "--format", "svg"
            ], directory: folder.path)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("knots of wind"))
    }

    @Test func preAggregatedCellsAreReaggregatedToACoarserResolution() throws {
        let folder = try ScratchFolder()
        let fine = try #require(H3Cell(latitude: 37.7759, longitude: -122.418, resolution: 9))
        let sibling = try #require(fine.parent(at: 8)?.children(at: 9).last)
        try folder.write("cells.csv", "h3_cell,n\n\(fine),5\n\(sibling.rawValue),7\n")
        let run = try Tool.run(
            [
                "bin", "cells.csv", "--h3", "h3_cell", "--h3-resolution", "7", "--format", "csv",
                "--aggregate", "sum"
            ], directory: folder.path)
        #expect(run.status == 0, "\(run.stderr)")
        let rows = run.stdout.split(separator: "\n")
        #expect(rows.count == 2)
        #expect(rows[1].hasPrefix("\(fine.parent(at: 7)!),") && rows[1].contains(",2,12,"))
        // Rows that are counts already are summed unless asked otherwise.
        let summed = try Tool.run(
            ["bin", "cells.csv", "--h3", "h3_cell", "--h3-resolution", "7", "--format", "csv"], directory: folder.path)
        #expect(summed.status == 0 && summed.stdout.split(separator: "\n")[1].contains(",2,12,"), "\(summed.stdout)")
        let counted = try Tool.run(
            ["bin", "cells.csv", "--h3", "h3_cell", "--h3-resolution", "7", "--format", "csv", "--aggregate", "count"],
            directory: folder.path)
        #expect(counted.status == 0 && counted.stdout.split(separator: "\n")[1].contains(",2,2,"), "\(counted.stdout)")
        let finer = try Tool.run(
            ["bin", "cells.csv", "--h3", "h3_cell", "--h3-resolution", "10"], directory: folder.path)
        #expect(finer.status == 2 && finer.stderr.contains("finer"))
        try folder.write("bad.csv", "h3_cell,n\nnot-a-cell,1\n")
        let bad = try Tool.run(["bin", "bad.csv", "--h3", "h3_cell"], directory: folder.path)
        #expect(bad.status == 1 && bad.stderr.contains("bad.csv:2") && bad.stderr.contains("not a valid H3 cell"))
        // The tokenizer's faults are told like a point file's, in one line.
        try folder.write("quote.csv", "h3_cell,n\n\"\(fine),5\n")
        let quote = try Tool.run(["bin", "quote.csv", "--h3", "h3_cell"], directory: folder.path)
        #expect(
            quote.status == 1
                && quote.stderr
                    == "contours: quote.csv:2:h3_cell: unterminated quoted field: the quote opened here never closes\n",
            "\(quote.stderr)")
    }

    @Test func hexagonFeaturesCarryAnIdAndTheirCentre() throws {
        let folder = try ScratchFolder()
        try folder.write("p.csv", "lat,lon\n60,10\n60.5,11\n61,12\n")
        let run = try Tool.run(["bin", "p.csv", "--size", "30"], directory: folder.path)
        let features = try #require(try run.json()["features"] as? [[String: Any]])
        for f in features {
            let p = try #require(f["properties"] as? [String: Any])
            #expect(p["id"] as? String == "\(p["q"] as? Int ?? 0),\(p["r"] as? Int ?? 0)")
            #expect(p["lat"] is Double && p["lon"] is Double)
            // densified: far more than 7 positions on a 30 km hexagon at 60° N
            let ring = ((f["geometry"] as? [String: Any])?["coordinates"] as? [[[Double]]])?.first ?? []
            #expect(ring.count > 7)
        }
    }
}
