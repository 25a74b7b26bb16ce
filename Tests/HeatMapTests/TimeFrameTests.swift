import Foundation
import Synchronization
import Testing

@testable import HeatMapContouring
@testable import HeatMapCore
@testable import HeatMapDensity
@testable import HeatMapFormats

/// Times (ISO 8601, calendar parts), frame schedules, framed densities and
/// the timeline API (docs/time.md).
@Suite struct TimeFrameTests {
    // MARK: Calendar and parsing

    @Test func calendarMatchesFoundationOverCenturies() throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try #require(TimeZone(identifier: "UTC"))
        var rng = SplitMix(seed: 7)
        for _ in 0..<2000 {
            let days = Int(rng.next() % 200_000) - 100_000  // 1696 … 2243
            let d = UTCCalendar.date(days: days)
            #expect(UTCCalendar.days(year: d.year, month: d.month, day: d.day) == days)
            let date = Date(timeIntervalSince1970: Double(days) * 86_400)
            let c = calendar.dateComponents([.year, .month, .day], from: date)
            #expect(c.year == d.year && c.month == d.month && c.day == d.day)
        }
        #expect(UTCCalendar.days(year: 1970, month: 1, day: 1) == 0)
        #expect(UTCCalendar.days(year: 2000, month: 3, day: 1) == 11_017)
    }

    @Test(arguments: [
        ("2021-06-01", 1_622_505_600.0),
        ("2021-06-01T12:30:00Z", 1_622_550_600.0),
        ("2021-06-01T12:30Z", 1_622_550_600.0),
        ("2021-06-01 12:30:00", 1_622_550_600.0),
        ("2021-06-01T14:30:00+02:00", 1_622_550_600.0),
        ("2021-06-01T14:30:00+0200", 1_622_550_600.0),
        ("2021-06-01T07:00:00-05:30", 1_622_550_600.0),
        ("2021-06-01T12:30:00.250Z", 1_622_550_600.25),
        ("  2021-06-01T12:30:00.5+00:00 ", 1_622_550_600.5),
        ("1900-02-28T23:59:59Z", -2_203_891_201.0),
        ("2000-02-29", 951_782_400.0)
    ])
    func readsISO8601(_ text: String, _ expected: Double) throws {
        let t = try TimeParser.iso8601(text).get()
        #expect(abs(t - expected) < 1e-6)
    }

    @Test(arguments: [
        "", "2021", "2021-13-01", "2021-02-29", "1900-02-29", "2021-06-01T25:00", "2021-06-01T12",
        "2021-06-01T12:30:00.Z", "2021-06-01T12:30:00+2", "21-06-01", "yesterday", "2021-06-01T12:30:00Zulu"
    ])
    func refusesWhatIsNotADate(_ text: String) {
        #expect(throws: TimeParser.Failure.self) { try TimeParser.iso8601(text).get() }
    }

    @Test func writesISO8601() {
        #expect(UTCCalendar.iso8601(0) == "1970-01-01T00:00:00Z")
        #expect(UTCCalendar.iso8601(1_622_550_600.25) == "2021-06-01T12:30:00.25Z")
        #expect(UTCCalendar.iso8601(-2_203_891_201) == "1900-02-28T23:59:59Z")
        #expect(
            UTCCalendar.adding(months: 1, to: try! TimeParser.iso8601("2021-01-31").get())
                == (try! TimeParser.iso8601("2021-02-28").get()))
    }

    /// Pictures name a frame's dates as a reader counts them: whole days by
    /// their last day, not by the excluded end.
    @Test func frameLabelsNameTheLastDay() {
        #expect(
            FramePictures.label(start: "2021-01-01T00:00:00Z", end: "2021-01-08T00:00:00Z") == "2021-01-01 – 2021-01-07"
        )
        #expect(
            FramePictures.label(start: "2024-02-01T00:00:00Z", end: "2024-03-01T00:00:00Z") == "2024-02-01 – 2024-02-29"
        )
        #expect(FramePictures.label(start: "2020-12-31T00:00:00Z", end: "2021-01-01T00:00:00Z") == "2020-12-31")
        #expect(
            FramePictures.label(start: "2021-01-05T06:00:00Z", end: "2021-01-05T12:00:00Z")
                == "2021-01-05 06:00 UTC – 2021-01-05 12:00 UTC")
        #expect(
            FramePictures.label(start: "2021-01-05T00:00:00Z", end: "2021-01-05T12:00:00Z")
                == "2021-01-05 – 2021-01-05 12:00 UTC")
    }

    // MARK: Schedules

    func t(_ text: String) -> Double { (try? TimeParser.iso8601(text).get()) ?? .nan }

    @Test func monthsFollowTheCalendar() throws {
        let s = try FrameSchedule(
            TimeFrameOptions(step: TimeStep(1, .month)), earliest: t("2020-01-15T10:00:00Z"),
            latest: t("2020-04-02"))
        #expect(
            s.frames.map { UTCCalendar.iso8601($0.start) }
                == ["2020-01-01T00:00:00Z", "2020-02-01T00:00:00Z", "2020-03-01T00:00:00Z", "2020-04-01T00:00:00Z"])
        #expect(UTCCalendar.iso8601(s.frames[1].end) == "2020-03-01T00:00:00Z")  // 29 days: a leap year
        #expect(s.interval(of: t("2020-02-29T23:59:59Z")) == 1)
        #expect(s.interval(of: t("2020-03-01")) == 2)
        #expect(s.interval(of: t("2019-12-31")) == nil)
    }

    /// Frames from a day a later month lacks still tile time: each ends
    /// where the next starts, both counted from the first start (from
    /// January 31 the second frame is February 28 … March 31, not … March
    /// 28), so no point falls between them; the same from February 29 by years.
    @Test(arguments: [
        ("2021-01-31", TimeStep(1, .month), "2021-06-15", "2021-03-29T12:00:00Z"),
        ("2020-02-29", TimeStep(1, .year), "2026-01-01", "2024-02-28T12:00:00Z"),
        ("2021-01-30", TimeStep(3, .month), "2022-01-01", "2021-04-30T12:00:00Z")
    ])
    func calendarFramesFromAMonthsEndTileTime(from: String, step: TimeStep, latest: String, lost: String) throws {
        let s = try FrameSchedule(TimeFrameOptions(step: step, from: t(from)), earliest: t(from), latest: t(latest))
        #expect(s.frames.count >= 3)
        for (a, b) in zip(s.frames, s.frames.dropFirst()) {
            #expect(a.end == b.start, "\(UTCCalendar.iso8601(a.end)) against \(UTCCalendar.iso8601(b.start))")
        }
        #expect(!s.hasGaps)
        #expect(s.interval(of: t(lost)) != nil)
        // A window of its own is measured from the first start as well.
        let wide = try FrameSchedule(
            TimeFrameOptions(step: step, window: TimeStep(2 * step.count, step.unit), from: t(from)),
            earliest: t(from), latest: t(latest))
        for (a, c) in zip(wide.frames, wide.frames.dropFirst(2)) { #expect(a.end == c.start) }
    }

    /// Windows shorter than their step leave time in no frame: a point
    /// there is in no interval, so it counts as in no frame.
    @Test func pointsBetweenShortWindowsAreInNoFrame() throws {
        let s = try FrameSchedule(
            TimeFrameOptions(step: TimeStep(1, .month), window: TimeStep(2, .week)),
            earliest: t("2021-01-01"), latest: t("2021-03-20"))
        #expect(s.hasGaps)
        #expect(s.interval(of: t("2021-01-10")) != nil)
        #expect(s.interval(of: t("2021-01-20")) == nil)
        #expect(s.interval(of: t("2021-02-03")) != nil)
    }

    @Test func slidingAndCumulativeWindows() throws {
        let sliding = try FrameSchedule(
            TimeFrameOptions(step: TimeStep(1, .day), window: TimeStep(7, .day)),
            earliest: t("2021-03-01T05:00:00Z"), latest: t("2021-03-10"))
        #expect(sliding.frames.count == 10)
        #expect(sliding.frames.allSatisfy { $0.end - $0.start == 7 * 86_400 })
        #expect(sliding.runs.allSatisfy { $0.count == 7 })
        let cumulative = try FrameSchedule(
            TimeFrameOptions(step: TimeStep(1, .year), cumulative: true),
            earliest: t("2001-06-01"), latest: t("2003-01-01"))
        #expect(cumulative.frames.map(\.start) == [t("2001-01-01"), t("2001-01-01"), t("2001-01-01")])
        #expect(cumulative.frames.map(\.end) == [t("2002-01-01"), t("2003-01-01"), t("2004-01-01")])
    }

    @Test func refusesEmptyRangesAndTooManyFrames() {
        #expect(throws: HeatMapError.self) {
            try FrameSchedule(
                TimeFrameOptions(step: TimeStep(1, .day), from: t("2022-01-01")),
                earliest: t("2021-01-01"), latest: t("2021-06-01"))
        }
        #expect(throws: HeatMapError.self) {
            try FrameSchedule(
                TimeFrameOptions(step: TimeStep(1, .hour)), earliest: t("2000-01-01"), latest: t("2021-06-01"))
        }
        #expect(throws: HeatMapError.self) { try TimeStep(parsing: "0d") }
        #expect(throws: HeatMapError.self) { try TimeStep(parsing: "0.5s") }
        #expect(throws: HeatMapError.self) { try TimeStep(parsing: "3 fortnights") }
        #expect((try? TimeStep(parsing: "6h")) == TimeStep(6, .hour))
        #expect((try? TimeStep(parsing: "1mo")) == TimeStep(1, .month))
    }

    // MARK: Frames and the timeline

    struct Fix: HeatMapTimed {
        var id: Int
        var coordinate: LocationCoordinate2D
        var weight: Double
        var time: Date
    }

    /// 3,000 fixes over 90 days that drift east.
    static func fixes() -> [Fix] {
        var rng = SplitMix(seed: 11)
        return (0..<3000).map { i in
            let u = Double(rng.next() % 1_000_000) / 1_000_000
            let v = Double(rng.next() % 1_000_000) / 1_000_000
            let w = Double(rng.next() % 1_000_000) / 1_000_000
            let day = 90 * u
            return Fix(
                id: i, coordinate: LocationCoordinate2D(latitude: 40 + 2 * v, longitude: -100 + day / 10 + w),
                weight: 0.5 + w, time: Date(timeIntervalSince1970: 1_609_459_200 + day * 86_400))
        }
    }

    /// Frame options made in code, not parsed: a step of nothing, a
    /// negative or huge one, and a range end that is no time are refused
    /// at once, each naming the option (a step of 0 counted frames to ten
    /// million, then blamed the tool's flags).
    @Test func frameOptionsMadeInCodeAreChecked() async throws {
        let fixes = Array(Self.fixes().prefix(50))
        let bad: [(TimeFrameOptions, String)] = [
            (TimeFrameOptions(step: TimeStep(0, .day)), "frame step 0d: no time at all"),
            (TimeFrameOptions(step: TimeStep(-3, .hour)), "frame step -3h: no time at all"),
            (TimeFrameOptions(step: TimeStep(1, .day), window: TimeStep(0, .week)), "frame window 0w"),
            (TimeFrameOptions(step: TimeStep(200_000, .second)), "frame step 200000s: too long"),
            (TimeFrameOptions(step: TimeStep(1, .day), to: .nan), "frame range to is nan"),
            (TimeFrameOptions(step: TimeStep(1, .day), from: -.infinity), "frame range from is -inf")
        ]
        for (options, message) in bad {
            do {
                _ = try await HeatMapTimeline.prepare(fixes, frames: options)
                Issue.record("\(options) was accepted")
            } catch HeatMapError.invalidConfiguration(let text) {
                #expect(text.hasPrefix(message), "\(text)")
                #expect(!text.contains("--"), "\(text)")
            }
        }
        _ = try await HeatMapTimeline.prepare(fixes, frames: TimeFrameOptions(step: TimeStep(100_000, .second)))
    }

    /// Each frame's grid is the density of the frame's own points on the
    /// timeline's grid, radius and projection (the kernel sum is linear,
    /// so a sliding window's running sum must match it), and every frame
    /// carries the same thresholds.
    @Test func framesEqualTheDensityOfTheirOwnPoints() async throws {
        let fixes = Self.fixes()
        let options = TimeFrameOptions(step: TimeStep(7, .day), window: TimeStep(28, .day))
        var configuration = HeatMapConfiguration()
        configuration.gridResolution = 80
        let timeline = try await HeatMapTimeline.prepare(fixes, configuration: configuration, frames: options)
        #expect(timeline.spans.count == 13)
        #expect(!timeline.thresholds.isEmpty)
        var seen = 0
        for try await frame in timeline.frames {
            #expect(frame.thresholds == timeline.thresholds)
            #expect(frame.grid.geometry == timeline.geometry && frame.grid.radius == timeline.radius)
            if frame.span.index % 4 == 0 {
                let own = fixes.filter { frame.span.contains($0.time.timeIntervalSince1970) }
                var planes = PlanePoints()
                for p in own {
                    let q = frame.grid.projection.project(p.coordinate)
                    planes.append(x: q.x, y: q.y, weight: p.weight, value: nil)
                }
                var exact = try DensityAccumulator(
                    geometry: timeline.geometry, radius: timeline.radius,
                    projection: frame.grid.projection, method: .exact)
                try exact.add(planes)
                let expected = try exact.finish()
                let peak = expected.values.max() ?? 0
                let worst = zip(frame.grid.values, expected.values).map { abs($0 - $1) }.max() ?? 0
                #expect(peak > 0 && worst <= 1e-3 * peak, "frame \(frame.span.index): \(worst) vs \(peak)")
            }
            seen += 1
        }
        #expect(seen == 13)
    }

    struct Reading: HeatMapTimed, HeatMapMeasurable {
        var id: Int
        var coordinate: LocationCoordinate2D
        var weight: Double
        var value: Double
        var time: Date
    }

    /// Under the mean estimator and a finite kernel each frame is the
    /// kernel-weighted mean of its own points' values (negative ones
    /// included), undefined where the frame's points are too far, exactly
    /// as the mean of those points alone on the timeline's grid.
    @Test func meanFramesEqualTheMeanOfTheirOwnPoints() async throws {
        let readings = Self.fixes().map { f in
            Reading(
                id: f.id, coordinate: f.coordinate, weight: f.weight,
                value: 10 * sin(f.coordinate.longitude) - 3, time: f.time)
        }
        var configuration = HeatMapConfiguration()
        configuration.gridResolution = 60
        configuration.estimator = .mean
        configuration.kernel = .quartic
        let timeline = try await HeatMapTimeline.prepare(
            readings, configuration: configuration,
            frames: TimeFrameOptions(step: TimeStep(30, .day)))
        #expect(!timeline.thresholds.isEmpty && timeline.thresholds[0] < 0)
        var checked = 0
        for try await frame in timeline.frames {
            let own = readings.filter { frame.span.contains($0.time.timeIntervalSince1970) }
            var planes = PlanePoints()
            for p in own {
                let q = frame.grid.projection.project(p.coordinate)
                planes.append(x: q.x, y: q.y, weight: p.weight, value: p.value)
            }
            var exact = try DensityAccumulator(
                geometry: timeline.geometry, radius: timeline.radius,
                projection: frame.grid.projection, estimator: .mean, method: .exact, kernel: .quartic)
            try exact.add(planes)
            let expected = try exact.finish()
            #expect(frame.grid.estimator == .mean)
            var defined = 0
            for (a, b) in zip(frame.grid.values, expected.values) {
                #expect(a.isNaN == b.isNaN)
                if !a.isNaN, !b.isNaN {
                    defined += 1
                    // The frames' numerator and denominator are quartic
                    // density sums, splatted in single precision
                    // (BandSplat): measured within 2e−6 here.
                    #expect(abs(a - b) <= 1e-5 * 13, "\(a) vs \(b)")
                }
            }
            #expect(defined > 0)
            checked += 1
        }
        #expect(checked == timeline.spans.count)
    }

    struct Sighting: HeatMapTimed, HeatMapRadial {
        var id: Int
        var coordinate: LocationCoordinate2D
        var weight: Double
        var radius: Double
        var time: Date
    }

    /// The exact density of `points` on the timeline's grid, each with its
    /// own radius (plane units).
    static func exactDensity(
        _ points: [(coordinate: LocationCoordinate2D, weight: Double, radius: Double)],
        on timeline: HeatMapTimeline, projection: PlaneProjection, kernel: DensityKernel
    ) throws -> DensityGrid {
        var planes = PlanePoints()
        for p in points {
            let q = projection.project(p.coordinate)
            planes.append(x: q.x, y: q.y, weight: p.weight, value: nil, radius: p.radius)
        }
        var exact = try DensityAccumulator(
            geometry: timeline.geometry, radius: timeline.radius, projection: projection,
            method: .exact, kernel: kernel, maximumRadius: planes.radius?.max() ?? timeline.radius)
        try exact.add(planes)
        return try exact.finish()
    }

    /// A point type with its own radius keeps it in every frame that holds
    /// it: each frame is the exact sum of its points at their radii; a bad
    /// radius leaves its point out, counted.
    @Test func radialFramesKeepEachPointsRadius() async throws {
        var sightings = Self.fixes().map { f in
            Sighting(
                id: f.id, coordinate: f.coordinate, weight: f.weight,
                radius: 20_000 + 60_000 * abs(sin(Double(f.id))), time: f.time)
        }
        sightings[7].radius = 0
        sightings[8].radius = .nan
        var configuration = HeatMapConfiguration()
        configuration.gridResolution = 70
        configuration.kernel = .quartic
        let timeline = try await HeatMapTimeline.prepare(
            sightings, configuration: configuration,
            frames: TimeFrameOptions(step: TimeStep(14, .day), window: TimeStep(28, .day)))
        #expect(timeline.summary.rejected["bad radius"] == 2)
        var checked = 0
        for try await frame in timeline.frames where frame.span.index % 3 == 1 {
            let own = sightings.filter {
                frame.span.contains($0.time.timeIntervalSince1970) && $0.radius.isFinite && $0.radius > 0
            }
            let expected = try Self.exactDensity(
                own.map { ($0.coordinate, $0.weight, $0.radius) }, on: timeline,
                projection: frame.grid.projection, kernel: .quartic)
            let peak = expected.values.max() ?? 0
            let worst = zip(frame.grid.values, expected.values).map { abs($0 - $1) }.max() ?? 0
            // The quartic's density splat sums in single precision (BandSplatTests).
            #expect(peak > 0 && worst <= 7e-5 * peak, "frame \(frame.span.index): \(worst) vs \(peak)")
            checked += 1
        }
        #expect(checked >= 2)
    }

    /// An adaptive bandwidth gives each point one radius from a pilot over
    /// ALL points (so a point keeps its radius whichever frames hold it):
    /// each frame is the exact sum of its points at those radii.
    @Test func adaptiveFramesTakeTheirRadiiFromAllPoints() async throws {
        let fixes = Self.fixes()
        var configuration = HeatMapConfiguration()
        configuration.gridResolution = 70
        configuration.kernel = .epanechnikov
        configuration.radius = 60_000
        configuration.bandwidth = .adaptive(sensitivity: 0.5)
        let timeline = try await HeatMapTimeline.prepare(
            fixes, configuration: configuration, frames: TimeFrameOptions(step: TimeStep(30, .day)))
        var frames: [HeatMapFrame] = []
        for try await frame in timeline.frames { frames.append(frame) }
        let projection = try #require(frames.first).grid.projection
        var all = PlanePoints()
        for p in fixes {
            let q = projection.project(p.coordinate)
            all.append(x: q.x, y: q.y, weight: p.weight, value: nil)
        }
        let chosen = try AdaptivePilot.radii(
            of: all, kernel: .epanechnikov, radius: timeline.radius,
            rule: AdaptiveBandwidth(sensitivity: 0.5), control: .none)
        #expect(Set(chosen.radii).count > 100)
        for frame in frames {
            let own = fixes.indices.filter { frame.span.contains(fixes[$0].time.timeIntervalSince1970) }
            let expected = try Self.exactDensity(
                own.map { (fixes[$0].coordinate, fixes[$0].weight, chosen.radii[$0]) }, on: timeline,
                projection: projection, kernel: .epanechnikov)
            let peak = expected.values.max() ?? 0
            let worst = zip(frame.grid.values, expected.values).map { abs($0 - $1) }.max() ?? 0
            // The Epanechnikov's density splat sums in single precision (BandSplatTests).
            #expect(peak > 0 && worst <= 7e-5 * peak, "frame \(frame.span.index): \(worst) vs \(peak)")
        }
    }

    /// The shared thresholds are those of every frame's values together,
    /// exactly (not of a sample, nor of one frame), for each rule that
    /// reads their order.
    @Test(arguments: [LevelSpacing.quantile, .auto, .linear, .logarithmic])
    func sharedThresholdsAreThoseOfAllFramesValues(_ spacing: LevelSpacing) async throws {
        var configuration = HeatMapConfiguration()
        configuration.gridResolution = 60
        configuration.contourLevels = 12
        configuration.levelSpacing = spacing
        let timeline = try await HeatMapTimeline.prepare(
            Self.fixes(), configuration: configuration,
            frames: TimeFrameOptions(step: TimeStep(3, .day), window: TimeStep(9, .day)))
        var all: [Double] = []
        for try await frame in timeline.frames { all += frame.grid.values }
        let expected = ThresholdResolver.thresholds(
            for: spacing, levelCount: 12, values: all, floor: 0)
        #expect(!expected.isEmpty && timeline.thresholds == expected)
    }

    /// Cancelling while the interval grids are being filled stops the
    /// preparation there (driven by its progress report, not a clock).
    @Test func preparingIsCancellable() throws {
        let fixes = Self.fixes()
        let flag = CancellationFlag()
        let stages = Mutex<[HeatMapStage]>([])
        let control = ComputeControl(
            cancellation: flag,
            progress: { report in
                stages.withLock { $0.append(report.stage) }
                if report.stage == .density { flag.cancel() }
            })
        #expect(throws: CancellationError.self) {
            try HeatMapTimeline.prepare(
                fixes, configuration: HeatMapConfiguration(),
                frames: TimeFrameOptions(step: TimeStep(1, .day)), control: control)
        }
        #expect(!stages.withLock { $0.contains(.levels) })
    }
}
