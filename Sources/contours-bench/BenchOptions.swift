import Foundation
import HeatMap

/// The options of `contours-bench` (docs/benchmark.md); defaults as Benchmarks/peers.py.
struct BenchOptions {
    var points = ""
    var radius = 15.0
    var resolution = 1024
    var levels = 10
    var spacing = "quantile"
    var queries = 100_000
    var hexSize = 5.0
    var repeats = 3
    /// The kernel (peers.py's `--kernel`).
    var kernel = DensityKernel.gaussian
    /// Abramson's sensitivity for an adaptive grid, or nil.
    var adaptive: Double?
    /// Stages left out (peers.py's `--skip`; `kdepy` names a peer-only
    /// stage and is accepted so that compare.sh can pass it to both).
    var skipped: Set<String> = []
    /// Where to write the grid's values (little-endian float64, row-major;
    /// the JSON then gives its geometry), or nil.
    var gridOut: String?

    static let stages: Set<String> = ["smooth", "hit", "hexbin", "kdepy"]

    static let usage = """
        usage: contours-bench --points FILE.f64 [--radius R] [--resolution G] [--levels L]
                              [--spacing linear|quantile] [--queries Q] [--hex-size H] [--repeat K]
                              [--skip smooth,hit,hexbin] [--kernel K] [--adaptive ALPHA]
                              [--grid-out FILE.f64]
        Reads little-endian float64 triples (x, y, w) as planar points and prints one JSON
        object with the best-of-K seconds of each stage (keys as peers.py prints them).
        example: contours-bench --points /tmp/heatmap-bench-1000000.f64 --radius 6 --levels 20
        """

    struct UsageError: Error, CustomStringConvertible {
        var description: String
    }

    init(arguments: [String]) throws {
        var args = BenchArguments(arguments)
        while let option = args.option {
            switch option {
            case "--points": points = try args.value("--points")
            case "--radius": radius = try args.positive("--radius")
            case "--resolution": resolution = try args.whole("--resolution")
            case "--levels": levels = try args.whole("--levels")
            case "--spacing":
                spacing = try args.value("--spacing")
                guard spacing == "linear" || spacing == "quantile" else {
                    throw UsageError(description: "--spacing must be linear or quantile, not '\(spacing)'")
                }
            case "--queries": queries = try args.whole("--queries")
            case "--hex-size": hexSize = try args.positive("--hex-size")
            case "--repeat": repeats = try args.whole("--repeat")
            case "--kernel":
                let text = try args.value("--kernel")
                do { kernel = try DensityKernel(name: text) } catch { throw UsageError(description: "\(error)") }
            case "--adaptive": adaptive = try args.positive("--adaptive")
            case "--grid-out": gridOut = try args.value("--grid-out")
            case "--skip":
                let names = try args.value("--skip").split(separator: ",").map(String.init)
                if let unknown = names.first(where: { !BenchOptions.stages.contains($0) }) {
                    throw UsageError(
                        description:
                            "--skip takes stages of \(BenchOptions.stages.sorted().joined(separator: ",")), not '\(unknown)'"
                    )
                }
                skipped.formUnion(names)
            case "-h", "--help": throw UsageError(description: "")
            default: throw UsageError(description: "unknown option \(option)")
            }
            args.next()
        }
        guard !points.isEmpty else { throw UsageError(description: "--points FILE.f64 is required") }
    }
}
