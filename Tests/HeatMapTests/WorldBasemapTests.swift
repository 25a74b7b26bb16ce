import Foundation
import Testing

@testable import HeatMapContouring
@testable import HeatMapCore
@testable import HeatMapDensity
@testable import HeatMapFormats

#if canImport(FoundationXML)
    import FoundationXML
#endif

@Suite struct WorldBasemapTests {
    /// An encoder written from the format's description (not the library's
    /// code), to check the decoder against.
    func encode(_ lines: [[(Int, Int)]]) -> String {
        var out = ""
        func put(_ v: Int) {
            var u = v < 0 ? -2 * v - 1 : 2 * v
            while u >= 32 { out.append(Character(Unicode.Scalar(UInt8(32 + u % 32 + 63)))); u /= 32 }
            out.append(Character(Unicode.Scalar(UInt8(u + 63))))
        }
        var px = 0, py = 0
        for (n, line) in lines.enumerated() {
            put(line.count)
            for (x, y) in line { put(x - px); put(y - py); px = x; py = y }
            if n % 3 == 2 { out += "\n" }  // line breaks are skipped
        }
        return out
    }

    @Test(arguments: [1, 2, 3]) func decodesWhatTheFormatDescribes(seed: UInt64) {
        var rng = SplitMix(seed: seed)
        let lines: [[(Int, Int)]] = (0..<20).map { _ in
            (0..<Int.random(in: 1...30, using: &rng)).map { _ in
                (Int.random(in: -1_800_000...1_800_000, using: &rng), Int.random(in: -900_000...900_000, using: &rng))
            }
        }
        let decoded = WorldBasemap.decode(encode(lines))
        #expect(decoded.count == lines.count)
        for (a, b) in zip(decoded, lines) {
            #expect(a.count == b.count)
            for (c, (x, y)) in zip(a, b) {
                #expect(abs(c.longitude - Double(x) / 10_000) < 1e-9 && abs(c.latitude - Double(y) / 10_000) < 1e-9)
            }
        }
    }

    @Test func builtInWorldIsNaturalEarth() {
        let countries = WorldBasemap.countries, coast = WorldBasemap.coastline
        // The counts Scripts/make-world-basemap.py reports for the 1:50m files.
        #expect(countries.count == 1629 && coast.count == 1429)
        #expect(countries.reduce(0) { $0 + $1.count } + coast.reduce(0) { $0 + $1.count } == 159_978)
        for ring in countries { #expect(ring.first == ring.last) }
        let all = (countries + coast).joined()
        #expect(all.allSatisfy { abs($0.latitude) <= 90 && abs($0.longitude) <= 180 })
        // Somewhere on Iceland's coast, within 0.5°.
        #expect(coast.joined().contains { abs($0.latitude - 64.1) < 0.5 && abs($0.longitude + 21.9) < 0.5 })
    }

    func geographicBins(_ lat: Double, _ lon: Double) -> HeatMapBinLayer {
        let coords = [
            LocationCoordinate2D(latitude: lat, longitude: lon),
            LocationCoordinate2D(latitude: lat + 10, longitude: lon + 10)
        ]
        let projection = PlaneProjection.fitted(.equalArea, to: coords)
        let bins = coords.map { c -> BinTile in
            let p = projection.project(c)
            return BinTile(corners: RenderFixtures.hexagon(p.x, p.y, 50_000), count: 1, value: 1)
        }
        return HeatMapBinLayer(bins: bins, projection: projection)
    }

    @Test func geographicPicturesDrawTheWorldByDefault() throws {
        // The North Atlantic: land, coastlines, borders, graticule, scale bar and the credit.
        let svg = try ParsedSVG(HeatMapRenderer.svg(geographicBins(40, -30)))
        let land = try #require(svg.elements("path", class: "land").first)
        #expect(land.attr("fill-rule") == "evenodd" && land.attr("pointer-events") == "none")
        #expect(svg.elements("path", class: "basemap").count == 1)
        #expect(svg.elements("path", class: "borders").count == 1)
        #expect(svg.elements("path", class: "graticule").count == 1)
        #expect(svg.elements("g", class: "scalebar").count == 1)
        #expect(svg.elements("text", class: "attribution").first?.stringValue == "Basemap: Natural Earth")
        // Every land vertex lies inside the plot (clipped, with 2 px of slack).
        for ring in subpaths(try #require(land.attr("d"))) {
            for p in ring { #expect(p.x >= 16 - 2.01 && p.x <= 800 && p.y >= 16 - 2.01 && p.y <= 600) }
        }
        // None: no map at all.
        var options = HeatMapRenderOptions()
        options.basemap = nil
        let bare = try ParsedSVG(HeatMapRenderer.svg(geographicBins(40, -30), options: options))
        #expect(bare.elements("path", class: "land").isEmpty && bare.elements("path", class: "basemap").isEmpty)
        #expect(bare.elements("text", class: "attribution").isEmpty)
    }

    @Test func planarPicturesLeaveTheWorldOut() throws {
        let svg = try ParsedSVG(HeatMapRenderer.svg(RenderFixtures.contours()))
        #expect(svg.elements("path", class: "land").isEmpty && svg.elements("path", class: "basemap").isEmpty)
        #expect(svg.elements("g", class: "scalebar").isEmpty && svg.elements("path", class: "graticule").isEmpty)
    }

    @Test func landAcrossTheAntimeridianIsOneMap() throws {
        // Fiji straddles ±180°: its land must lie near the data, not a world away.
        let svg = try ParsedSVG(HeatMapRenderer.svg(geographicBins(-22, 175)))
        let land = try #require(svg.elements("path", class: "land").first)
        let rings = subpaths(try #require(land.attr("d")))
        #expect(rings.count > 10)
        for ring in rings { for p in ring { #expect(p.x > 0 && p.x < 800 && p.y > 0 && p.y < 600) } }
    }

    @Test func worldAndOwnLinesStack() throws {
        let own = HeatMapBasemap(lines: [
            [
                LocationCoordinate2D(latitude: 40, longitude: -30),
                LocationCoordinate2D(latitude: 45, longitude: -25)
            ]
        ])
        var options = HeatMapRenderOptions()
        options.basemap = .world + own
        let svg = try ParsedSVG(HeatMapRenderer.svg(geographicBins(40, -30), options: options))
        let d = try #require(svg.elements("path", class: "basemap").first?.attr("d"))
        options.basemap = .world
        let worldSVG = try ParsedSVG(HeatMapRenderer.svg(geographicBins(40, -30), options: options))
        let worldOnly = try #require(worldSVG.elements("path", class: "basemap").first?.attr("d"))
        #expect(subpaths(d).count == subpaths(worldOnly).count + 1)
    }
}

@Suite struct PictureReductionTests {
    let reducer = PixelPathReducer(step: 0.25)

    @Test func straightRunsCollapseToTheirEnds() {
        let line = (0...40).map { (x: Double($0) * 0.5, y: 3.0) } + [(x: 20.0, y: 10.0)]
        let out = reducer.reduce(line, closed: false)
        #expect(out.count == 3)
        #expect(out[0] == (0, 3) && out[1] == (20, 3) && out[2] == (20, 10))
    }

    @Test(arguments: [4, 5, 6]) func reductionIsTheSameWhicheverWayARingIsWalked(seed: UInt64) {
        // A shared boundary walked one way by one band and the other way by its neighbour
        // must reduce to the same points.
        var rng = SplitMix(seed: seed)
        var points: [(x: Double, y: Double)] = []
        var x = 0.0, y = 0.0
        for _ in 0..<400 {
            let straight = Bool.random(using: &rng)
            x += straight ? 0.25 : Double.random(in: -1...1, using: &rng)
            y += straight ? 0 : Double.random(in: -1...1, using: &rng)
            points.append((x, y))
        }
        let forward = reducer.reduce(points, closed: false).map { "\($0.x),\($0.y)" }
        let backward = reducer.reduce(points.reversed(), closed: false).map { "\($0.x),\($0.y)" }
        #expect(forward == backward.reversed())
        #expect(forward.count < points.count)
        // Every kept point is an input point snapped to the grid.
        let snapped = Set(points.map { "\(Int(($0.x * 4).rounded())),\(Int(($0.y * 4).rounded()))" })
        let kept = reducer.reduce(points, closed: false).map {
            "\(Int(($0.x * 4).rounded())),\(Int(($0.y * 4).rounded()))"
        }
        #expect(kept.allSatisfy { snapped.contains($0) })
    }

    @Test func ringsAreClippedToTheBox() {
        let ring = [PlanePoint(x: -5, y: -5), PlanePoint(x: 5, y: -5), PlanePoint(x: 5, y: 5), PlanePoint(x: -5, y: 5)]
        let box = PlaneBox(minX: 0, minY: 0, maxX: 10, maxY: 10)
        let piece = RingClipper.clip(ring, to: box)
        #expect(piece.allSatisfy { $0.x >= 0 && $0.x <= 10 && $0.y >= 0 && $0.y <= 10 })
        var area = 0.0
        for (a, b) in zip(piece, piece.dropFirst() + [piece[0]]) { area += a.x * b.y - b.x * a.y }
        #expect(abs(abs(area) / 2 - 25) < 1e-9)
        #expect(RingClipper.clip(ring, to: PlaneBox(minX: 20, minY: 20, maxX: 30, maxY: 30)).isEmpty)
        #expect(RingClipper.clip(ring, to: PlaneBox(minX: -10, minY: -10, maxX: 10, maxY: 10)).count == 4)
    }

    @Test func scaleBarsAreRoundLengths() {
        #expect(ScaleBar.roundLength(atMost: 1234) == 1000)
        #expect(ScaleBar.roundLength(atMost: 2500) == 2000)
        #expect(ScaleBar.roundLength(atMost: 999_999) == 500_000)
        #expect(ScaleBar.roundLength(atMost: 0) == nil)
        #expect(ScaleBar.text(500_000) == "500 km" && ScaleBar.text(200) == "200 m")
        // A degree of latitude is about 111 km.
        let d = ScaleBar.groundDistance(
            LocationCoordinate2D(latitude: 0, longitude: 0),
            LocationCoordinate2D(latitude: 1, longitude: 0))
        #expect(abs(d - 111_195) < 50)
    }
}
