import Foundation
import Testing

@testable import HeatMap

/// Degenerate point sets through every public entry point a client calls:
/// none may trap, each gives a result or a ``HeatMapError``, and the
/// results answer every question (hit tests, exports, pictures, tiles)
/// without trapping either. Sets: none, one, three at one place, two of
/// weight 0, points on a line, at a pole, on both sides of ±180°, and at
/// antipodes.
@Suite struct DegenerateInputTests {
    static let sets: [(name: String, points: [HeatMapPoint])] = {
        func p(_ lat: Double, _ lon: Double, _ w: Double = 1) -> HeatMapPoint {
            HeatMapPoint(coordinate: LocationCoordinate2D(latitude: lat, longitude: lon), weight: w)
        }
        return [
            ("none", []),
            ("one", [p(10, 20)]),
            ("one place", [p(10, 20), p(10, 20), p(10, 20)]),
            ("no weight", [p(10, 20, 0), p(11, 21, 0)]),
            ("a line", (0..<5).map { p(Double($0), Double($0)) }),
            ("a pole", [p(90, 0), p(89.9, 10), p(89.8, -170)]),
            ("±180°", [p(0, 180), p(0, -180), p(1, 179.9), p(-1, -179.9)]),
            ("antipodes", [p(10, 20), p(-10, -160)])
        ]
    }()

    static let configurations: [(name: String, configuration: HeatMapConfiguration)] = {
        // A coarse grid: the sets, not the grid's size, are the point.
        let plain = HeatMapConfiguration(gridResolution: 40)
        var quartic = plain
        quartic.kernel = .quartic
        var adaptive = plain
        adaptive.bandwidth = .adaptive(AdaptiveBandwidth())
        var quantile = HeatMapConfiguration(contourLevels: 12, gridResolution: 40)
        quantile.levelSpacing = .quantile
        return [
            ("default", plain), ("quartic", quartic), ("adaptive", adaptive), ("quantile", quantile)
        ]
    }()

    @Test(arguments: 0..<sets.count)
    func everyEntryPointAnswersOrRefuses(set k: Int) async throws {
        let (name, points) = Self.sets[k]
        for (label, configuration) in Self.configurations {
            let contours: HeatMapContours
            do {
                contours = try await HeatMapContours.compute(from: points, configuration: configuration)
            } catch is HeatMapError {
                continue
            }
            // Hit tests anywhere, the exports and the pictures.
            for c in [
                LocationCoordinate2D(latitude: 10, longitude: 20), LocationCoordinate2D(latitude: 90, longitude: 180),
                LocationCoordinate2D(latitude: -90, longitude: -180)
            ] {
                _ = contours.inspect(c)
                _ = contours.contours(containing: c)
            }
            _ = contours.levels(at: [LocationCoordinate2D(latitude: 0, longitude: 0)])
            let text = try GeoJSONExport.contours(contours)
            // Valid, the pole too: its rings, within a kilometre of the pole,
            // cross ±180° in steps of tens of degrees of longitude, and follow
            // the plane before they are cut there.
            let problems = try GeoJSONRead.allProblems(text)
            #expect(problems == [], "\(name), \(label): \(problems.prefix(3))")
            _ = HeatMapRenderer.svg(contours)
            _ = HeatMapRenderer.html(contours)
            if contours.projection.isGeographic {
                let tiles = try await HeatMapTiles.make(from: points, configuration: configuration, zooms: 0...2)
                _ = try await tiles.write(to: MemorySink())
            }
        }
    }
}
