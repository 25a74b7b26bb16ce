import Foundation
import HeatMap

/// A reading of the library job: a plain `HeatMapable` (not a
/// `HeatMapPoint`, not measurable), as a client's own type would be.
struct StormReading: HeatMapable {
    let id: Int
    let coordinate: LocationCoordinate2D
    let weight: Double
}

/// The library job's input: the storm fixes of a CSV (lat, long, wind)
/// repeated with small seeded offsets until there are `count` of them.
enum StormReadings {
    /// Copy k of fix i moves by up to ±0.25° in each direction (the first
    /// copy is the fix itself), so the copies blur the tracks rather than
    /// stack on them. Same count, same points on every run.
    static func make(from path: String, count: Int) throws -> [StormReading] {
        let fixes = try readFixes(path)
        guard !fixes.isEmpty else {
            throw BenchOptions.UsageError(description: "\(path): no storm fixes (lat, long, wind) read")
        }
        var rng = SplitMixGenerator(seed: 13)
        var out: [StormReading] = []
        out.reserveCapacity(count)
        for i in 0..<count {
            let fix = fixes[i % fixes.count]
            let first = i < fixes.count
            let dLat = first ? 0 : Double.random(in: -0.25...0.25, using: &rng)
            let dLon = first ? 0 : Double.random(in: -0.25...0.25, using: &rng)
            out.append(
                StormReading(
                    id: i,
                    coordinate: LocationCoordinate2D(
                        latitude: fix.latitude + dLat,
                        longitude: fix.longitude + dLon),
                    weight: fix.weight))
        }
        return out
    }

    /// Writes `readings` as a CSV (lat, long, wind) with 6 decimals, for the
    /// same job read from a file.
    static func writeCSV(_ readings: [StormReading], to path: String) throws {
        var text = "lat,long,wind\n"
        text.reserveCapacity(readings.count * 28)
        for r in readings {
            text += String(format: "%.6f,%.6f,%g\n", r.coordinate.latitude, r.coordinate.longitude, r.weight)
        }
        try text.write(toFile: path, atomically: true, encoding: .utf8)
    }

    private static func readFixes(_ path: String) throws -> [(latitude: Double, longitude: Double, weight: Double)] {
        let options = PointReaderOptions(columns: PointColumns(latitude: "lat", longitude: "long", weight: "wind"))
        let reader = try CSVPointReader(source: try ByteSource(path: path), options: options)
        var fixes: [(latitude: Double, longitude: Double, weight: Double)] = []
        while let p = try reader.next() { fixes.append((p.latitude, p.longitude, p.weight)) }
        return fixes
    }
}
