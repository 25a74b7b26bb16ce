import Foundation
import HeatMap  // the public API only, as a user would
import Testing

/// The library examples of README.md and docs/library.md, compiled and run, so they cannot
/// drift from the API.
@Suite struct ReadmeExampleTests {
    struct Quake: HeatMapable {
        let id: Int
        let coordinate: LocationCoordinate2D
        let weight: Double
    }

    static func quakes() throws -> [Quake] {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Samples/data/quakes_fiji.csv")
        let lines = try String(contentsOf: url, encoding: .utf8).split(whereSeparator: \.isNewline).dropFirst()
        return lines.enumerated().compactMap { i, line in
            let f = line.split(separator: ",")
            guard let lat = Double(f[0]), let lon = Double(f[1]), let mag = Double(f[3]) else { return nil }
            return Quake(id: i, coordinate: LocationCoordinate2D(latitude: lat, longitude: lon), weight: mag)
        }
    }

    func quakeBands(_ quakes: [Quake]) async throws -> HeatMapContours {
        var configuration = HeatMapConfiguration(radius: 60_000, contourLevels: 6, levelSpacing: .nice)
        configuration.projection = .equalArea
        let contours = try await HeatMapContours.compute(from: quakes, configuration: configuration)
        for band in contours.contours {
            _ = (band.level, band.threshold, contours.units, band.coordinates.count, band.interiorPolygons.count)
        }
        return contours
    }

    @Test func libraryExamplesRun() async throws {
        let quakes = try Self.quakes()
        #expect(quakes.count == 1000)
        let contours = try await quakeBands(quakes)
        #expect(contours.levelCount >= 3)
        #expect(contours.units == "per km²")

        let here = LocationCoordinate2D(latitude: -20.5, longitude: -178.4)
        let bands = contours.contours(containing: here)
        let answer = contours.inspect(here)
        #expect(bands.count <= 1)
        #expect(answer.level == bands.first?.level)
        #expect((answer.value ?? 0) > 0)

        let bins = try HeatMapBinning.bin(quakes, configuration: BinningConfiguration(shape: .hexagon, size: 40))
        #expect(bins.bins.reduce(0) { $0 + $1.statistics.count } == 1000)

        let style = HeatMapStyle(gradient: .thermal, fillOpacity: 0.8, renderMode: .filledWithIsolines())
        var options = HeatMapRenderOptions()
        options.title = "Earthquakes near Fiji"
        let svg = HeatMapRenderer.svg(contours, style: style, options: options)
        #expect(svg.contains("Earthquakes near Fiji") && svg.contains("data-level"))
        let legend = HeatMapLegend(contours: contours).axis(.horizontal)
        _ = legend
    }

    @Test func bulkHitTestingExampleRuns() async throws {
        let contours = try await quakeBands(try Self.quakes())
        let locator = BandLocator(bands: contours.contourSet.bands)  // plane polygons per level
        let readings = [
            LocationCoordinate2D(latitude: -20.5, longitude: -178.4),
            LocationCoordinate2D(latitude: -15.0, longitude: 170.0)
        ]
        let levels = locator.bands(at: readings.map(contours.projection.project))  // [Int?], in order
        // The bulk answer is the one-at-a-time answer, which the polygons give.
        #expect(levels.count == 2)
        #expect(levels[0] == contours.contours(containing: readings[0]).first?.level)
        #expect(levels[1] == nil)
    }
}
