// Sample: a hexagonal heatmap of the Fiji earthquakes over New Zealand's
// coastline, one continuous map across ±180°, as SVG and as an HTML page
// that shows each hexagon's figures under the pointer.
//
//   swift run sample-hexbins [OUTPUT.svg] [Samples/data/quakes_fiji.csv] [Samples/data/nz_coastline.geojson]
//
// Writes quakes_hexbins.svg by default, and the HTML page beside it
// (same name, .html). Uses the public API only: the library's CSV point
// reader, `HeatMapBinning.bin` (hexagons of 40 km in the equal-area plane
// fitted to the data, which stays one cluster across the antimeridian),
// `HeatMapBinLayer`, `HeatMapBasemap` and `HeatMapRenderer` with a
// symmetric-log colour scale (zero-count hexagons get the faint colour).
import Foundation
import HeatMap

/// One earthquake: where, and its magnitude as the measured value
/// (so each hexagon's tooltip lists the mean, min and max magnitude).
struct Quake: HeatMapMeasurable {
    let id: Int
    let coordinate: LocationCoordinate2D
    let weight: Double = 1
    let value: Double
}

/// Reads lat, long and mag through the library's streaming point reader.
func readQuakes(_ path: String) throws -> [Quake] {
    let options = PointReaderOptions(columns: PointColumns(latitude: "lat", longitude: "long", value: "mag"))
    let reader = try PointReader(path: path, options: options)
    var quakes: [Quake] = []
    while let p = try reader.next() {
        quakes.append(
            Quake(
                id: quakes.count,
                coordinate: LocationCoordinate2D(latitude: p.latitude, longitude: p.longitude),
                value: p.value))
    }
    return quakes
}

let arguments = Array(CommandLine.arguments.dropFirst())
let svgPath = arguments.first ?? "quakes_hexbins.svg"
let quakesPath = arguments.count > 1 ? arguments[1] : "Samples/data/quakes_fiji.csv"
let coastPath = arguments.count > 2 ? arguments[2] : "Samples/data/nz_coastline.geojson"
let htmlPath = URL(fileURLWithPath: svgPath).deletingPathExtension().appendingPathExtension("html").path

do {
    let quakes = try readQuakes(quakesPath)
    let longitudes = quakes.map(\.coordinate.longitude)
    print("\(quakes.count) earthquakes, longitudes \(longitudes.min() ?? 0)…\(longitudes.max() ?? 0)")

    // 40 km hexagons (centre to corner), with the empty ones of the data's box too.
    let binning = try HeatMapBinning.bin(quakes, configuration: BinningConfiguration(size: 40, includeEmpty: true))
    let occupied = binning.bins.filter { $0.statistics.count > 0 }
    print(
        "\(binning.bins.count) hexagons, \(occupied.count) with earthquakes; busiest holds "
            + "\(occupied.map(\.statistics.count).max() ?? 0)")

    let layer = HeatMapBinLayer(binning, aggregate: .count, valueName: "earthquakes", showsStatistics: true)
    var options = HeatMapRenderOptions(
        width: 800, height: 820, title: "Earthquakes near Fiji since 1964 (M ≥ 4), 40 km hexagons",
        attribution: "Quakes: R datasets (Harvard PRIM-H). Coast: © Toitū Te Whenua LINZ, CC BY 4.0")
    // The built-in world map, with the finer LINZ coast of New Zealand on top.
    options.basemap = .world + (try HeatMapBasemap(contentsOf: URL(fileURLWithPath: coastPath)))
    options.frame = .dataAndBasemap
    options.basemapPlacement = .over  // the coast stays visible over the empty hexagons
    options.legendTitle = "earthquakes per hexagon"
    let style = HeatMapStyle(gradient: .thermal)

    let svg = HeatMapRenderer.svg(layer, style: style, scale: .symmetricLog, options: options)
    try svg.write(toFile: svgPath, atomically: true, encoding: .utf8)
    print("wrote \(svgPath) (\(svg.utf8.count) bytes)")
    let html = HeatMapRenderer.html(layer, style: style, scale: .symmetricLog, options: options)
    try html.write(toFile: htmlPath, atomically: true, encoding: .utf8)
    print("wrote \(htmlPath) (\(html.utf8.count) bytes)")
} catch {
    FileHandle.standardError.write(Data("sample-hexbins: \(error)\n".utf8))
    exit(1)
}
