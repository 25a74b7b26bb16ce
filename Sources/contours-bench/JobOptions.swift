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
    /// Write the readings to this CSV and stop.
    var writeCSV: String?

    static let usage = """
    usage: contours-bench job [--storms CSV] [--count N] [--radius M] [--levels L] [--resolution G]
                              [--smooth K] [--input memory|csv] [--csv FILE] [-o OUT.geojson]
                              [--no-polygons] [--cancel-moments M] [--cancel-at-reports]
           contours-bench job --write-csv FILE [--storms CSV] [--count N]
    The library job: N readings (the storm fixes repeated with small offsets) through the public
    API to contours and, with -o, a GeoJSON file; prints one JSON object with each stage's
    seconds and the peak resident memory (getrusage). --input csv writes the readings to a CSV
    first (or reads --csv FILE) and streams it as the tool does. --cancel-moments M cancels M
    runs at moments spread over the job and reports each latency; --cancel-at-reports cancels
    from progress reports at fractions of every stage. --write-csv writes the readings (lat,
    long, wind) for --csv and stops.
    example: contours-bench job --count 3000000 --smooth 2 -o /tmp/job.geojson
    """

    init(arguments: [String]) throws {
        var i = 0
        func value(_ name: String) throws -> String {
            i += 1
            guard i < arguments.count else { throw BenchOptions.UsageError(description: "\(name) needs a value") }
            return arguments[i]
        }
        func whole(_ name: String, minimum: Int = 1) throws -> Int {
            let text = try value(name)
            guard let v = Int(text), v >= minimum else {
                throw BenchOptions.UsageError(description: "\(name) must be a whole number ≥ \(minimum), not '\(text)'")
            }
            return v
        }
        while i < arguments.count {
            switch arguments[i] {
            case "--storms": storms = try value("--storms")
            case "--count": count = try whole("--count")
            case "--radius":
                let text = try value("--radius")
                guard let v = Double(text), v.isFinite, v > 0 else {
                    throw BenchOptions.UsageError(description: "--radius must be a positive number, not '\(text)'")
                }
                radius = v
            case "--levels": levels = try whole("--levels")
            case "--resolution": resolution = try whole("--resolution", minimum: 2)
            case "--smooth": smooth = try whole("--smooth", minimum: 0)
            case "--input":
                let text = try value("--input")
                guard let v = Input(rawValue: text) else {
                    throw BenchOptions.UsageError(description: "--input must be memory or csv, not '\(text)'")
                }
                input = v
            case "--csv": csv = try value("--csv"); input = .csv
            case "-o", "--output": output = try value("-o")
            case "--no-polygons": polygons = false
            case "--cancel-moments": cancelMoments = try whole("--cancel-moments")
            case "--cancel-at-reports": cancelAtReports = true
            case "--write-csv": writeCSV = try value("--write-csv")
            case "-h", "--help": throw BenchOptions.UsageError(description: "")
            default: throw BenchOptions.UsageError(description: "unknown option \(arguments[i])")
            }
            i += 1
        }
    }
}
