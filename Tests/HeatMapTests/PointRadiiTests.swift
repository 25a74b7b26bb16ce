import Foundation
import Testing

@testable import HeatMapContouring
@testable import HeatMapCore
@testable import HeatMapDensity
@testable import HeatMapFormats

/// A grid whose points have radii of their own says so: the library's
/// grid, its JSON (read back too), the GeoJSON `kernel` member, the
/// GeoTIFF's metadata and a picture's legend (docs/formats.md).
@Suite struct PointRadiiTests {
    struct Station: HeatMapRadial {
        let id: Int
        let coordinate: LocationCoordinate2D
        let weight: Double
        let radius: Double
    }

    /// 60 stations round Lisbon with radii 20 to 79 km.
    static let stations: [Station] = (0..<60).map { k in
        let angle = Double(k)
        let latitude: Double = 38.7 + 0.4 * sin(angle)
        let longitude: Double = -9.1 + 0.5 * cos(3 * angle)
        let radius: Double = 20_000 + 1000 * angle
        return Station(
            id: k, coordinate: LocationCoordinate2D(latitude: latitude, longitude: longitude),
            weight: Double(1 + k % 3), radius: radius)
    }

    @Test func ownRadiiAreNamedWithTheirRange() throws {
        var configuration = HeatMapConfiguration(radius: 30_000, contourLevels: 4)
        configuration.kernel = .quartic
        let result = try HeatMapContours.compute(from: Self.stations, configuration: configuration, control: .none)
        #expect(result.grid.pointRadii == PointRadii.perPoint(smallest: 20_000, largest: 79_000))
        let json = GridEncoding.jsonMembers(result.grid)
        #expect(json.contains("\"radii\":{\"kind\":\"per_point\",\"smallest\":20000,\"largest\":79000}"))
        let member = try #require(GeoJSONKernelMember(result.grid))
        #expect(member.json.hasSuffix(",\"radii\":{\"kind\":\"per_point\",\"smallest\":20000,\"largest\":79000}}"))
        #expect(KernelCaption.text(result.grid) == "Quartic kernel, radius per point 20–79 km")
    }

    @Test func anAdaptiveGridNamesItsRuleAndTheRadiiItChose() throws {
        let points = Self.stations.map { HeatMapPoint(id: $0.id, coordinate: $0.coordinate, weight: $0.weight) }
        var configuration = HeatMapConfiguration(radius: 30_000, contourLevels: 4)
        configuration.bandwidth = .adaptive(AdaptiveBandwidth(sensitivity: 0.7, trim: 4))
        let result = try HeatMapContours.compute(from: points, configuration: configuration, control: .none)
        guard case .adaptive(let sensitivity, let trim, let summary)? = result.grid.pointRadii else {
            Issue.record("no adaptive radii: \(String(describing: result.grid.pointRadii))")
            return
        }
        #expect(sensitivity == 0.7 && trim == 4)
        #expect(summary.pilotRadius == result.grid.radius && summary.pilotRadius == 30_000)
        #expect(summary.smallest < summary.geometricMean && summary.geometricMean < summary.largest)
        #expect(summary.largest <= 4 * 30_000)
        // The Gaussian with radii of its own is no longer the default: it gets a member.
        #expect(GeoJSONKernelMember(result.grid)?.pointRadii == result.grid.pointRadii)
        let tiff = GeoTIFFWriter.metadata(result.grid, crs: nil, software: "test")
        let radii = try #require(tiff.items.first { $0.0 == "RADII" }?.1)
        #expect(radii.hasPrefix("adaptive (Abramson), sensitivity 0.7, trim 4; RADIUS is the pilot's"))
        let names = tiff.items.map { $0.0 }
        #expect(names.firstIndex(of: "RADII") == names.firstIndex(of: "KERNEL").map { $0 + 1 })
    }

    /// The JSON grid keeps its radii when read back, for either kind.
    @Test(arguments: [
        PointRadii.perPoint(smallest: 1.5, largest: 250),
        .adaptive(
            sensitivity: 0.5, trim: 5,
            summary: AdaptiveSummary(
                pilotRadius: 10, geometricMean: 9.5, smallest: 2, largest: 50, percentile5: 3, percentile95: 40,
                trimmed: 7))
    ])
    func gridJSONReadsItsRadiiBack(radii: PointRadii) throws {
        let geometry = GridGeometry(columns: 3, rows: 2, x0: 0, y0: 0, dx: 1, dy: 1)
        var grid = DensityGrid(
            geometry: geometry, values: [0, 1, 2, 3, 4, 5], projection: PlaneProjection(kind: .planar),
            radius: 10, estimator: .density, units: "per square unit", kernel: .epanechnikov)
        grid.pointRadii = radii
        let read = try GridEncoding.decodeJSON(Data(GridEncoding.json(grid).utf8))
        #expect(read.pointRadii == radii)
        #expect(read.kernel == .epanechnikov && read.values == grid.values)
        grid.pointRadii = nil
        #expect(try GridEncoding.decodeJSON(Data(GridEncoding.json(grid).utf8)).pointRadii == nil)
    }

    /// The default Gaussian with one radius keeps its pictures and files as they were.
    @Test func theDefaultKernelAddsNothing() throws {
        let points = Self.stations.map { HeatMapPoint(id: $0.id, coordinate: $0.coordinate, weight: $0.weight) }
        let result = try HeatMapContours.compute(
            from: points, configuration: HeatMapConfiguration(radius: 30_000, contourLevels: 4), control: .none)
        #expect(result.grid.pointRadii == nil)
        #expect(GeoJSONKernelMember(result.grid) == nil && KernelCaption.text(result.grid) == nil)
        #expect(!GridEncoding.jsonMembers(result.grid).contains("radii"))
        #expect(!HeatMapRenderer.svg(result).contains("kernel"))
    }
}
