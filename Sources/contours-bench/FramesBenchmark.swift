import Foundation
import HeatMap

/// `contours-bench frames`: maps over time against one map of all the
/// points (docs/time.md). Generates N seeded points over one year (2021,
/// clusters that drift and pulse with the season), then times, in one
/// process: the contours of all points at once (`all_s`, as one export
/// computes them), and a timeline of the same points — the grid, radius
/// and shared thresholds planned, every frame made and contoured at them
/// (`frames_s`), each with its CPU seconds (user + system, all threads)
/// beside the wall. `--csv PATH` also writes the points (lat,lon,w,time) for
/// timing the tool itself on them.
enum FramesBenchmark {
    static let usage = """
        usage: contours-bench frames [--points N] [--resolution R] [--step 1d] [--window 7d] [--csv PATH]
        """

    struct Fix: HeatMapTimed {
        var id: Int
        var coordinate: LocationCoordinate2D
        var weight: Double
        var time: Date
    }

    static func run(_ arguments: [String]) async throws {
        var n = 1_000_000, resolution = 500
        var step = TimeStep(1, .day), window: TimeStep? = TimeStep(7, .day)
        var csv: String?
        var args = BenchArguments(arguments)
        while let option = args.option {
            switch option {
            case "--points": n = try args.whole(option)
            case "--resolution": resolution = try args.whole(option, minimum: 2)
            case "--step": step = try TimeStep(parsing: try args.value(option))
            case "--window": window = try TimeStep(parsing: try args.value(option))
            case "--csv": csv = try args.value(option)
            case "-h", "--help": throw BenchOptions.UsageError(description: "")
            default: throw BenchOptions.UsageError(description: "unknown option \(option)")
            }
            args.next()
        }
        let points = generate(n)
        if let csv { try write(points, to: csv) }
        var configuration = HeatMapConfiguration()
        configuration.gridResolution = resolution
        configuration.smoother = .none
        // The tool's default radius rule (the library's default is a fixed 500 m).
        configuration.bandwidth = .auto

        let allStart = DispatchTime.now().uptimeNanoseconds, allCPU = CPUTime.seconds
        let all = try HeatMapContours.compute(from: points, configuration: configuration, control: .none)
        let allPolygons = all.contourSet.bands.reduce(0) { $0 + $1.count }
        let allSeconds = Double(DispatchTime.now().uptimeNanoseconds - allStart) / 1e9
        let allCPUSeconds = CPUTime.seconds - allCPU

        let start = DispatchTime.now().uptimeNanoseconds, startCPU = CPUTime.seconds
        let timeline = try HeatMapTimeline.prepare(
            points, configuration: configuration,
            frames: TimeFrameOptions(step: step, window: window),
            control: .none)
        let prepared = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        let preparedCPU = CPUTime.seconds - startCPU
        var polygons = 0, frames = 0
        for try await frame in timeline.frames {
            let contours = try await frame.contours(kinds: .bands)
            polygons += contours.contourSet.bands.reduce(0) { $0 + $1.count }
            frames += 1
        }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        let cpu = CPUTime.seconds - startCPU
        let fields: [(String, String)] = [
            ("n", "\(n)"), ("frames", "\(frames)"), ("step", "\"\(step)\""), ("window", "\"\(window ?? step)\""),
            ("cols", "\(timeline.geometry.columns)"), ("rows", "\(timeline.geometry.rows)"),
            ("radius", "\(timeline.radius)"), ("levels", "\(timeline.thresholds.count)"),
            ("all_s", "\(allSeconds)"), ("all_cpu_s", "\(allCPUSeconds)"), ("all_polygons", "\(allPolygons)"),
            ("prepare_s", "\(prepared)"), ("prepare_cpu_s", "\(preparedCPU)"),
            ("frames_s", "\(seconds)"), ("frames_cpu_s", "\(cpu)"), ("frame_polygons", "\(polygons)"),
            ("ratio", "\(seconds / allSeconds)"), ("cpu_ratio", "\(cpu / allCPUSeconds)"),
            ("peak_mb", "\(PeakMemory.megabytes)")
        ]
        print("{" + fields.map { "\"\($0.0)\": \($0.1)" }.joined(separator: ", ") + "}")
    }

    /// N fixes over 2021: three clusters that drift east and pulse with the season.
    static func generate(_ n: Int) -> [Fix] {
        var rng = SplitMixGenerator(seed: 2021)
        let year = 365.0 * 86_400, start = 1_609_459_200.0
        func gauss() -> Double {
            let u = Double.random(in: Double.ulpOfOne..<1, using: &rng), v = Double.random(in: 0..<1, using: &rng)
            return (-2 * log(u)).squareRoot() * cos(2 * .pi * v)
        }
        return (0..<n).map { i in
            let t = Double.random(in: 0..<year, using: &rng)
            let phase = t / year
            let c = i % 3
            let lat = [35.0, 42.0, 30.0][c] + 3 * phase + 1.2 * gauss()
            let lon = [-100.0, -88.0, -82.0][c] + 10 * phase + (1.5 + sin(2 * .pi * phase)) * gauss()
            return Fix(
                id: i, coordinate: LocationCoordinate2D(latitude: lat, longitude: lon),
                weight: 1, time: Date(timeIntervalSince1970: start + t))
        }
    }

    static func write(_ points: [Fix], to path: String) throws {
        guard
            let out = FileHandle(forWritingAtPath: path)
                ?? {
                    _ = FileManager.default.createFile(atPath: path, contents: nil)
                    return FileHandle(forWritingAtPath: path)
                }()
        else { throw BenchOptions.UsageError(description: "cannot write \(path)") }
        try out.truncate(atOffset: 0)
        var text = "lat,lon,w,time\n"
        for p in points {
            text += String(format: "%.6f,%.6f,1,", p.coordinate.latitude, p.coordinate.longitude)
            text += UTCCalendar.iso8601((p.time.timeIntervalSince1970 * 1000).rounded() / 1000) + "\n"
            if text.utf8.count > 1 << 20 {
                out.write(Data(text.utf8))
                text = ""
            }
        }
        out.write(Data(text.utf8))
        try out.close()
    }
}
