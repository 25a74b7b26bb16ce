// Sample: house prices in Ames, Iowa, as a kernel-weighted MEAN map — at
// each place, the average sale price of the nearby sales, nearer sales
// counting more — rendered to an HTML page with tap-to-inspect, then a few
// places inspected in code.
//
//   swift run sample-ames [OUTPUT.html] [Samples/data/ames.csv]
//
// Writes ames.html by default. Uses the public API only: the library's
// CSV point reader, points conforming to `HeatMapMeasurable` (value = price),
// `HeatMapConfiguration(estimator: .mean)`, the async
// `HeatMapContours.compute`, `HeatMapRenderer.html` and
// `HeatMapContours.inspect`. Where too few sales are near, the mean is
// undefined and the map is left blank rather than guessed.
import Foundation
import HeatMap

/// One house sale: where, and its price (USD) as the measured value.
struct Sale: HeatMapMeasurable {
    let id: Int
    let coordinate: LocationCoordinate2D
    let weight: Double = 1
    let value: Double
}

/// Reads Longitude, Latitude and Sale_Price through the library's point reader.
func readSales(_ path: String) throws -> [Sale] {
    let options = PointReaderOptions(
        columns: PointColumns(
            latitude: "Latitude", longitude: "Longitude",
            value: "Sale_Price"))
    let reader = try PointReader(path: path, options: options)
    var sales: [Sale] = []
    while let p = try reader.next() {
        sales.append(
            Sale(
                id: sales.count,
                coordinate: LocationCoordinate2D(latitude: p.latitude, longitude: p.longitude),
                value: p.value))
    }
    return sales
}

/// The mean-price contours: a 600 m kernel, price levels closer together
/// where most sales are (the median is about 160,000 USD), and a grid
/// padded wide enough that the map ends where the sales thin out (the mean
/// becomes undefined), not at the grid's edge.
func priceMap(_ sales: [Sale]) async throws -> HeatMapContours {
    let levels: [Double] = [100_000, 125_000, 150_000, 175_000, 200_000, 250_000, 300_000, 400_000]
    let configuration = HeatMapConfiguration(
        radius: 600, levelSpacing: .custom(levels),
        gridResolution: 300, gradient: .cool, paddingFactor: 2.0,
        fillOpacity: 0.85, estimator: .mean)
    return try await HeatMapContours.compute(from: sales, configuration: configuration)
}

/// Computes, writes the page and answers a few taps.
func run(output: String, input: String) async throws {
    let sales = try readSales(input)
    let prices = sales.map(\.value)
    print("\(sales.count) sales, \(Int(prices.min() ?? 0))…\(Int(prices.max() ?? 0)) USD")
    let contours = try await priceMap(sales)
    print(
        "\(contours.levelCount) levels of mean sale price (USD), \(contours.contourCount) band polygons "
            + "(grid units: \(contours.units))")
    for (level, threshold) in contours.thresholds.enumerated() {
        print("  level \(level): mean price ≥ \(Int(threshold)) USD")
    }

    var options = HeatMapRenderOptions(
        width: 900, height: 800, title: "Ames, Iowa: kernel-weighted mean sale price, 2006–2010",
        attribution: "Data: De Cock (2011), via R modeldata (MIT)")
    options.legendTitle = "mean sale price (USD)"
    let page = HeatMapRenderer.html(contours, options: options)
    try page.write(toFile: output, atomically: true, encoding: .utf8)
    print("wrote \(output) (\(page.utf8.count) bytes)")

    // Tap-to-inspect in code: downtown, the north-west, the south, and a field outside town.
    let places: [(String, Double, Double)] = [
        ("Iowa State campus", 42.0266, -93.6465),
        ("north-west (Northridge)", 42.0560, -93.6600),
        ("south-east (Old Town)", 42.0280, -93.6090),
        ("farmland west of town", 42.0300, -93.7300)
    ]
    for (name, latitude, longitude) in places {
        let answer = contours.inspect(LocationCoordinate2D(latitude: latitude, longitude: longitude))
        let value = answer.value.map { "mean ≈ \(Int($0.rounded())) USD" } ?? "no mean (too few sales nearby)"
        let band =
            answer.level.map { level in
                let upper = answer.upper.map { "–\(Int($0))" } ?? "+"
                return "band \(level) (\(Int(answer.threshold ?? 0))\(upper))"
            } ?? "no band"
        print("  \(name) (\(latitude), \(longitude)): \(value), \(band)")
    }
}

let arguments = Array(CommandLine.arguments.dropFirst())
let output = arguments.first ?? "ames.html"
let input = arguments.count > 1 ? arguments[1] : "Samples/data/ames.csv"
do {
    try await run(output: output, input: input)
} catch {
    FileHandle.standardError.write(Data("sample-ames: \(error)\n".utf8))
    exit(1)
}
