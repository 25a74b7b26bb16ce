import Foundation
import Testing

@testable import HeatMapContouring
@testable import HeatMapCore
@testable import HeatMapDensity
@testable import HeatMapFormats

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// Pictures of real binning results (the one-line adapter to the renderer).
@Suite struct SVGBinningTests {
    func points() -> PlanePoints {
        // A little cluster and a few strays; values 10, 20, 30, … for the mean.
        let xs: [Double] = [0.1, 0.2, 0.15, 0.3, 2.9, 3.1, -2.5, 6]
        let ys: [Double] = [0.1, 0.05, 0.2, 0.1, 1.0, 1.1, -1.7, 4]
        return PlanePoints(
            x: xs, y: ys, weight: Array(repeating: 1, count: xs.count),
            value: (1...xs.count).map { Double($0) * 10 })
    }

    @Test func hexagonBinsDrawAsRegularTilesWithTheirCounts() throws {
        let result = try HeatMapBinning.bin(points(), configuration: BinningConfiguration(size: 1, projection: .planar))
        let svg = try ParsedSVG(HeatMapRenderer.svg(HeatMapBinLayer(result), scale: .symmetricLog))
        let tiles = svg.elements("path", class: "bin")
        #expect(tiles.count == result.bins.count)
        #expect(tiles.compactMap { Int($0.attr("data-count") ?? "") }.reduce(0, +) == 8)
        for tile in tiles {
            let c = subpaths(tile.attr("d")!)[0]
            #expect(c.count == 6)
            let sides = (0..<6).map { k -> Double in
                let a = c[k], b = c[(k + 1) % 6]
                return ((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y)).squareRoot()
            }
            #expect(sides.max()! - sides.min()! < 0.03)
        }
    }

    @Test func meanBinsShowTheirStatisticsInTooltips() throws {
        var configuration = BinningConfiguration(shape: .square, size: 1, projection: .planar)
        configuration.includeEmpty = true
        let result = try HeatMapBinning.bin(points(), configuration: configuration)
        let layer = HeatMapBinLayer(result, aggregate: .mean, valueName: "mean price", units: "USD")
        #expect(layer.bins.count == result.bins.count)
        #expect(layer.bins.contains { $0.count == 0 })  // the empty cells are there
        let busy = try #require(layer.bins.first { $0.count == 4 })
        #expect(busy.value == 25)  // mean of 10, 20, 30, 40
        #expect(busy.id == "i 0, j 0")
        #expect(busy.aggregates.map(\.name) == ["sum", "min", "max"])
        #expect(busy.aggregates.map(\.value) == [100, 10, 40])
        #expect(BinScene.tooltipNumber(4.433_962) == "4.434")
        #expect(BinScene.tooltipNumber(215_000.4) == "215,000")
        #expect(BinScene.tooltipNumber(0.012_345_67) == "0.0123457")
        let html = HeatMapRenderer.html(layer)
        #expect(html.contains(#""mean price: 25 USD""#) && html.contains(#""i 0, j 0""#))
        // Squares stay square, and the faint swatch says the cells are empty (a mean of nothing is not 0).
        let svg = try ParsedSVG(HeatMapRenderer.svg(layer))
        #expect(svg.texts.contains("empty") && !svg.texts.contains("0"))
        let counts = try ParsedSVG(HeatMapRenderer.svg(HeatMapBinLayer(result)))
        #expect(counts.texts.contains("0") && !counts.texts.contains("empty"))
        for tile in svg.elements("path", class: "bin") {
            let c = subpaths(tile.attr("d")!)[0]
            let w = c.map(\.x).max()! - c.map(\.x).min()!, h = c.map(\.y).max()! - c.map(\.y).min()!
            #expect(c.count == 4 && abs(w - h) < 0.02)
        }
    }
}
