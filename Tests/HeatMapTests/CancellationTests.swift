import Foundation
import Synchronization
import Testing

@testable import HeatMapContouring
@testable import HeatMapCore
@testable import HeatMapDensity
@testable import HeatMapFormats

/// Cancellation at every stage (docs/faults.md): a job cancelled at any of its progress
/// reports — early, midway or at the very last one — throws
/// `CancellationError` instead of finishing, and starts no further stage.
/// Driven by the reports themselves, not by clocks, so the test holds on a
/// slow debug build; `contours-bench job --cancel-moments` measures the
/// latency in milliseconds on a release build.
@Suite struct CancellationTests {
    /// A client's own point type, as in the library job.
    struct Reading: HeatMapable {
        let id: Int
        let coordinate: LocationCoordinate2D
        let weight: Double
    }

    /// Three storm-like tracks of readings, smoothed bands at quantile levels.
    static let readings: [Reading] = {
        var rng = SplitMix(seed: 11)
        return (0..<24_000).map { i in
            let t = Double(i % 2000) / 2000, track = Double(i % 3)
            return Reading(
                id: i,
                coordinate: LocationCoordinate2D(
                    latitude: 15 + 25 * t + rng.uniform(-0.5, 0.5) + track * 3,
                    longitude: -80 + 40 * t * t + rng.uniform(-0.5, 0.5) - track * 6),
                weight: rng.uniform(20, 120))
        }
    }()

    static let configuration = HeatMapConfiguration(
        radius: 40_000, contourLevels: 10, levelSpacing: .quantile,
        gridResolution: 300)

    /// The whole job: contours computed, then their polygons (assembled
    /// and unprojected band by band), under one control.
    @discardableResult
    static func job(_ control: ComputeControl) throws -> [HeatMapPolygon] {
        try HeatMapContours.compute(from: readings, configuration: configuration, control: control)
            .polygons(control: control)
    }

    /// Every report of a whole run, in order.
    static func reports() throws -> [HeatMapProgress] {
        let seen = Mutex<[HeatMapProgress]>([])
        try job(ComputeControl(progress: { r in seen.withLock { $0.append(r) } }))
        return seen.withLock { $0 }
    }

    /// Up to `count` report indices spread over the run, the first and last included.
    static func moments(_ total: Int, count: Int) -> [Int] {
        guard total > count else { return Array(0..<total) }
        return (0..<count).map { $0 * (total - 1) / (count - 1) }
    }

    @Test func everyStageReportsAndTheRunEndsWithTheLast() throws {
        let reports = try Self.reports()
        let stages = Set(reports.map(\.stage))
        for stage: HeatMapStage in [.project, .density, .levels, .contour, .smooth, .assemble] {
            #expect(stages.contains(stage), "no report from \(stage)")
        }
        #expect(reports.count > 20)
    }

    @Test func aCancelAtAnyReportThrowsAndStartsNoFurtherStage() throws {
        let total = try Self.reports().count
        for k in Self.moments(total, count: 16) {
            let flag = CancellationFlag()
            let seen = Mutex<(count: Int, stageAtCancel: HeatMapStage?, later: Set<HeatMapStage>)>((0, nil, []))
            let control = ComputeControl(
                cancellation: flag,
                progress: { r in
                    seen.withLock { s in
                        if let stage = s.stageAtCancel {
                            if r.stage != stage { s.later.insert(r.stage) }
                        } else if s.count == k {
                            s.stageAtCancel = r.stage
                            flag.cancel()
                        }
                        s.count += 1
                    }
                })
            #expect(throws: CancellationError.self, "cancelled at report \(k) of \(total)") {
                try Self.job(control)
            }
            let s = seen.withLock { $0 }
            #expect(s.stageAtCancel != nil)
            #expect(
                s.later.isEmpty,
                "report \(k): stages \(s.later) ran after the cancel in \(String(describing: s.stageAtCancel))")
        }
    }

    @Test func theAsyncAPIThrowsWhenItsTaskIsCancelledLate() async throws {
        let seen = Mutex<Int>(0)
        _ = try HeatMapContours.compute(
            from: Self.readings, configuration: Self.configuration,
            control: ComputeControl(progress: { _ in seen.withLock { $0 += 1 } }))
        let total = seen.withLock { $0 }
        for k in [total / 3, (2 * total) / 3, total - 1] {
            let count = Atomic<Int>(0)
            let started = Mutex<Task<HeatMapContours, any Error>?>(nil)
            let task = Task {
                try await HeatMapContours.compute(from: Self.readings, configuration: Self.configuration) { _ in
                    if count.add(1, ordering: .relaxed).oldValue == k { started.withLock { $0?.cancel() } }
                }
            }
            started.withLock { $0 = task }
            await #expect(throws: CancellationError.self, "cancelled at report \(k) of \(total)") {
                try await task.value
            }
        }
    }

    /// A result computed for an export (no polygons) makes them on request,
    /// cancellably; the app's result has them already.
    @Test func polygonConversionIsCancellableAndAgreesWithContours() async throws {
        let app = try HeatMapContours.compute(from: Self.readings, configuration: Self.configuration, control: .none)
        let result = try HeatMapContours.compute(
            from: Self.readings, configuration: Self.configuration,
            control: .none, kinds: .bands)
        let flag = CancellationFlag()
        flag.cancel()
        #expect(throws: CancellationError.self) { try result.polygons(control: ComputeControl(cancellation: flag)) }
        // A cancelled conversion leaves nothing behind: the next one starts again.
        let made = try await result.polygons()
        #expect(made.map(\.id) == app.contours.map(\.id))
        #expect(made.map(\.coordinates) == app.contours.map(\.coordinates))
        #expect(!made.isEmpty)
    }
}
