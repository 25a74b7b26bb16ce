// Sample: contours of the Fiji earthquakes with the async API — progress,
// cancellation by a deadline, and tap-to-inspect.
//
//   swift run sample-quakes [Samples/data/quakes_fiji.csv]
import Foundation
import HeatMap

/// One earthquake: where, and its magnitude as the weight.
struct Quake: HeatMapable {
    let id: Int
    let coordinate: LocationCoordinate2D
    let weight: Double
}

/// Reads the sample's simple CSV (lat,long,depth,mag,stations; no quoting).
func readQuakes(_ path: String) throws -> [Quake] {
    let lines = try String(contentsOfFile: path, encoding: .utf8).split(whereSeparator: \.isNewline)
    return lines.dropFirst().enumerated().compactMap { i, line in
        let f = line.split(separator: ",")
        guard f.count >= 4, let lat = Double(f[0]), let lon = Double(f[1]), let mag = Double(f[3]) else { return nil }
        return Quake(id: i, coordinate: LocationCoordinate2D(latitude: lat, longitude: lon), weight: mag)
    }
}

/// Computes the contours, giving up after `seconds`.
func contours(of quakes: [Quake], within seconds: Double) async throws -> HeatMapContours {
    let configuration = HeatMapConfiguration(
        radius: 60_000, contourLevels: 6, levelSpacing: .nice,
        gridResolution: 200)
    let work = Task {
        try await HeatMapContours.compute(from: quakes, configuration: configuration) { progress in
            if progress.fraction == 1 { print("  \(progress.stage.rawValue) done") }
        }
    }
    let deadline = Task {
        try await Task.sleep(nanoseconds: UInt64(seconds * 1e9))
        work.cancel()
    }
    defer { deadline.cancel() }
    return try await work.value
}

let path = CommandLine.arguments.dropFirst().first ?? "Samples/data/quakes_fiji.csv"
do {
    let quakes = try readQuakes(path)
    print("\(quakes.count) earthquakes")
    let result = try await contours(of: quakes, within: 30)
    print("radius \(Int(result.radius)) m, \(result.levelCount) levels, \(result.contourCount) polygons")
    for (level, t) in result.thresholds.enumerated() {
        let n = result.contours.filter { $0.level == level }.count
        print("  level \(level): ≥ \(t) magnitude-weighted quakes \(result.units), \(n) polygon(s)")
    }
    // Tap-to-inspect: the Tonga trench, the antimeridian, open sea.
    for (lat, lon) in [(-20.0, -178.0), (-18.0, 180.0), (-30.0, 170.0)] {
        let answer = result.inspect(LocationCoordinate2D(latitude: lat, longitude: lon))
        let band = answer.level.map { "band \($0) (≥ \(answer.threshold!))" } ?? "no band"
        print(
            "  (\(lat), \(lon)): value \(answer.value.map { String(format: "%.4f", $0) } ?? "–") \(result.units), \(band)"
        )
    }
} catch is CancellationError {
    print("gave up: the computation was cancelled")
} catch {
    FileHandle.standardError.write(Data("sample-quakes: \(error)\n".utf8))
    exit(1)
}
