import Foundation

/// The options of `contours-bench` (docs/benchmark.md); defaults as ../shared/bench/peers.py.
struct BenchOptions {
    var points = ""
    var radius = 15.0
    var resolution = 1024
    var levels = 10
    var spacing = "quantile"
    var queries = 100_000
    var hexSize = 5.0
    var repeats = 3
    /// Stages left out (peers.py's `--skip`; `kdepy` names a peer-only
    /// stage and is accepted so that compare.sh can pass it to both).
    var skipped: Set<String> = []

    static let stages: Set<String> = ["smooth", "hit", "hexbin", "kdepy"]

    static let usage = """
    usage: contours-bench --points FILE.f64 [--radius R] [--resolution G] [--levels L]
                          [--spacing linear|quantile] [--queries Q] [--hex-size H] [--repeat K]
                          [--skip smooth,hit,hexbin]
    Reads little-endian float64 triples (x, y, w) as planar points and prints one JSON
    object with the best-of-K seconds of each stage (keys as peers.py prints them).
    example: contours-bench --points /tmp/heatmap-bench-1000000.f64 --radius 6 --levels 20
    """

    struct UsageError: Error, CustomStringConvertible {
        var description: String
    }

    init(arguments: [String]) throws {
        var i = 0
        func value(_ name: String) throws -> String {
            i += 1
            guard i < arguments.count else { throw UsageError(description: "\(name) needs a value") }
            return arguments[i]
        }
        func number(_ name: String) throws -> Double {
            let text = try value(name)
            guard let v = Double(text), v.isFinite, v > 0 else {
                throw UsageError(description: "\(name) must be a positive number, not '\(text)'")
            }
            return v
        }
        func count(_ name: String) throws -> Int {
            let text = try value(name)
            guard let v = Int(text), v > 0 else {
                throw UsageError(description: "\(name) must be a positive whole number, not '\(text)'")
            }
            return v
        }
        while i < arguments.count {
            switch arguments[i] {
            case "--points": points = try value("--points")
            case "--radius": radius = try number("--radius")
            case "--resolution": resolution = try count("--resolution")
            case "--levels": levels = try count("--levels")
            case "--spacing":
                spacing = try value("--spacing")
                guard spacing == "linear" || spacing == "quantile" else {
                    throw UsageError(description: "--spacing must be linear or quantile, not '\(spacing)'")
                }
            case "--queries": queries = try count("--queries")
            case "--hex-size": hexSize = try number("--hex-size")
            case "--repeat": repeats = try count("--repeat")
            case "--skip":
                let names = try value("--skip").split(separator: ",").map(String.init)
                if let unknown = names.first(where: { !BenchOptions.stages.contains($0) }) {
                    throw UsageError(description: "--skip takes stages of \(BenchOptions.stages.sorted().joined(separator: ",")), not '\(unknown)'")
                }
                skipped.formUnion(names)
            case "-h", "--help": throw UsageError(description: "")
            default: throw UsageError(description: "unknown option \(arguments[i])")
            }
            i += 1
        }
        guard !points.isEmpty else { throw UsageError(description: "--points FILE.f64 is required") }
    }
}
