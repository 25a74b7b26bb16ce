// Sample: kernel-density contours of Atlantic storm positions, weighted by
// wind speed, drawn as an SVG picture with a legend.
//
//   swift run sample-storms [OUTPUT.svg] [Samples/data/storms.csv]
//
// Writes storms.svg by default. Uses the public API only: the library's CSV
// point reader, the async `HeatMapContours.compute` (called from an async
// function, so the compiler picks the cancellable overload) and
// `HeatMapRenderer.svg`.
import Foundation
import HeatMap

/// One six-hourly storm fix: where, and its wind speed (knots) as the weight.
struct StormFix: HeatMapable {
    let id: Int
    let coordinate: LocationCoordinate2D
    let weight: Double
}

/// Reads lat, long and wind through the library's streaming point reader.
func readFixes(_ path: String) throws -> [StormFix] {
    let options = PointReaderOptions(columns: PointColumns(latitude: "lat", longitude: "long", weight: "wind"))
    let reader = try PointReader(path: path, options: options)
    var fixes: [StormFix] = []
    while let p = try reader.next() {
        fixes.append(
            StormFix(
                id: fixes.count,
                coordinate: LocationCoordinate2D(latitude: p.latitude, longitude: p.longitude),
                weight: p.weight))
    }
    return fixes
}

/// The contours: a 150 km kernel (storm tracks are long; a narrower one
/// draws the individual tracks), round thresholds in kn-weighted fixes
/// per km², a fine grid.
func stormContours(_ fixes: [StormFix]) async throws -> HeatMapContours {
    let thresholds = [0.02, 0.04, 0.06, 0.08, 0.10, 0.12, 0.14, 0.16]
    let configuration = HeatMapConfiguration(
        radius: 150_000, levelSpacing: .custom(thresholds),
        gridResolution: 250, gradient: .warm, fillOpacity: 0.9,
        renderMode: .filledWithIsolines(lineWidth: 0.5))
    return try await HeatMapContours.compute(from: fixes, configuration: configuration)
}

/// Computes, reports and writes the picture.
func run(output: String, input: String) async throws {
    let fixes = try readFixes(input)
    print("\(fixes.count) storm fixes from \(input)")
    let contours = try await stormContours(fixes)
    print(
        "\(contours.levelCount) levels, \(contours.contourCount) band polygons, values in kn-weighted fixes \(contours.units)"
    )
    for (level, threshold) in contours.thresholds.enumerated() {
        print("  level \(level): ≥ \(threshold)")
    }
    var options = HeatMapRenderOptions(
        width: 900, height: 560, title: "Atlantic storms 1975–2022, weighted by wind",
        attribution: "Data: NOAA HURDAT2 via dplyr::storms")
    options.legendTitle = "kn × fixes \(contours.units)"
    let svg = HeatMapRenderer.svg(contours, options: options)
    try svg.write(toFile: output, atomically: true, encoding: .utf8)
    print("wrote \(output) (\(svg.utf8.count) bytes)")
}

let arguments = Array(CommandLine.arguments.dropFirst())
let output = arguments.first ?? "storms.svg"
let input = arguments.count > 1 ? arguments[1] : "Samples/data/storms.csv"
do {
    try await run(output: output, input: input)
} catch {
    FileHandle.standardError.write(Data("sample-storms: \(error)\n".utf8))
    exit(1)
}
