import Foundation
import HeatMap

/// `contours-bench format …`: the GeoJSON writers' position text alone
/// (``PositionTextBenchmark``): N random longitude/latitude positions,
/// rounded to PRECISION decimals on the exporter's grid of GRID decimals
/// (13 for longitude/latitude), so that each number carries the grid's
/// trailing zeros as an export's do. Prints the best-of-K time per number.
enum FormatBenchmark {
    static let usage = """
        usage: contours-bench format [--count N] [--precision P] [--grid G] [--repeat K] [--seed S]
        Writes N random lon/lat positions (default 1000000) at P decimals (default 6) on a grid of
        G decimals (default 13; P <= G <= 18) as GeoJSON coordinates text, K times (default 7), and
        prints {"n", "numbers", "bytes", "ns_per_number" (best of K), "fnv1a"}.
        """

    static func run(_ args: [String]) throws {
        var count = 1_000_000, precision = 6, grid = 13, repeats = 7
        var seed: UInt64 = 1
        var options = BenchArguments(args)
        while let option = options.option {
            switch option {
            case "--count": count = try options.whole("--count")
            case "--precision": precision = try options.whole("--precision", minimum: 0)
            case "--grid": grid = try options.whole("--grid", minimum: 0)
            case "--repeat": repeats = try options.whole("--repeat")
            case "--seed": seed = UInt64(try options.whole("--seed", minimum: 0))
            case "-h", "--help": throw BenchOptions.UsageError(description: "")
            default: throw BenchOptions.UsageError(description: "unknown option \(option)")
            }
            options.next()
        }
        guard precision <= grid, grid <= 18 else {
            throw BenchOptions.UsageError(description: "--precision must be at most --grid, and --grid at most 18")
        }
        var rng = SplitMixGenerator(seed: seed)
        let unit = pow(10, Double(precision))
        var spread: Int64 = 1
        for _ in precision..<grid { spread *= 10 }
        let points = (0..<count).map { _ in
            (
                x: Int64((Double.random(in: -180...180, using: &rng) * unit).rounded()) * spread,
                y: Int64((Double.random(in: -90...90, using: &rng) * unit).rounded()) * spread
            )
        }
        let bench = PositionTextBenchmark(points, decimals: grid)
        let timed = bestOf(repeats) { bench.write() }
        let numbers = 2 * count
        let ns = timed.seconds * 1e9 / Double(max(numbers, 1))
        print(
            "{\"n\": \(count), \"numbers\": \(numbers), \"bytes\": \(timed.result.bytes), "
                + "\"ns_per_number\": \(String(format: "%.3f", ns)), "
                + "\"fnv1a\": \"\(String(bench.hash(), radix: 16))\"}")
    }
}
