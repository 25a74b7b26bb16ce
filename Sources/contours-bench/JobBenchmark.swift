import Foundation
import HeatMap
import Synchronization

/// `contours-bench job`: times the library job stage by stage, or cancels
/// it at many moments and reports how long each cancel took to throw.
enum JobBenchmark {
    static func main(_ arguments: [String]) async throws {
        let o = try JobOptions(arguments: arguments)
        let makeStart = DispatchTime.now().uptimeNanoseconds
        let readings = o.csv == nil ? try StormReadings.make(from: o.storms, count: o.count) : []
        let makeSeconds = Double(DispatchTime.now().uptimeNanoseconds - makeStart) / 1e9
        if let path = o.writeCSV {
            try StormReadings.writeCSV(readings, to: path)
            print("wrote \(readings.count) readings to \(path)")
            return
        }
        if o.input == .csv && o.csv == nil {
            throw BenchOptions.UsageError(
                description: "--input csv needs --csv FILE (write one with `contours-bench job --write-csv FILE`)")
        }
        let idle = o.polygons && o.csv == nil && o.input == .memory ? await AppPath.idleStall() : nil
        let cpuStart = CPUTime.seconds
        let whole = try await timed(o, readings: readings)
        let cpu = CPUTime.seconds - cpuStart
        var fields: [(String, String)] = [
            ("input", "\"\(o.input.rawValue)\""), ("n", "\(o.csv == nil ? readings.count : -1)"),
            ("smooth", "\(o.smooth)"), ("resolution", "\(o.resolution)"), ("levels", "\(whole.figures.levels)"),
            ("polygons", "\(whole.figures.polygons)"), ("vertices", "\(whole.figures.vertices)"),
            ("bytes", "\(whole.figures.bytes)"), ("make_s", seconds(makeSeconds))
        ]
        for (stage, s) in whole.stages { fields.append(("\(stage)_s", seconds(s))) }
        fields.append(("total_s", seconds(whole.total)))
        fields.append(("total_cpu_s", seconds(cpu)))
        if let wall = whole.figures.exportWall, let cpu = whole.figures.exportCPU {
            fields.append(("export_wall_s", seconds(wall)))
            fields.append(("export_cpu_s", seconds(cpu)))
        }
        if let app = whole.figures.app {
            fields.append(("stall_worst_ms", String(format: "%.1f", app.longestStall * 1000)))
            fields.append(("stall_p99_ms", String(format: "%.1f", app.stall99 * 1000)))
            fields.append(("main_cpu_ms", String(format: "%.2f", app.busy * 1000)))
            if let idle { fields.append(("idle_stall_worst_ms", String(format: "%.1f", idle * 1000))) }
            fields.append(("pings", "\(app.pings)"))
            fields.append(("read_ms", String(format: "%.3f", app.read * 1000)))
            fields.append(("first_tap_ms", String(format: "%.3f", app.firstTap * 1000)))
        }
        if o.cancelMoments > 0 || o.cancelAtReports {
            let cancels =
                o.cancelAtReports
                ? try await cancelAtReports(o, readings: readings, stages: whole.stages.map(\.0))
                : try await cancelAtMoments(o, readings: readings, total: whole.total)
            let latencies = cancels.compactMap(\.latency).sorted()
            fields.append(("cancels", "\(cancels.count)"))
            fields.append(("not_honoured", "\(cancels.filter { $0.latency == nil }.count)"))
            let runs = cancels.compactMap(\.cpu).sorted()
            if let worst = latencies.last, let most = runs.last {
                fields.append(("cancel_worst_ms", String(format: "%.1f", worst * 1000)))
                fields.append(("cancel_median_ms", String(format: "%.1f", latencies[latencies.count / 2] * 1000)))
                fields.append(("cancel_worst_cpu_ms", String(format: "%.1f", most * 1000)))
                fields.append(("cancel_median_cpu_ms", String(format: "%.1f", runs[runs.count / 2] * 1000)))
            }
            for c in cancels {
                let ms = c.latency.map { String(format: "%.1f ms", $0 * 1000) } ?? "finished"
                let cpu = c.cpu.map { String(format: " (one thread ran %.1f ms)", $0 * 1000) } ?? ""
                FileHandle.standardError.write(Data("cancel at \(c.at): \(ms)\(cpu)\n".utf8))
            }
        }
        fields.append(("peak_mb", String(format: "%.0f", PeakMemory.megabytes)))
        print("{" + fields.map { "\"\($0.0)\": \($0.1)" }.joined(separator: ", ") + "}")
    }

    static func seconds(_ s: Double) -> String { String(format: "%.3f", s) }

    /// A whole run, with its stages' seconds.
    static func timed(_ o: JobOptions, readings: [StormReading])
        async throws -> (figures: JobRun.Figures, stages: [(String, Double)], total: Double)
    {
        let clock = StageClock()
        let figures = try await JobRun.run(o, readings: readings, csv: o.csv, clock: clock, flag: CancellationFlag())
        let end = clock.now
        return (figures, clock.durations(end: end), Double(end) / 1e9)
    }

    struct Cancel {
        var at: String
        /// Seconds from cancel to the throw; nil when the job finished instead.
        var latency: Double?
        /// The most CPU time one thread ran in that while (seconds).
        var cpu: Double?
    }

    /// Starts a run, cancels it when `trigger` fires, and measures.
    static func cancelled(
        _ o: JobOptions, readings: [StormReading],
        trigger: @escaping @Sendable (StageClock, @escaping @Sendable () -> Void) async -> Void
    )
        async throws -> Cancel
    {
        let clock = StageClock()
        let flag = CancellationFlag()
        let issued = Atomic<UInt64>(0)
        let clocks = Mutex<[Int: UInt64]>([:])
        let task = Task {
            try await JobRun.run(o, readings: readings, csv: o.csv, clock: clock, flag: flag)
        }
        let fire: @Sendable () -> Void = {
            if issued.load(ordering: .relaxed) != 0 { return }
            clocks.withLock { $0 = ThreadClock.snapshot() }
            issued.store(DispatchTime.now().uptimeNanoseconds, ordering: .relaxed)
            flag.cancel()
            task.cancel()
        }
        let watcher = Task { await trigger(clock, fire) }
        let place = { () -> String in
            clock.last.map { "\($0.stage.rawValue) \(String(format: "%.2f", $0.fraction))" } ?? "start"
        }
        do {
            _ = try await task.value
            watcher.cancel()
            // Ended before the moment came: nothing to measure.
            if issued.load(ordering: .relaxed) == 0 { return Cancel(at: place() + ", ended first", latency: 0, cpu: 0) }
            return Cancel(at: place(), latency: nil, cpu: nil)
        } catch is CancellationError {
            let end = DispatchTime.now().uptimeNanoseconds
            let cpu = ThreadClock.largestRun(from: clocks.withLock { $0 }, to: ThreadClock.snapshot())
            watcher.cancel()
            let start = issued.load(ordering: .relaxed)
            return Cancel(
                at: place(), latency: start == 0 ? nil : Double(end - start) / 1e9, cpu: start == 0 ? nil : cpu)
        }
    }

    /// Cancels at `count` moments spread evenly over a run of `total` seconds.
    static func cancelAtMoments(_ o: JobOptions, readings: [StormReading], total: Double) async throws -> [Cancel] {
        var out: [Cancel] = []
        for k in 1...o.cancelMoments {
            let moment = total * Double(k) / Double(o.cancelMoments + 1)
            let c = try await cancelled(o, readings: readings) { _, fire in
                try? await Task.sleep(nanoseconds: UInt64(moment * 1e9))
                if !Task.isCancelled { fire() }
            }
            out.append(Cancel(at: String(format: "%.2f s (%@)", moment, c.at), latency: c.latency, cpu: c.cpu))
        }
        return out
    }

    /// Cancels at the first report of each stage at or past each fraction.
    static func cancelAtReports(_ o: JobOptions, readings: [StormReading], stages: [String]) async throws -> [Cancel] {
        var out: [Cancel] = []
        for stage in stages where o.cancelStages.isEmpty || o.cancelStages.contains(stage) {
            guard let kind = HeatMapStage(rawValue: stage) else { continue }
            for fraction in [0.0, 0.25, 0.5, 0.75, 1.0] {
                let c = try await cancelled(o, readings: readings) { clock, fire in
                    while !Task.isCancelled {
                        if let last = clock.last, last.stage == kind, last.fraction >= fraction { fire(); return }
                        try? await Task.sleep(nanoseconds: 200_000)
                    }
                }
                out.append(Cancel(at: "\(stage) ≥ \(fraction) (\(c.at))", latency: c.latency, cpu: c.cpu))
            }
        }
        return out
    }
}
