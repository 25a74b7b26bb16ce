import Foundation
import Synchronization
import Testing

@testable import HeatMapContouring
@testable import HeatMapCore
@testable import HeatMapDensity
@testable import HeatMapFormats

/// The async API (docs/README.md, docs/faults.md): same answer as the synchronous one, progress,
/// cancellation, determinism.
@Suite struct AsyncComputeTests {
    /// Two clusters near Wellington, a few hundred points.
    static func points() -> [HeatMapPoint] {
        var rng = SplitMix(seed: 7)
        return (0..<400).map { i in
            let centre = i % 3 == 0 ? (-41.29, 174.78) : (-41.20, 174.90)
            return HeatMapPoint(
                id: i, latitude: centre.0 + rng.uniform(-0.03, 0.03),
                longitude: centre.1 + rng.uniform(-0.03, 0.03), weight: rng.uniform(0.5, 2))
        }
    }

    static let configuration = HeatMapConfiguration(
        radius: 2_000, contourLevels: 6, levelSpacing: .linear,
        gridResolution: 80)

    /// In an async context the compiler prefers the async overload; a
    /// synchronous function reaches the synchronous one.
    static func computeSynchronously(_ pts: [HeatMapPoint]) -> HeatMapContours {
        HeatMapContours.compute(from: pts, configuration: configuration)
    }

    @Test func asyncGivesTheSameContoursAsSync() async throws {
        let pts = Self.points()
        let sync = Self.computeSynchronously(pts)
        let async = try await HeatMapContours.compute(from: pts, configuration: Self.configuration)
        #expect(sync == async)
        #expect(sync.thresholds == async.thresholds)
        #expect(sync.grid.values == async.grid.values)
        #expect(sync.levelCount == 6)
    }

    @Test func resultsAreDeterministic() {
        let pts = Self.points()
        let a = HeatMapContours.compute(from: pts, configuration: Self.configuration)
        let b = HeatMapContours.compute(from: pts, configuration: Self.configuration)
        #expect(a == b)
        #expect(a.contours.map(\.coordinates) == b.contours.map(\.coordinates))
    }

    @Test func progressReportsTheStages() async throws {
        let stages = Mutex<Set<HeatMapStage>>([])
        _ = try await HeatMapContours.compute(from: Self.points(), configuration: Self.configuration) { report in
            #expect(report.fraction >= 0 && report.fraction <= 1)
            stages.withLock { _ = $0.insert(report.stage) }
        }
        let seen = stages.withLock { $0 }
        #expect(seen.contains(.density))
        #expect(seen.contains(.levels))
    }

    @Test func aCancelledTaskThrowsCancellationError() async {
        let pts = Self.points()
        let task = Task {
            try await HeatMapContours.compute(from: pts, configuration: Self.configuration)
        }
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
    }

    @Test func badPointsAreLeftOutAndCounted() {
        var pts = Self.points()
        pts.append(HeatMapPoint(id: 9001, latitude: 95, longitude: 174.8))
        pts.append(HeatMapPoint(id: 9002, latitude: -41.2, longitude: 174.8, weight: -1))
        pts.append(HeatMapPoint(id: 9003, latitude: .nan, longitude: 174.8))
        let r = HeatMapContours.compute(from: pts, configuration: Self.configuration)
        #expect(r.summary.used == 400)
        #expect(r.summary.rejectedCount == 3)
        #expect(r.summary.rejected["latitude outside [-90, 90]"] == 1)
        #expect(r.summary.rejected["weight is negative"] == 1)
    }

    @Test func strictModeRefusesTheFirstBadPoint() {
        var pts = Self.points()
        pts.insert(HeatMapPoint(id: 1, latitude: 12, longitude: 400), at: 5)
        #expect(throws: HeatMapError.invalidPoint(index: 5, reason: "longitude outside [-180, 360)")) {
            try HeatMapContours.compute(from: pts, configuration: Self.configuration, control: .none, strict: true)
        }
    }

    @Test func emptyAndDegenerateInputsGiveEmptyResults() {
        let none = HeatMapContours.compute(from: [HeatMapPoint](), configuration: Self.configuration)
        #expect(none.contours.isEmpty && none.levelCount == 0)
        let zero = HeatMapContours.compute(
            from: Self.points().map {
                HeatMapPoint(id: $0.id, coordinate: $0.coordinate, weight: 0)
            }, configuration: Self.configuration)
        #expect(zero.contours.isEmpty && zero.levelCount == 0)
        let one = HeatMapContours.compute(
            from: [HeatMapPoint(latitude: 10, longitude: 20)], configuration: Self.configuration)
        #expect(one.grid.maximum > 0)
    }
}
