import Foundation
import Testing

@testable import HeatMapContouring
@testable import HeatMapCore
@testable import HeatMapDensity
@testable import HeatMapFormats

/// The tool's path (a CSV file streamed through ``StreamedDensity``) and
/// the public API (``HeatMapContours/compute(from:configuration:control:strict:)``
/// on the same points in memory) plan and fill the same grid: one planner
/// decides the radius, its floor, the resolution and the geometry for both.
@Suite struct PlannerTests {
    /// One setting of the tool, and the points it runs on.
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var points: [InputPoint]
        var configuration: HeatMapConfiguration
        /// `--radius auto` without `--resolution`.
        var resolutionFromData = false
        var testDescription: String { name }

        var planar: Bool { configuration.projection == .planar }
    }

    /// Clusters of `count` points round `centres` (latitude, longitude),
    /// `spread` degrees wide (units, planar); weights in [0, 3) with every
    /// seventh 0 when `weighted`, values in [0, 100).
    static func clusters(
        seed: UInt64, count: Int, centres: [(Double, Double)], spread: Double,
        weighted: Bool, planar: Bool = false
    ) -> [InputPoint] {
        var rng = SplitMix(seed: seed)
        return (0..<count).map { i in
            let c = centres[i % centres.count]
            var lat = c.0 + (rng.unit() - 0.5) * spread, lon = c.1 + (rng.unit() - 0.5) * spread
            if !planar {
                lat = min(max(lat, -90), 90)
                if lon >= 180 { lon -= 360 }
                if lon < -180 { lon += 360 }
            }
            let w = weighted ? (i % 7 == 0 ? 0 : rng.uniform(0, 3)) : 1
            return InputPoint(latitude: lat, longitude: lon, weight: w, value: rng.uniform(0, 100))
        }
    }

    static let cases: [Case] = {
        let europe = clusters(seed: 1, count: 3_000, centres: [(48, 2), (52, 13), (41, 12)], spread: 4, weighted: true)
        // Fiji: one cluster on both sides of ±180°.
        let fiji = clusters(seed: 2, count: 2_500, centres: [(-18, 179.5), (-20, -179)], spread: 3, weighted: true)
        // Sparse points over an ocean: the auto radius hits the half-cell floor.
        let ocean = clusters(seed: 3, count: 2_000, centres: [(10, -140), (-20, -100)], spread: 40, weighted: false)
        let plane = clusters(
            seed: 4, count: 3_000, centres: [(100, 300), (180, 420)], spread: 90, weighted: true,
            planar: true)
        func geo(
            _ radius: Double, _ bandwidth: Bandwidth, resolution: Int = 100,
            estimator: DensityEstimator = .density
        ) -> HeatMapConfiguration {
            HeatMapConfiguration(radius: radius, gridResolution: resolution, estimator: estimator, bandwidth: bandwidth)
        }
        func flat(_ radius: Double, _ bandwidth: Bandwidth, resolution: Int = 100) -> HeatMapConfiguration {
            HeatMapConfiguration(radius: radius, gridResolution: resolution, projection: .planar, bandwidth: bandwidth)
        }
        return [
            Case(
                name: "fixed 30 km, --resolution 120", points: europe,
                configuration: geo(30_000, .fixed, resolution: 120)),
            Case(name: "auto, --resolution 150", points: europe, configuration: geo(500, .auto, resolution: 150)),
            Case(
                name: "auto, resolution from data", points: europe, configuration: geo(500, .auto),
                resolutionFromData: true),
            Case(name: "scott", points: europe, configuration: geo(500, .scott)),
            Case(name: "silverman", points: europe, configuration: geo(500, .silverman, resolution: 90)),
            Case(
                name: "mean of values, fixed 40 km", points: europe,
                configuration: geo(40_000, .fixed, resolution: 80, estimator: .mean)),
            Case(name: "across ±180°, fixed 20 km", points: fiji, configuration: geo(20_000, .fixed)),
            Case(
                name: "across ±180°, auto from data", points: fiji, configuration: geo(500, .auto),
                resolutionFromData: true),
            Case(name: "across ±180°, scott", points: fiji, configuration: geo(500, .scott, resolution: 70)),
            Case(
                name: "auto at its 50 km cap, from data", points: ocean, configuration: geo(500, .auto),
                resolutionFromData: true),
            Case(
                name: "auto raised to the floor, --resolution 100", points: ocean,
                configuration: geo(500, .auto, resolution: 100)),
            Case(name: "planar fixed 12", points: plane, configuration: flat(12, .fixed)),
            Case(name: "planar auto from data", points: plane, configuration: flat(1, .auto), resolutionFromData: true),
            Case(name: "planar silverman", points: plane, configuration: flat(1, .silverman, resolution: 110))
        ]
    }()

    /// The CSV the tool would read: `lat,lon,w,v` (planar: y, x), each
    /// number written so that it reads back as the same double.
    static func csv(_ points: [InputPoint]) -> String {
        "lat,lon,w,v\n" + points.map { "\($0.latitude),\($0.longitude),\($0.weight),\($0.value)\n" }.joined()
    }

    /// Streams the case's CSV as `contours grid` does.
    static func streamed(_ c: Case, folder: ScratchFolder, batchSize: Int = StreamedPoints.batchSize) throws
        -> StreamedDensity.Result
    {
        let path = try folder.write("points.csv", csv(c.points))
        let value = c.configuration.estimator == .mean ? "v" : nil
        let options = PointReaderOptions(columns: PointColumns(weight: "w", value: value), geographic: !c.planar)
        let points = try StreamedPoints.read(path: path, options: options)
        return try StreamedDensity.compute(
            from: points, configuration: c.configuration,
            resolutionFromData: c.resolutionFromData, batchSize: batchSize,
            control: .none)
    }

    /// The same points and settings through the public API.
    static func inMemory(_ c: Case) throws -> DensityGrid {
        var configuration = c.configuration
        configuration.resolutionFromData = c.resolutionFromData
        let points = c.points.enumerated().map { i, p in
            HeatMapPoint(id: i, latitude: p.latitude, longitude: p.longitude, weight: p.weight, value: p.value)
        }
        return try HeatMapContours.compute(from: points, configuration: configuration, control: .none, strict: true)
            .grid
    }

    /// Within one batch both paths add the same terms in the same order:
    /// every bit of the grid agrees.
    @Test(arguments: cases)
    func toolAndLibraryGiveTheSameGrid(_ c: Case) throws {
        let folder = try ScratchFolder()
        let tool = try Self.streamed(c, folder: folder)
        let library = try Self.inMemory(c)
        #expect(tool.grid.projection == library.projection)
        #expect(tool.grid.radius == library.radius)
        #expect(tool.grid.geometry == library.geometry)
        #expect(tool.grid.values.count == library.values.count)
        let same = zip(tool.grid.values, library.values).allSatisfy { $0.bitPattern == $1.bitPattern }
        #expect(same)
        #expect(tool.grid.maximum > 0)
    }

    /// Batches of 700 points: the plan is the same (the spread's running
    /// sums go point by point in input order, whatever the batches), the
    /// nodes only differ by summing their terms in other groups.
    @Test(
        arguments: cases.filter {
            [
                "auto, resolution from data", "across ±180°, scott", "planar fixed 12",
                "mean of values, fixed 40 km"
            ].contains($0.name)
        })
    func batchesChangeOnlyTheSummationOrder(_ c: Case) throws {
        let folder = try ScratchFolder()
        let tool = try Self.streamed(c, folder: folder, batchSize: 700)
        let library = try Self.inMemory(c)
        #expect(tool.grid.radius == library.radius)
        #expect(tool.grid.geometry == library.geometry)
        let scale = library.values.reduce(0) { $1.isNaN ? $0 : max($0, abs($1)) }
        let worst = zip(tool.grid.values, library.values).reduce(0.0) { worst, pair in
            pair.0.isNaN && pair.1.isNaN ? worst : max(worst, abs(pair.0 - pair.1))
        }
        #expect(worst <= 1e-12 * scale, "worst difference \(worst) of \(scale)")
        #expect(zip(tool.grid.values, library.values).allSatisfy { $0.isNaN == $1.isNaN })
    }

    /// Later passes read the projected points kept from the first one, or
    /// project them again when they do not fit: the grid is the same to
    /// the bit either way, whatever the batches (and with a limit that the
    /// points pass half-way through the first pass).
    @Test(arguments: cases)
    func keptPointsGiveTheGridOfPointsProjectedAgain(_ c: Case) throws {
        let folder = try ScratchFolder()
        let path = try folder.write("points.csv", Self.csv(c.points))
        let value = c.configuration.estimator == .mean ? "v" : nil
        let options = PointReaderOptions(columns: PointColumns(weight: "w", value: value), geographic: !c.planar)
        let points = try StreamedPoints.read(path: path, options: options)
        func grid(keeping kept: Int?) throws -> DensityGrid {
            try StreamedDensity.compute(
                from: points, configuration: c.configuration,
                resolutionFromData: c.resolutionFromData, batchSize: 700, keptPoints: kept,
                control: .none
            ).grid
        }
        let kept = try grid(keeping: nil)
        for limit in [0, c.points.count / 2] {
            let again = try grid(keeping: limit)
            #expect(again.geometry == kept.geometry)
            #expect(again.radius == kept.radius)
            #expect(zip(again.values, kept.values).allSatisfy { $0.bitPattern == $1.bitPattern })
        }
        #expect(kept.maximum > 0)
    }

    /// The floor: an `auto` radius whose σ spans less than half a cell is
    /// raised to exactly half a cell along the longer side, by either path.
    @Test func theAutoFloorRaisesToHalfACell() throws {
        let c = Self.cases.first { $0.name == "auto raised to the floor, --resolution 100" }!
        let folder = try ScratchFolder()
        let raised = try Self.streamed(c, folder: folder).radiusRaised
        #expect(raised)
        let library = try Self.inMemory(c)
        let g = library.geometry
        let cell = g.columns >= g.rows ? g.dx : g.dy
        #expect(abs(cell - 2 * library.radius / 3) <= 1e-9 * cell)
        // The rule's own radius (its 50 km cap) is narrower than that.
        #expect(library.radius > 50_000)
    }
}
