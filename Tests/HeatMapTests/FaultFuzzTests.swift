import Foundation
import Testing

@testable import HeatMapContouring
@testable import HeatMapCore
@testable import HeatMapDensity
@testable import HeatMapFormats

/// The cheap part of Scripts/check-faults.sh, in process: every prefix of a
/// small CSV and GeoJSON file, and seeded random byte flips of them, read
/// by the point and contour readers. Each either reads or throws an
/// ``InputError`` with a position; nothing else escapes, nothing traps.
@Suite struct FaultFuzzTests {
    static let csv =
        "lat,lon,w\n-20.42,-178.38,4\n-20.62,-178.97,2\n\"-26.0\",184.1,1\n-17.97,181.66,3\n-20.42,181.96,5\n"

    static let geojson = """
        {"type":"FeatureCollection","features":[
        {"type":"Feature","properties":{"w":4},"geometry":{"type":"Point","coordinates":[-178.38,-20.42]}},
        {"type":"Feature","properties":{"w":2},"geometry":{"type":"MultiPoint","coordinates":[[-178.97,-20.62],[179.1,-26]]}},
        {"type":"Feature","properties":{"w":1},"geometry":{"type":"Point","coordinates":[181.66,-17.97]}}
        ]}
        """

    static let contours = """
        {"type":"FeatureCollection","features":[
        {"type":"Feature","properties":{"level":0,"threshold":1,"upper":2},"geometry":{"type":"Polygon","coordinates":[[[0,0],[4,0],[4,4],[0,4],[0,0]]]}},
        {"type":"Feature","properties":{"level":1,"threshold":2,"upper":null},"geometry":{"type":"MultiPolygon","coordinates":[[[[1,1],[2,1],[2,2],[1,2],[1,1]]]]}}
        ]}
        """

    enum Outcome: Equatable { case read(Int), refused }

    /// Reads `bytes` as points; an error other than InputError is recorded.
    static func readPoints(_ bytes: [UInt8], name: String, options: PointReaderOptions, folder: ScratchFolder)
        -> Outcome
    {
        do {
            let reader = try PointReader(path: try folder.write(name, bytes), options: options)
            var n = 0
            while try reader.next() != nil { n += 1 }
            return .read(n)
        } catch let e as InputError {
            #expect(e.file.hasSuffix(name))
            #expect(!e.message.isEmpty)
            return .refused
        } catch {
            Issue.record("\(name): \(error) is not an InputError")
            return .refused
        }
    }

    static func flipped(_ text: String, seed: UInt64) -> [UInt8] {
        var generator = SplitMix(seed: seed)
        var bytes = Array(text.utf8)
        let picks: [UInt8] = [0, 10, 13, 34, 44, 45, 46, 48, 57, 91, 93, 123, 125, 0xff]
        for _ in 0..<Int.random(in: 1...4, using: &generator) {
            let k = Int.random(in: 0..<bytes.count, using: &generator)
            bytes[k] =
                Bool.random(using: &generator)
                ? picks.randomElement(using: &generator)! : UInt8.random(in: 0...255, using: &generator)
        }
        return bytes
    }

    @Test func everyPrefixOfACSVReadsFewerPointsOrIsRefused() throws {
        let folder = try ScratchFolder()
        let bytes = Array(Self.csv.utf8)
        var refused = 0
        for k in 0...bytes.count {
            let prefix = Array(bytes[..<k])
            let outcome = Self.readPoints(prefix, name: "p.csv", options: PointReaderOptions(), folder: folder)
            // A prefix that ends inside a row, before its last field, is cut off.
            let lastLine = prefix.split(separator: 0x0A, omittingEmptySubsequences: false).last ?? []
            let cutInsideRow =
                k < bytes.count && !lastLine.isEmpty && lastLine.filter { $0 == 0x2C }.count < 2
                && prefix.contains(0x0A)
            if cutInsideRow { #expect(outcome == .refused, "prefix of \(k) bytes was read") }
            if case .read(let n) = outcome { #expect(n <= 5) } else { refused += 1 }
        }
        #expect(refused > 0)
        #expect(Self.readPoints(bytes, name: "p.csv", options: PointReaderOptions(), folder: folder) == .read(5))
    }

    @Test func everyPrefixOfAGeoJSONFileReadsFewerPointsOrIsRefused() throws {
        let folder = try ScratchFolder()
        let bytes = Array(Self.geojson.utf8)
        let options = PointReaderOptions(format: .geojson)
        for k in 0..<bytes.count {
            let outcome = Self.readPoints(Array(bytes[..<k]), name: "p.geojson", options: options, folder: folder)
            // Nothing short of the closing brace is a whole FeatureCollection.
            #expect(outcome == .refused, "prefix of \(k) bytes was read: \(outcome)")
        }
        #expect(Self.readPoints(bytes, name: "p.geojson", options: options, folder: folder) == .read(4))
    }

    @Test func byteFlipsAreReadOrRefusedNeverTrapped() throws {
        let folder = try ScratchFolder()
        for seed in 0..<150 as Range<UInt64> {
            _ = Self.readPoints(
                Self.flipped(Self.csv, seed: seed), name: "f.csv", options: PointReaderOptions(), folder: folder)
            _ = Self.readPoints(
                Self.flipped(Self.geojson, seed: seed), name: "f.geojson",
                options: PointReaderOptions(format: .geojson), folder: folder)
        }
    }

    @Test func damagedContourFilesAreReadOrRefusedNeverTrapped() throws {
        let folder = try ScratchFolder()
        let bytes = Array(Self.contours.utf8)
        var inputs = (0..<bytes.count).map { Array(bytes[..<$0]) }
        inputs += (0..<150 as Range<UInt64>).map { Self.flipped(Self.contours, seed: $0) }
        for input in inputs {
            do {
                let features = try GeoJSONContourReader.read(
                    path: try folder.write("c.geojson", input), geographic: false)
                // What was accepted can answer queries.
                var bands = [[PlanePolygon]](repeating: [], count: (features.map(\.level).max() ?? -1) + 1)
                for f in features { bands[f.level].append(contentsOf: f.polygons) }
                _ = BandLocator(bands: bands).band(at: PlanePoint(x: 1.5, y: 1.5))
            } catch is InputError {
            } catch {
                Issue.record("\(error) is not an InputError")
            }
        }
        let intact = try GeoJSONContourReader.read(path: try folder.write("c.geojson", bytes), geographic: false)
        #expect(intact.count == 2)
    }
}
