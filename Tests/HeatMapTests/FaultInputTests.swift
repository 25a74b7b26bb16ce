import Foundation
import Testing

@testable import HeatMapContouring
@testable import HeatMapCore
@testable import HeatMapDensity
@testable import HeatMapFormats

/// Inputs and environments that used to crash, or be taken silently:
/// read errors, cut-off CSV, concatenated or untyped GeoJSON, bin sizes
/// whose cell numbers are not exact, and memory that is not there.
@Suite struct FaultInputTests {
    @Test func aReadErrorIsAnInputErrorNotACrash() throws {
        // Reading /proc/self/mem from offset 0 fails with EIO; the buffer
        // was freed twice (once by the failed init, once by deinit).
        #expect(throws: InputError.self) { _ = try ByteSource(path: "/proc/self/mem") }
        do {
            _ = try ByteSource(path: "/proc/self/mem")
        } catch let e as InputError {
            #expect(e.reason == "read error")
            #expect(e.message.contains("Input/output error"))
        }
    }

    @Test func aCutOffLastRowIsRefusedEvenInAnUnusedColumn() throws {
        let message = try InputCSVTests.error("lat,lon,depth\n1,2,3\n1.5,2.5,4\n2,2.")
        #expect(
            message == "4:depth: last row has 2 fields but the header has 3, and no line end: the input looks cut off")
        // A whole last row without a line end, and a short row with one, stay as they were.
        #expect(try InputCSVTests.points("lat,lon,depth\n1,2,3\n2,2,5").count == 2)
        #expect(try InputCSVTests.points("lat,lon,depth\n1,2,3\n2,2\n").count == 2)
    }

    @Test func theBlockReaderSendsACutOffLastRowToTheSerialReader() throws {
        let folder = try ScratchFolder()
        let rows = (0..<2000).map { "\(Double($0) / 100),\(Double($0) / 50),\($0)" }
        let path = try folder.write("t.csv", "lat,lon,depth\n" + rows.joined(separator: "\n") + "\n5,6")
        let options = PointReaderOptions()
        let outcome = CSVBlockReaderTests.blocks(path, options, blockSize: 4096)
        #expect(outcome.error?.reason == "truncated last row")
        #expect(outcome.error?.line == 2002)
        #expect(outcome == CSVBlockReaderTests.serial(path, options))
    }

    @Test(arguments: [
        (
            "{\"features\":[]}",
            "1:1: GeoJSON object without a 'type' (expected FeatureCollection, Feature or a geometry)"
        ),
        (
            "{\"type\":\"Banana\",\"features\":[]}",
            "1:1: an object with 'features' has type 'Banana', not FeatureCollection"
        ),
        (
            "{\"type\":\"Banana\"}",
            "1:1: unknown GeoJSON type 'Banana' (expected FeatureCollection, Feature or a geometry)"
        ),
        (
            "{\"type\":\"Point\",\"coordinates\":[1,2]}{\"type\":\"Point\",\"coordinates\":[1,2]}",
            "1:37: a second JSON value on the line where the previous one ended (concatenated objects?); newline-delimited GeoJSON has one value per line"
        ),
        (
            "{\"type\":\"FeatureCollection\",\"features\":[]}\n{\"type\":\"Point\",\"coordinates\":[1,2]}",
            "2:1: a second JSON value after a FeatureCollection (concatenated files?); a file holds one FeatureCollection, or one Feature per line"
        ),
        (
            "{\"type\":\"Point\",\"coordinates\":[1,2]}\n{\"type\":\"FeatureCollection\",\"features\":[]}",
            "2:1: a FeatureCollection after another top-level value (concatenated files?); a file holds one FeatureCollection, or one Feature per line"
        )
    ])
    func malformedGeoJSONIsRefusedWithItsPosition(_ text: String, _ expected: String) throws {
        #expect(try InputGeoJSONTests.error(text) == expected)
    }

    @Test func newlineDelimitedFeaturesStillRead() throws {
        let line = "{\"type\":\"Point\",\"coordinates\":[1,2]}"
        #expect(try InputGeoJSONTests.points(line + "\n" + line + "\n").count == 2)
    }

    @Test func binSizesBelowExactCellNumbersAreCountedAndTheLimitIsKnown() throws {
        let configuration = BinningConfiguration(size: 1e-9, projection: .planar)
        var binner = try Binner(configuration: configuration, projection: PlaneProjection(kind: .planar))
        try binner.add(x: [0, 0.5, 2], y: [0, 0.25, 2])
        // y = 2 at 1e-9 a cell is r = 1.3e9 rows out: beyond exact numbering.
        #expect(binner.summary.rejected[Binner.tooFarReason] == 1)
        #expect(binner.summary.used == 2)
        #expect(binner.reach == 2)
        let smallest = binner.smallestExactSize
        #expect(smallest > 1e-9 && smallest < 1e-8)
        var fits = try Binner(
            configuration: BinningConfiguration(size: smallest, projection: .planar),
            projection: PlaneProjection(kind: .planar))
        try fits.add(x: [0, 0.5, 2, -2, 2, -2], y: [0, 0.25, 2, -2, -2, 2])
        #expect(fits.summary.rejected.isEmpty)
        #expect(
            Binner.smallestExactSize(reach: 1e7, planar: false) == Binner.smallestExactSize(reach: 1e4, planar: true))
    }

    @Test func memoryBudgetRefusesWhatCannotFitAndNamesTheStage() throws {
        let available = try #require(MemoryBudget.available(), "/proc/meminfo is there on Linux")
        #expect(available > 0)
        try MemoryBudget.reserve(1 << 20, for: "a small stage")
        // What is available moves with the rest of the machine between two
        // readings: the error names some amount, not the one read above.
        let error = #expect(throws: HeatMapError.self) { try MemoryBudget.reserve(Int.max, for: "the test") }
        guard case .outOfMemory(let needed, let free, let what)? = error else {
            Issue.record("expected outOfMemory, got \(String(describing: error))")
            return
        }
        #expect(needed == Int.max && free > 0 && what == "the test")
        let e = HeatMapError.outOfMemory(
            needed: 1_930_000_000, available: 808_000_000, what: "the density grid of 8043 × 10000 nodes")
        #expect(
            "\(e)"
                == "the density grid of 8043 × 10000 nodes needs about 1.9 GB of memory, but only 808 MB is available")
    }
}

/// A job larger than the memory left (docs/faults.md, "Memory"): the
/// throwing overloads say so with a `HeatMapError`; the synchronous one,
/// which cannot throw, gives an empty result.
@Suite struct OversizedJobTests {
    static let points = [
        HeatMapPoint(coordinate: LocationCoordinate2D(latitude: 0, longitude: 0), weight: 1),
        HeatMapPoint(coordinate: LocationCoordinate2D(latitude: 10, longitude: 10), weight: 1)
    ]
    /// About 4 × 10¹² nodes: far beyond any machine's memory.
    static let configuration = HeatMapConfiguration(radius: 100_000, gridResolution: 2_000_000)

    @Test func theThrowingOverloadsRefuseIt() async throws {
        let error = #expect(throws: HeatMapError.self) {
            _ = try HeatMapContours.compute(from: Self.points, configuration: Self.configuration, control: .none)
        }
        #expect("\(error.map { "\($0)" } ?? "")".contains("memory"), "\(String(describing: error))")
        await #expect(throws: HeatMapError.self) {
            _ = try await HeatMapContours.compute(from: Self.points, configuration: Self.configuration)
        }
    }

    @Test func theSynchronousOverloadGivesAnEmptyResult() {
        let contours: HeatMapContours = HeatMapContours.compute(from: Self.points, configuration: Self.configuration)
        #expect(contours.contours.isEmpty)
        #expect(contours.thresholds.isEmpty)
    }
}

/// `contours hit` answers from a contour file only when the file is fit to
/// answer: finite, in-range positions, rings with area, ordered levels.
@Suite struct ContourFileCheckTests {
    static func feature(level: Int, threshold: Double, upper: Double?, ring: String) -> String {
        "{\"type\":\"Feature\",\"properties\":{\"level\":\(level),\"threshold\":\(threshold),\"upper\":\(upper.map { "\($0)" } ?? "null")},"
            + "\"geometry\":{\"type\":\"Polygon\",\"coordinates\":[\(ring)]}}"
    }

    static let square = "[[0,0],[1,0],[1,1],[0,1],[0,0]]"

    static func error(_ features: [String], geographic: Bool?) throws -> String {
        let folder = try ScratchFolder()
        let path = try folder.write(
            "c.geojson", "{\"type\":\"FeatureCollection\",\"features\":[\n" + features.joined(separator: ",\n") + "\n]}"
        )
        do {
            _ = try GeoJSONContourReader.read(path: path, geographic: geographic)
        } catch let e as InputError {
            return "\(e.line):\(e.column): \(e.message)"
        }
        return "no error"
    }

    @Test func anIntactFileReads() throws {
        let ok = [
            Self.feature(level: 0, threshold: 1, upper: 2, ring: Self.square),
            Self.feature(level: 1, threshold: 2, upper: nil, ring: Self.square)
        ]
        #expect(try Self.error(ok, geographic: true) == "no error")
    }

    @Test func hugeCoordinatesAreRefusedWithTheFeaturesPosition() throws {
        let huge = "[[1e308,1e308],[-1e308,1e308],[0,-1e308],[1e308,1e308]]"
        let features = [
            Self.feature(level: 0, threshold: 1, upper: 2, ring: Self.square),
            Self.feature(level: 1, threshold: 2, upper: nil, ring: huge)
        ]
        #expect(
            try Self.error(features, geographic: true)
                == "3:1: contour feature (level 1) has position [1e+308, 1e+308] outside longitude [-180, 180] or latitude [-90, 90]"
        )
        #expect(
            try Self.error(features, geographic: false)
                == "3:1: contour feature (level 1) has position [1e+308, 1e+308] beyond ±1e150, too large to test points against"
        )
    }

    @Test func levelsOutOfOrderAndFlatRingsAreRefused() throws {
        let disorder = [
            Self.feature(level: 0, threshold: 5, upper: 6, ring: Self.square),
            Self.feature(level: 1, threshold: 2, upper: nil, ring: Self.square)
        ]
        #expect(
            try Self.error(disorder, geographic: nil)
                == "3:1: contour levels out of order: level 1 has threshold 2.0, not above level 0's 5.0")
        let upside = [Self.feature(level: 0, threshold: 5, upper: 1, ring: Self.square)]
        #expect(
            try Self.error(upside, geographic: nil)
                == "2:1: contour feature (level 0) has threshold 5.0 not below its upper 1.0")
        let flat = [Self.feature(level: 0, threshold: 1, upper: nil, ring: "[[0,0],[1,1],[2,2],[0,0]]")]
        #expect(try Self.error(flat, geographic: nil) == "2:1: contour feature (level 0) has a ring without area")
    }
}
