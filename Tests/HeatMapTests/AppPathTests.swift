import Foundation
import Synchronization
import Testing

@testable import HeatMapContouring
@testable import HeatMapCore
@testable import HeatMapDensity

/// The app path (docs/api.md): `compute` makes the polygons and their
/// hit-test index before it returns, under its progress and cancellation;
/// reading them afterwards does no work. Storm-like tracks in geographic
/// coordinates (the equal-area plane), smoothed bands at quantile levels.
@Suite struct AppPathTests {
    static let readings = CancellationTests.readings
    static let configuration = CancellationTests.configuration

    /// Every report of a whole run, in order.
    static func reports() throws -> [HeatMapProgress] {
        let seen = Mutex<[HeatMapProgress]>([])
        _ = try HeatMapContours.compute(
            from: readings, configuration: configuration,
            control: ComputeControl(progress: { r in seen.withLock { $0.append(r) } }))
        return seen.withLock { $0 }
    }

    @Test func computeEndsWithTheIndexAfterThePolygons() throws {
        let reports = try Self.reports()
        let assemble = reports.lastIndex { $0.stage == .assemble }, index = reports.firstIndex { $0.stage == .index }
        #expect(assemble != nil && index != nil)
        if let assemble, let index { #expect(assemble < index) }
        #expect(reports.last == HeatMapProgress(stage: .index, fraction: 1))
    }

    /// The polygons made in `compute` are the ones an export-only result
    /// makes on request, to the bit.
    @Test func thePolygonsAreMadeInComputeAndAreTheSameAsOnRequest() async throws {
        let app = try await HeatMapContours.compute(from: Self.readings, configuration: Self.configuration)
        let export = try HeatMapContours.compute(
            from: Self.readings, configuration: Self.configuration,
            control: .none, kinds: .bands)
        #expect(export.contours.isEmpty)
        let made = try await export.polygons()
        #expect(!made.isEmpty && app.contourCount == made.count)
        #expect(app.contours.map(\.id) == made.map(\.id))
        #expect(app.contours.map(\.coordinates) == made.map(\.coordinates))
        #expect(app.contours.map(\.interiorPolygons) == made.map(\.interiorPolygons))
        #expect(try app.polygons(control: .none).map(\.id) == made.map(\.id))
    }

    /// The result's index (over the polygons' own latitude/longitude
    /// arrays, projected again) answers as the plane index over the plane
    /// bands (``BandLocator``), for points all over the grid and for the
    /// readings themselves.
    @Test func tapsAgreeWithThePlaneLocator() async throws {
        let result = try await HeatMapContours.compute(from: Self.readings, configuration: Self.configuration)
        let locator = BandLocator(bands: result.contourSet.bands)
        let box = result.grid.geometry.cellBox
        var rng = SplitMix(seed: 5)
        var points = (0..<3000).map { _ in
            PlanePoint(x: rng.uniform(box.minX, box.maxX), y: rng.uniform(box.minY, box.maxY))
        }
        points += Self.readings.prefix(2000).map { result.projection.project($0.coordinate) }
        var inside = 0
        for p in points {
            let level = result.level(at: p)
            #expect(level == locator.band(at: p), "at \(p)")
            let coordinate = result.projection.unproject(p)
            let hits = result.contours(containing: coordinate)
            #expect(hits.count <= 1)
            if let hit = hits.first {
                inside += 1; #expect(hit.level == result.level(at: result.projection.project(coordinate)))
            }
        }
        #expect(inside > 1000)
    }

    /// Many taps at once (in spatial order, on every core) answer as one
    /// by one, in input order.
    @Test func bulkLevelsAnswerAsSingleTaps() async throws {
        let result = try await HeatMapContours.compute(from: Self.readings, configuration: Self.configuration)
        let box = result.grid.geometry.cellBox
        var rng = SplitMix(seed: 9)
        let coordinates = (0..<(SpatialOrder.minimumCount + 1000)).map { _ in
            result.projection.unproject(
                PlanePoint(x: rng.uniform(box.minX, box.maxX), y: rng.uniform(box.minY, box.maxY)))
        }
        let bulk = result.levels(at: coordinates)
        #expect(bulk == coordinates.map { result.inspect($0).level })
        #expect(bulk.contains { $0 != nil } && bulk.contains { $0 == nil })
    }

    @Test func equalResultsAndDifferentOnes() throws {
        let a = try HeatMapContours.compute(from: Self.readings, configuration: Self.configuration, control: .none)
        let b = try HeatMapContours.compute(from: Self.readings, configuration: Self.configuration, control: .none)
        var other = Self.configuration
        other.contourLevels = 9
        let c = try HeatMapContours.compute(from: Self.readings, configuration: other, control: .none)
        #expect(a == b && a == a)
        #expect(a != c)
        let fewer = try HeatMapContours.compute(
            from: Array(Self.readings.dropLast(500)),
            configuration: Self.configuration, control: .none)
        #expect(a != fewer)
    }

    /// The synchronous overload cannot throw, so an empty result says why;
    /// the throwing variant throws the same error.
    @Test func theSynchronousOverloadTellsWhyItIsEmpty() throws {
        var bad = Self.configuration
        bad.radius = -5
        let result = HeatMapContours.compute(from: Self.readings, configuration: bad)
        #expect(result.contours.isEmpty && result.levelCount == 0)
        let failure = try #require(result.failure as? HeatMapError)
        guard case .invalidConfiguration = failure else {
            Issue.record("expected invalidConfiguration, got \(failure)")
            return
        }
        #expect(throws: failure) {
            try HeatMapContours.compute(from: Self.readings, configuration: bad, control: .none)
        }
        #expect(HeatMapContours.compute(from: Self.readings, configuration: Self.configuration).failure == nil)
    }

    /// More levels than a map can show are refused before any is traced.
    @Test func moreThanAThousandLevelsAreRefused() throws {
        var many = Self.configuration
        many.contourLevels = 1001
        #expect(throws: HeatMapError.invalidConfiguration("contourLevels 1001: a map has 1 to 1000 levels")) {
            try HeatMapContours.compute(from: Self.readings, configuration: many, control: .none)
        }
    }

    /// A radius or padding set past the initializer's clamps is refused
    /// naming the property (a NaN radius was blamed on the grid's width).
    @Test(arguments: [
        ("radius", Double.nan, "radius nan: the kernel radius must be a finite number > 0"),
        ("radius", -5, "radius -5.0: the kernel radius must be a finite number > 0"),
        (
            "paddingFactor", .nan,
            "paddingFactor nan: the padding must be a finite number >= 0 (a multiple of the radius)"
        ),
        ("paddingFactor", -1, "paddingFactor -1.0: the padding must be a finite number >= 0 (a multiple of the radius)")
    ])
    func radiusAndPaddingOutOfRangeAreNamed(property: String, value: Double, message: String) throws {
        var bad = Self.configuration
        if property == "radius" { bad.radius = value } else { bad.paddingFactor = value }
        #expect(throws: HeatMapError.invalidConfiguration(message)) {
            try HeatMapContours.compute(from: Self.readings, configuration: bad, control: .none)
        }
    }

    /// A cancel at reports of the polygons' stages (assembly with
    /// unprojection, then the index) throws, starts no further stage, and
    /// stops the work promptly: after the cancel, at most one report per
    /// worker (a level or a part that had passed its last poll) arrives.
    @Test func aCancelWhileThePolygonsAreMadeIsHonouredPromptly() throws {
        let reports = try Self.reports()
        let late = reports.indices.filter { reports[$0].stage == .assemble || reports[$0].stage == .index }
        #expect(late.count >= 4)
        // The index reports every few thousand edges: 32 of the reports, first and last included.
        for k in CancellationTests.moments(late.count, count: 32).map({ late[$0] }) {
            let flag = CancellationFlag()
            let seen = Mutex<(count: Int, cancelled: HeatMapStage?, after: [HeatMapProgress])>((0, nil, []))
            let control = ComputeControl(
                cancellation: flag,
                progress: { r in
                    seen.withLock { s in
                        if s.cancelled != nil {
                            s.after.append(r)
                        } else if s.count == k {
                            s.cancelled = r.stage
                            flag.cancel()
                        }
                        s.count += 1
                    }
                })
            #expect(throws: CancellationError.self, "cancelled at report \(k) (\(reports[k]))") {
                try HeatMapContours.compute(from: Self.readings, configuration: Self.configuration, control: control)
            }
            let s = seen.withLock { $0 }
            #expect(s.cancelled == reports[k].stage)
            #expect(s.after.allSatisfy { $0.stage == s.cancelled }, "report \(k): \(s.after) after the cancel")
            #expect(s.after.count <= Parallel.workerCount, "report \(k): \(s.after.count) reports after the cancel")
        }
    }

    /// The index build counts its work (each vertex projected, each edge
    /// of every raster pass, the cells) and polls and reports every
    /// `interval` units, within long rings and in every part: at least one
    /// report per `interval` vertices, and a cancel from any report (made
    /// by the report itself, no clock) throws with at most one more report
    /// from each other worker, which had passed its last poll.
    @Test func theIndexBuildIsCancelledFromAnyOfItsReports() throws {
        let result = try HeatMapContours.compute(from: Self.readings, configuration: Self.configuration, control: .none)
        let polygons = result.contours, projection = result.projection
        let vertices = polygons.reduce(0) { $0 + $1.interiorPolygons.reduce($1.coordinates.count) { $0 + $1.count } }
        let interval = 256, partVertices = 4096
        #expect(vertices > 4 * partVertices)
        // Which reports come depends on the thread timing (a fraction
        // behind one already passed on is dropped), but the last before the
        // end is the whole count, whoever reports it: cancels are placed by
        // fractions of it.
        let seen = Mutex<[Double]>([])
        _ = try PolygonIndex(
            polygons: polygons, projection: projection,
            control: ComputeControl(progress: { r in seen.withLock { $0.append(r.fraction) } }),
            partVertices: partVertices, pollInterval: interval)
        let fractions = seen.withLock { $0 }
        #expect(fractions.count >= vertices / interval, "\(fractions.count) reports for \(vertices) vertices")
        let reached = fractions.filter { $0 < 1 }.max() ?? 0
        #expect(reached > 0)
        for k in 0..<24 {
            let at = reached * Double(k) / 23
            let flag = CancellationFlag()
            let after = Mutex<(cancelled: Bool, later: Int)>((false, 0))
            let control = ComputeControl(
                cancellation: flag,
                progress: { r in
                    after.withLock { s in
                        if s.cancelled {
                            s.later += 1
                        } else if r.fraction >= at {
                            s.cancelled = true
                            flag.cancel()
                        }
                    }
                })
            #expect(throws: CancellationError.self, "cancelled at fraction \(at)") {
                try PolygonIndex(
                    polygons: polygons, projection: projection, control: control,
                    partVertices: partVertices, pollInterval: interval)
            }
            let s = after.withLock { $0 }
            #expect(s.cancelled)
            #expect(s.later < Parallel.workerCount, "fraction \(at): \(s.later) reports after the cancel")
        }
    }

    /// The async call cancelled from a report of the index stage throws.
    @Test func theAsyncCallCancelledWhileIndexingThrows() async throws {
        let count = Atomic<Int>(0)
        let started = Mutex<Task<HeatMapContours, any Error>?>(nil)
        let task = Task {
            try await HeatMapContours.compute(from: Self.readings, configuration: Self.configuration) { report in
                if report.stage == .index, count.add(1, ordering: .relaxed).oldValue == 0 {
                    started.withLock { $0?.cancel() }
                }
            }
        }
        started.withLock { $0 = task }
        await #expect(throws: CancellationError.self) { try await task.value }
    }
}
