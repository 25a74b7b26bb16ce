import Foundation

/// The options of `contours-bench job`: the whole pipeline, points in,
/// a GeoJSON file out.
struct JobOptions {
    enum Input: String { case memory, csv }

    var storms = "Samples/data/storms.csv"
    var count = 3_000_000
    var radius = 20_000.0
    var levels = 40
    var resolution = 6000
    var smooth = 2
    var input = Input.memory
    /// A CSV to read instead of writing the readings to one (csv input).
    var csv: String?
    var output: String?
    /// Whether the client reads the geographic polygons (`contours`).
    var polygons = true
    /// Cancel at this many moments spread over the job (0: run it whole).
    var cancelMoments = 0
    /// Cancel at progress reports (stage, fraction) instead of at times.
    var cancelAtReports = false
    /// The stages whose reports --cancel-at-reports cancels at (all when empty).
    var cancelStages: [String] = []
    /// Write the readings to this CSV and stop.
    var writeCSV: String?

    static let usage = """
        usage: contours-bench job [--preset app] [--storms CSV] [--count N] [--radius M] [--levels L] [--resolution G]
                                  [--smooth K] [--input memory|csv] [--csv FILE] [-o OUT.geojson]
                                  [--no-polygons] [--cancel-moments M] [--cancel-at-reports]
                                  [--cancel-stages STAGE,…]
               contours-bench job --write-csv FILE [--storms CSV] [--count N]
        The library job: N readings (the storm fixes repeated with small offsets) through the public
        API to contours and, with -o, a GeoJSON file; prints one JSON object with each stage's
        seconds, the CPU seconds (user + system) of the whole job and of the export beside their wall
        seconds, and the peak resident memory (getrusage). With the polygons read from readings in
        memory (the default), the job runs as an app does on its main actor: `try await compute`,
        then `contours` read and one tap answered (`contours(containing:)`), while a main-actor ping
        every 4 ms measures the longest stall (stall_worst_ms; idle_stall_worst_ms is the same ping
        before the job: the machine's own share), the CPU time of the work on the main actor after
        compute returned (main_cpu_ms: reading the polygons and the tap, which a busy machine cannot
        inflate), and the first tap (first_tap_ms). --preset app is the 1M job (radius 15 km, 30 levels, resolution 3000,
        Chaikin x2); options after it override. --input csv writes the readings to a CSV
        first (or reads --csv FILE) and streams it as the tool does. --cancel-moments M cancels M
        runs at moments spread over the job and reports each latency; --cancel-at-reports cancels
        from progress reports at fractions of every stage (--cancel-stages: of those stages only); each cancel reports its wall latency and
        the most CPU time one thread ran before the throw (Linux schedstat: the part a busy machine
        cannot inflate). --write-csv writes the readings (lat,
        long, wind) for --csv and stops.
        example: contours-bench job --count 3000000 --smooth 2 -o /tmp/job.geojson
        """

    init(arguments: [String]) throws {
        var args = BenchArguments(arguments)
        while let option = args.option {
            switch option {
            case "--preset":
                let name = try args.value("--preset")
                guard name == "app" else {
                    throw BenchOptions.UsageError(description: "--preset must be app, not '\(name)'")
                }
                // The app job of the README: 1M readings, radius 15 km, 30
                // quantile levels, grid resolution 3000, Chaikin ×2.
                count = 1_000_000; radius = 15_000; levels = 30; resolution = 3000; smooth = 2
            case "--storms": storms = try args.value("--storms")
            case "--count": count = try args.whole("--count")
            case "--radius": radius = try args.positive("--radius")
            case "--levels": levels = try args.whole("--levels")
            case "--resolution": resolution = try args.whole("--resolution", minimum: 2)
            case "--smooth": smooth = try args.whole("--smooth", minimum: 0)
            case "--input":
                let text = try args.value("--input")
                guard let v = Input(rawValue: text) else {
                    throw BenchOptions.UsageError(description: "--input must be memory or csv, not '\(text)'")
                }
                input = v
            case "--csv": csv = try args.value("--csv"); input = .csv
            case "-o", "--output": output = try args.value("-o")
            case "--no-polygons": polygons = false
            case "--cancel-moments": cancelMoments = try args.whole("--cancel-moments")
            case "--cancel-at-reports": cancelAtReports = true
            case "--cancel-stages":
                cancelStages = try args.value("--cancel-stages").split(separator: ",").map(String.init)
                cancelAtReports = true
            case "--write-csv": writeCSV = try args.value("--write-csv")
            case "-h", "--help": throw BenchOptions.UsageError(description: "")
            default: throw BenchOptions.UsageError(description: "unknown option \(option)")
            }
            args.next()
        }
    }
}
