import Foundation
import HeatMap

/// `contours-bench h3 …`: the H3 functions over many inputs, for
/// Scripts/check-h3.sh (against the reference) and the speed bench.
///
/// - `h3 cells POINTS.f64 RES OUT.u64 [REPEAT]`: (lat, lon) float64 pairs →
///   little-endian UInt64 ids; prints {"n", "resolution", "seconds"} (best of REPEAT).
/// - `h3 describe IDS.txt OUT.jsonl [K]`: per id (one hex id a line) one JSON line with
///   centre, boundary, area_km2, parent (one coarser), children (one finer) and
///   disk (grid disk of radius K, default 1).
enum H3Check {
    static func run(_ args: [String]) throws {
        guard let mode = args.first else { throw BenchOptions.UsageError(description: "h3 cells|describe …") }
        switch mode {
        case "cells":
            guard args.count >= 4, let res = Int(args[2]) else {
                throw BenchOptions.UsageError(description: "h3 cells POINTS.f64 RES OUT.u64 [REPEAT]")
            }
            let data = try Data(contentsOf: URL(fileURLWithPath: args[1]))
            let n = data.count / 16
            var lat = [Double](repeating: 0, count: n), lon = lat
            data.withUnsafeBytes { raw in
                for i in 0..<n {
                    lat[i] = raw.loadUnaligned(fromByteOffset: 16 * i, as: Double.self)
                    lon[i] = raw.loadUnaligned(fromByteOffset: 16 * i + 8, as: Double.self)
                }
            }
            let repeats = args.count > 4 ? Int(args[4]) ?? 1 : 1
            let timed = bestOf(repeats) { H3Cell.indexes(latitudes: lat, longitudes: lon, resolution: res) }
            let out = timed.result.withUnsafeBufferPointer { Data(buffer: $0) }
            try out.write(to: URL(fileURLWithPath: args[3]))
            print(
                "{\"n\": \(n), \"resolution\": \(res), \"seconds\": \(timed.seconds), \"threads\": \(ProcessInfo.processInfo.activeProcessorCount)}"
            )
        case "describe":
            guard args.count >= 3 else {
                throw BenchOptions.UsageError(description: "h3 describe IDS.txt OUT.jsonl [K]")
            }
            let k = args.count > 3 ? Int(args[3]) ?? 1 : 1
            let text = try String(contentsOfFile: args[1], encoding: .utf8)
            var lines: [String] = []
            func num(_ v: Double) -> String { "\(v)" }
            for line in text.split(separator: "\n") {
                guard let cell = H3Cell(line) else { lines.append("{\"id\": \"\(line)\", \"valid\": false}"); continue }
                let c = cell.center
                let b = cell.boundary.map { "[\(num($0.latitude)), \(num($0.longitude))]" }.joined(separator: ", ")
                let parent = cell.parent(at: max(0, cell.resolution - 1)).map { "\"\($0)\"" } ?? "null"
                let children =
                    cell.resolution < 15
                    ? cell.children(at: cell.resolution + 1).map { "\"\($0)\"" }.joined(separator: ", ") : ""
                let disk = cell.gridDisk(k).map { "\"\($0)\"" }.joined(separator: ", ")
                lines.append(
                    "{\"id\": \"\(cell)\", \"valid\": true, \"pentagon\": \(cell.isPentagon), \"center\": [\(num(c.latitude)), \(num(c.longitude))], \"boundary\": [\(b)], \"area_km2\": \(num(cell.areaKm2)), \"parent\": \(parent), \"children\": [\(children)], \"disk\": [\(disk)]}"
                )
            }
            try (lines.joined(separator: "\n") + "\n").write(toFile: args[2], atomically: true, encoding: .utf8)
        default:
            throw BenchOptions.UsageError(description: "h3 cells|describe …, not \(mode)")
        }
    }
}
