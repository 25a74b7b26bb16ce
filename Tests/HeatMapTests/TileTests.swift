import Foundation
import Testing

@testable import HeatMapContouring
@testable import HeatMapCore
@testable import HeatMapDensity
@testable import HeatMapFormats

/// Vector tiles: the encodings (protobuf, MVT commands, Hilbert ids,
/// PMTiles directories, gzip), and the library's tiles against its archive.
@Suite struct TileTests {
    @Test func hilbertIDsMatchThePMTilesNumbering() {
        // Values from the PMTiles specification's reference implementations.
        #expect(HilbertTileID.id(z: 0, x: 0, y: 0) == 0)
        #expect(HilbertTileID.id(z: 1, x: 0, y: 0) == 1)
        #expect(HilbertTileID.id(z: 1, x: 0, y: 1) == 2)
        #expect(HilbertTileID.id(z: 1, x: 1, y: 1) == 3)
        #expect(HilbertTileID.id(z: 1, x: 1, y: 0) == 4)
        #expect(HilbertTileID.id(z: 2, x: 1, y: 3) == 11)
        #expect(HilbertTileID.id(z: 3, x: 3, y: 0) == 26)
        #expect(HilbertTileID.id(z: 12, x: 3423, y: 1763) == 19_078_479)
    }

    @Test func hilbertIDsRoundTripAndAlignedBlocksAreContiguous() {
        for z in 0...4 {
            let n = 1 << z
            var seen = Set<UInt64>()
            for x in 0..<n {
                for y in 0..<n {
                    let id = HilbertTileID.id(z: z, x: x, y: y)
                    #expect(HilbertTileID.tile(id) == (z, x, y))
                    seen.insert(id)
                }
            }
            #expect(seen.count == n * n)
        }
        // Every aligned 2×2 block at zoom 4 is four consecutive ids.
        for bx in 0..<8 {
            for by in 0..<8 {
                let ids = [(0, 0), (0, 1), (1, 0), (1, 1)].map {
                    HilbertTileID.id(z: 4, x: 2 * bx + $0.0, y: 2 * by + $0.1)
                }
                #expect(ids.max()! - ids.min()! == 3)
            }
        }
    }

    @Test func protobufVarintsAndZigzag() {
        var w = ProtobufWriter()
        w.varint(300)
        #expect(w.bytes == [0xAC, 0x02])
        #expect(ProtobufWriter.zigzag(0) == 0)
        #expect(ProtobufWriter.zigzag(-1) == 1)
        #expect(ProtobufWriter.zigzag(1) == 2)
        #expect(ProtobufWriter.zigzag(-2) == 3)
        #expect(ProtobufWriter.zigzag(Int32.max) == UInt32.max - 1)
    }

    @Test func geometryCommandsFollowTheSpecExample() {
        // MVT 2.1 §4.3.5.3: a polygon (3,6) (8,12) (20,34) is
        // 9 6 12 18 10 12 24 44 15.
        var g = VectorTileGeometry()
        g.ring([TilePoint(x: 3, y: 6), TilePoint(x: 8, y: 12), TilePoint(x: 20, y: 34)])
        #expect(g.integers == [9, 6, 12, 18, 10, 12, 24, 44, 15])
    }

    @Test func crcAndGzipRoundTrip() throws {
        #expect(CRC32.checksum(Array("123456789".utf8)) == 0xCBF4_3926)
        var random = SplitMix(seed: 7)
        let data = (0..<5000).map { _ in UInt8.random(in: 0...7, using: &random) }
        let gz = Gzip.compress(data)
        #expect(gz.prefix(3) == [0x1f, 0x8b, 8])
        #expect(try TileArchiveReader.gunzip(gz) == data)
    }

    @Test func quantisedRingsDropFoldsAndCollapses() throws {
        // A spike that rounds onto itself goes; the square stays, positive.
        let ring = [
            PlanePoint(x: 0, y: 0), PlanePoint(x: 10, y: 0), PlanePoint(x: 10, y: 10),
            PlanePoint(x: 0.1, y: 10.2), PlanePoint(x: 0.2, y: 20), PlanePoint(x: 0, y: 10)
        ]
        let q = try #require(TileQuantizer.ring(ring, exterior: true))
        #expect(q == [TilePoint(x: 0, y: 0), TilePoint(x: 10, y: 0), TilePoint(x: 10, y: 10), TilePoint(x: 0, y: 10)])
        #expect(TileQuantizer.doubleArea(q) > 0)
        // A sliver narrower than a unit collapses to nothing.
        let sliver = [PlanePoint(x: 0, y: 0), PlanePoint(x: 0.1, y: 50), PlanePoint(x: 0.3, y: 0.2)]
        #expect(TileQuantizer.ring(sliver, exterior: true) == nil)
        // A ring wound the wrong way for its role is dropped.
        #expect(TileQuantizer.ring(ring, exterior: false) == nil)
    }

    @Test func directoriesSplitIntoLeavesWhenTheRootIsTooLarge() throws {
        var entries: [PMTilesEntry] = []
        var random = SplitMix(seed: 3)
        var id: UInt64 = 0, offset: UInt64 = 0
        for _ in 0..<60_000 {
            id += UInt64.random(in: 1...5, using: &random)
            let length = UInt32.random(in: 20...4000, using: &random)
            entries.append(PMTilesEntry(tileID: id, offset: offset, length: length, runLength: 1))
            offset += UInt64(length)
        }
        let built = PMTilesDirectory.build(entries)
        #expect(built.root.count <= 16_384 - PMTilesHeader.size)
        #expect(!built.leaves.isEmpty)
        let root = try TileArchiveReader.entries(TileArchiveReader.gunzip(built.root))
        var all: [PMTilesEntry] = []
        for pointer in root {
            #expect(pointer.runLength == 0)
            let leaf = Array(built.leaves[Int(pointer.offset)..<Int(pointer.offset) + Int(pointer.length)])
            all += try TileArchiveReader.entries(TileArchiveReader.gunzip(leaf))
        }
        #expect(all == entries)
    }

    /// Points in two clusters either side of the antimeridian (Fiji).
    static func points(count: Int, seed: UInt64) -> [HeatMapPoint] {
        var random = SplitMix(seed: seed)
        return (0..<count).map { k in
            let centre = k % 3 == 0 ? (-17.8, 178.2) : (-16.5, -179.6)
            let lat = centre.0 + Double.random(in: -1...1, using: &random) * Double.random(in: 0...1, using: &random)
            var lon = centre.1 + Double.random(in: -1...1, using: &random) * Double.random(in: 0...1, using: &random)
            if lon >= 180 { lon -= 360 }
            return HeatMapPoint(latitude: lat, longitude: lon, weight: 1)
        }
    }

    @Test func libraryTilesAreTheArchivesTilesByteForByte() async throws {
        let points = Self.points(count: 3000, seed: 11)
        let configuration = HeatMapConfiguration(radius: 15_000, contourLevels: 5, bandwidth: .fixed)
        let tiles = try await HeatMapTiles.make(from: points, configuration: configuration, zooms: 4...8, bins: .h3)
        let sink = MemorySink()
        let summary = try await tiles.write(to: sink)
        let archive = try TileArchiveReader(sink.bytes)
        #expect(archive.tiles.count == summary.tiles)
        #expect(summary.tilesPerZoom.count == 5)
        // Tiles on both sides of the antimeridian.
        let columns8 = Set(archive.tiles.keys.filter { $0.z == 8 }.map(\.x))
        #expect(columns8.contains { $0 < 8 } && columns8.contains { $0 > 240 })
        var compared = 0
        for (key, gz) in archive.tiles where key.z <= 6 || compared < 40 {
            let served = try await tiles.tile(z: key.z, x: key.x, y: key.y)
            #expect(try TileArchiveReader.gunzip(gz) == served, "tile \(key.z)/\(key.x)/\(key.y)")
            compared += 1
        }
        #expect(compared >= 20)
        // A tile the archive leaves out is empty when served.
        let far = try await tiles.tile(z: 6, x: 0, y: 0)
        #expect(far.isEmpty)
        #expect(archive.header.minZoom == 4 && archive.header.maxZoom == 8)
    }

    @Test func tilesWhollyInsideOneBandAreStoredOnce() async throws {
        // An even patch 55 km wide: at zoom 12 (tiles of 10 km) the tiles
        // inside it are inside the top band.
        var random = SplitMix(seed: 5)
        let points = (0..<8000).map { _ in
            HeatMapPoint(
                latitude: 10 + Double.random(in: -0.25...0.25, using: &random),
                longitude: 20 + Double.random(in: -0.25...0.25, using: &random), weight: 1)
        }
        let configuration = HeatMapConfiguration(
            radius: 6_000, contourLevels: 2, levelSpacing: .linear,
            bandwidth: .fixed)
        let tiles = try await HeatMapTiles.make(from: points, configuration: configuration, zooms: 12...12)
        let sink = MemorySink()
        let summary = try await tiles.write(to: sink)
        #expect(summary.contents < summary.tiles)
        let archive = try TileArchiveReader(sink.bytes)
        #expect(archive.entries.contains { $0.runLength > 1 })
    }

    @Test(arguments: [0, 2])
    func pointsWithoutWeightMakeAnArchiveWithoutTiles(count: Int) async throws {
        // No point, or only points of weight 0: nothing to tile (the field's
        // box is empty, which once made an empty range and infinite bounds).
        let points = (0..<count).map { k in HeatMapPoint(latitude: 10 + Double(k), longitude: 20, weight: 0) }
        let tiles = try await HeatMapTiles.make(
            from: points, configuration: HeatMapConfiguration(radius: 6_000), zooms: 0...6)
        let sink = MemorySink()
        let summary = try await tiles.write(to: sink)
        #expect(summary.tiles == 0)
        let archive = try TileArchiveReader(sink.bytes)
        #expect(archive.tiles.isEmpty && archive.header.minZoom == 0 && archive.header.maxZoom == 6)
        // Bounds: the whole web map (degrees × 10⁷, little-endian Int32).
        func e7(_ at: Int) -> Int32 {
            Int32(bitPattern: (0..<4).reduce(UInt32(0)) { $0 | UInt32(sink.bytes[at + $1]) << (8 * UInt32($1)) })
        }
        #expect([e7(102), e7(106), e7(110), e7(114)] == [-1_800_000_000, -850_511_288, 1_800_000_000, 850_511_288])
    }

    /// The node values of a block around points at the plane's centre,
    /// and each node's plane position.
    static func nodeValues(
        _ points: PlanePoints, radius: Double, kernel: DensityKernel, values: KernelValues = .density
    ) throws -> (values: [Double], x: [Double], y: [Double]) {
        let projection = PlaneProjection(kind: .equalArea, centreLatitude: 10, centreLongitude: 20)
        let field = try PointTileField(
            points: points, projection: projection, radius: radius, kernel: kernel, kernelValues: values,
            control: .none)
        // Zoom 11: 19.5 km tiles, the lattice's cells 300 m; the block of
        // the tile holding (10°N, 20°E).
        let z = 11, n = Double(1 << z)
        let x = Int(WebMercator.u(longitude: 20) * n), y = Int(WebMercator.v(latitude: 10) * n)
        let block = TileBlock(z: z, x0: x, y0: y, width: 1, height: 1)
        let nodes = block.planeNodes(projection)
        return (try field.values(block, control: .none), nodes.x, nodes.y)
    }

    /// Points round the globe (a ring at 84° N): their unprojected
    /// longitudes run past ±180° on one side of the plane's centre, so a
    /// tile over the meridian opposite the centre holds points whose u is a
    /// turn off its own. Every node of that tile, taken at either of its
    /// unwrapped columns, is the exact sum over all the points.
    @Test func aTileOppositeThePlanesCentreSumsEveryPoint() throws {
        let projection = PlaneProjection(kind: .equalArea, centreLatitude: 84, centreLongitude: -141)
        let projector = PointProjector(projection)
        var points = PlanePoints()
        for k in 0..<240 {
            let p = projector.plane(latitude: 84 + 0.3 * sin(Double(k)), longitude: -180 + 1.5 * Double(k))
            points.append(x: p.x, y: p.y, weight: 1 + Double(k % 3))
        }
        let r = 300_000.0
        let field = try PointTileField(
            points: points, projection: projection, radius: r, kernel: .quartic, control: .none)
        // Zoom 4, column 9 (22.5°…45° E, over the meridian 39° E opposite the
        // centre), row 0 (66.5°…85° N); and the same tile a turn west.
        for column in [9, 9 - 16] {
            let block = TileBlock(z: 4, x0: column, y0: 0, width: 1, height: 1)
            let values = try field.values(block, control: .none)
            let nodes = block.planeNodes(projection)
            var reached = 0
            for i in values.indices {
                var sum = 0.0
                for k in 0..<points.count {
                    let dx = nodes.x[i] - points.x[k], dy = nodes.y[i] - points.y[k]
                    let u2 = (dx * dx + dy * dy) / (r * r)
                    if u2 <= 1 { sum += points.weight[k] * (1 - u2) * (1 - u2) }
                }
                let expected = sum * 3 / (Double.pi * r * r) * 1e6
                #expect(abs(values[i] - expected) <= 1e-12 * max(expected, 1e-9), "column \(column) node \(i)")
                if expected > 0 { reached += 1 }
            }
            #expect(reached > values.count / 4)
        }
    }

    @Test func finiteKernelsAreSummedExactlyToTheirSupport() throws {
        // One point of weight 2 at the centre: every node holds
        // 2 · c/(πr²) · shape(d/r) per km², 0 beyond r (closed forms of docs/density-model.md).
        let r = 4000.0
        let point = PlanePoints(x: [0], y: [0], weight: [2])
        let cases: [(DensityKernel, (Double) -> Double)] = [
            (.quartic, { u2 in 3 / Double.pi * (1 - u2) * (1 - u2) }),
            (.epanechnikov, { u2 in 2 / Double.pi * (1 - u2) }),
            (.uniform, { _ in 1 / Double.pi }),
            (.triangular(decay: 0.5), { u2 in 3 / (2 * Double.pi) * (1 - 0.5 * u2.squareRoot()) })
        ]
        for (kernel, density) in cases {
            let (values, xs, ys) = try Self.nodeValues(point, radius: r, kernel: kernel)
            var inside = 0
            for i in values.indices {
                let u2 = (xs[i] * xs[i] + ys[i] * ys[i]) / (r * r)
                let expected = u2 <= 1 ? 2 * density(u2) / (r * r) * 1e6 : 0
                #expect(abs(values[i] - expected) <= 1e-12 * max(expected, 1), "\(kernel.name) node \(i)")
                if u2 <= 1 { inside += 1 }
            }
            #expect(inside > 100)
        }
        // Raw values: weight × shape, no unit.
        let (raw, xs, ys) = try Self.nodeValues(point, radius: r, kernel: .quartic, values: .raw)
        for i in raw.indices {
            let u2 = min((xs[i] * xs[i] + ys[i] * ys[i]) / (r * r), 1)
            #expect(abs(raw[i] - 2 * (1 - u2) * (1 - u2)) <= 1e-12)
        }
    }

    @Test func pointsWithTheirOwnRadiiSumTheirOwnKernels() throws {
        // Two points at one place, radii 2 km and 6 km, normalised by 3 km:
        // each adds w · c/(π rᵢ²) · shape(d/rᵢ), the Gaussian to 5σᵢ.
        var points = PlanePoints(x: [0, 0], y: [0, 0], weight: [1, 3])
        points.radius = [2000, 6000]
        for kernel in [DensityKernel.epanechnikov, .gaussian] {
            let (values, xs, ys) = try Self.nodeValues(points, radius: 3000, kernel: kernel)
            var reached = Set<Int>()
            for i in values.indices {
                let d2 = xs[i] * xs[i] + ys[i] * ys[i]
                var expected = 0.0
                for (w, r) in [(1.0, 2000.0), (3.0, 6000.0)] {
                    let u2 = d2 / (r * r)
                    if kernel == .gaussian {
                        if u2 <= 25.0 / 9 { expected += w * 4.5 / (Double.pi * r * r) * exp(-4.5 * u2) }
                    } else if u2 <= 1 {
                        expected += w * 2 / (Double.pi * r * r) * (1 - u2)
                        reached.insert(Int(r))
                    }
                }
                expected *= 1e6
                #expect(abs(values[i] - expected) <= 1e-12 * max(expected, 1e-9), "\(kernel.name) node \(i)")
            }
            if kernel != .gaussian { #expect(reached == [2000, 6000]) }
        }
    }

    @Test func adaptiveTilesSumAbramsonsRadiiAndNameTheKernel() async throws {
        let points = Self.points(count: 400, seed: 3)
        let radius = 20_000.0
        var configuration = HeatMapConfiguration(radius: radius, contourLevels: 4, bandwidth: .fixed)
        configuration.kernel = .quartic
        configuration.bandwidth = .adaptive(sensitivity: 0.5)
        let tiles = try await HeatMapTiles.make(from: points, configuration: configuration, zooms: 6...6)
        let field = try #require(tiles.field as? PointTileField)
        // Abramson's radii, from the exact pilot at every point (itself included).
        // The points as tiles take them (those with a valid place).
        let prepared = try PointPreparation.prepare(points, configuration: configuration, strict: false, control: .none)
        let plane = (0..<prepared.points.count).map { PlanePoint(x: prepared.points.x[$0], y: prepared.points.y[$0]) }
        #expect(prepared.projection == field.projection && plane.count > 300)
        func quartic(_ d2: Double, _ r: Double) -> Double { d2 <= r * r ? pow(1 - d2 / (r * r), 2) : 0 }
        let pilot = plane.map { p in
            var sum = 0.0
            for q in plane {
                let dx = q.x - p.x, dy = q.y - p.y
                sum += quartic(dx * dx + dy * dy, radius)
            }
            return sum
        }
        let g = exp(pilot.map { log($0) }.reduce(0, +) / Double(pilot.count))
        let radii = pilot.map { radius * min(pow($0 / g, -0.5), 5) }
        #expect(radii.min()! < 0.8 * radius && radii.max()! > 1.2 * radius)
        // Every node of a block over the points: Σ c/(π rᵢ²) (1 − d²/rᵢ²)² per km².
        let z = 6, n = Double(1 << z)
        let block = TileBlock(
            z: z, x0: Int(WebMercator.u(longitude: 178.2) * n), y0: Int(WebMercator.v(latitude: -17.8) * n),
            width: 1, height: 1)
        let values = try field.values(block, control: .none)
        let nodes = block.planeNodes(field.projection)
        var largest = 0.0
        for i in values.indices where i % 7 == 0 {
            var exact = 0.0
            for (k, p) in plane.enumerated() {
                let d2 = pow(nodes.x[i] - p.x, 2) + pow(nodes.y[i] - p.y, 2)
                exact += 3 / (Double.pi * radii[k] * radii[k]) * quartic(d2, radii[k]) * 1e6
            }
            largest = max(largest, exact)
            // The pilot's pair sums are single precision (NeighbourSums), so
            // a radius is within about 1e-7 of Abramson's, a value within 1e-6.
            #expect(abs(values[i] - exact) <= 1e-6 * max(exact, 1e-6), "node \(i)")
        }
        #expect(largest > 0)
        #expect(tiles.metadata.contains("\"kernel\":\"quartic\""))
        #expect(!tiles.metadata.contains("sigma"))
    }

    /// A tile whose contours lie only in its buffer (the band of a
    /// neighbour reaching a node past the edge) has nothing of its own: it
    /// is empty, left out; one whose band reaches its square keeps it.
    @Test func contoursInTheBufferAloneMakeNoTile() throws {
        let n = TileLattice.tileNodes
        let legend = TileLegend(thresholds: [1, 2], units: "per km²", gradient: .thermal, isolines: true)
        func values(columns: Range<Int>) -> [Double] {
            (0..<(n * n)).map { columns.contains($0 % n) && (20..<30).contains($0 / n) ? 5 : 0 }
        }
        // Node column 0 is a cell west of the tile's edge.
        let buffer = try TileEncoder.encode(
            values(columns: 0..<1), legend: legend, smoother: .none, simplify: false, control: .none)
        #expect(buffer == nil)
        let inside = try TileEncoder.encode(
            values(columns: 0..<3), legend: legend, smoother: .none, simplify: false, control: .none)
        #expect(inside != nil)
    }

    @Test func hexagonBinsHoldTheirPointsAndAreOneCellAcrossTheAntimeridian() throws {
        // One point of weight 3 just west of 180°, one just east.
        let bins = TileBins(latitude: [-17, -17.2], longitude: [179.9995, -179.9995], weight: [3, 1], shape: .hexagon)
        let legend = TileLegend(thresholds: [1e-3, 1], units: "per km²", gradient: .thermal, isolines: false)
        for z in [5, 9] {
            let n = 1 << z, y = Int(WebMercator.v(latitude: -17.1) * Double(n))
            let east = try bins.bins(z: z, x: n - 1, y: y, control: .none)
            let west = try bins.bins(z: z, x: 0, y: y, control: .none)
            // Every cell is whole: the same cells on both sides, one tile width apart.
            #expect(east.count == west.count && !east.isEmpty)
            let extent = Double(TileLattice.extent)
            for (e, w) in zip(
                east.sorted { $0.ring[0].x < $1.ring[0].x }, west.sorted { $0.ring[0].x < $1.ring[0].x })
            {
                #expect(e.count == w.count && e.weight == w.weight)
                for (p, q) in zip(e.ring, w.ring) {
                    #expect(abs(p.x - (q.x + extent)) < 1e-6 && abs(p.y - q.y) < 1e-6)
                }
            }
            #expect(east.reduce(0) { $0 + $1.count } == 2)
            // Density: weight over the cell's ground area (a hexagon of radius R covers 3√3/2 R²).
            let radius = TileBins.hexagonRadius(z: z) / WebMercator.unitsPerMetre(latitude: -17.1) / 1000
            let area = 1.5 * 3.0.squareRoot() * radius * radius
            for bin in east { #expect(abs(bin.density - bin.weight / area) < 0.02 * bin.density) }
            #expect(try bins.layer(z: z, x: 0, y: y, legend: legend, control: .none) != nil)
        }
    }

    @Test func aBandThatRoundingMakesInvalidIsFound() {
        // Valid in doubles: the hole's bottom edge (y 0.9) lies above the
        // exterior's (y 0.6); both round to y 1, one edge over the other.
        func band(holeBottom: Double) -> [[PlanePolygon]] {
            let exterior = [
                PlanePoint(x: 0, y: 0.6), PlanePoint(x: 100, y: 0.6), PlanePoint(x: 100, y: 100),
                PlanePoint(x: 0, y: 100)
            ]
            let hole = [
                PlanePoint(x: 30, y: holeBottom), PlanePoint(x: 30, y: 50), PlanePoint(x: 70, y: 50),
                PlanePoint(x: 70, y: holeBottom)
            ]
            return [[], [PlanePolygon(exterior: exterior, holes: [hole])]]
        }
        #expect(!TileQuantizer.roundsValid(TileQuantizer.rounded(band(holeBottom: 0.9)), control: .none))
        #expect(TileQuantizer.roundsValid(TileQuantizer.rounded(band(holeBottom: 3)), control: .none))
        #expect(TileQuantizer.roundsValid([], control: .none))
    }

    /// Where a mean falls steeply to the nodes without data, every level's
    /// boundary runs along the same cells a unit or two apart; simplified,
    /// one passed within a unit of another's vertex, and rounding put that
    /// vertex across it (GEOS: self-intersection). The Ames sales west of
    /// the centre at zoom 14 made such a tile (found by a sweep of the
    /// tool's options; `contours tiles` with `--value Sale_Price`).
    @Test func simplifiedBandsOfAMeanStayValidOnceRounded() async throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let text = try String(contentsOf: root.appendingPathComponent("Samples/data/ames.csv"), encoding: .utf8)
        let points = text.split(separator: "\n").dropFirst().compactMap { line -> HeatMapPoint? in
            let f = line.split(separator: ",").compactMap { Double($0) }
            guard f.count >= 3, (-93.71)...(-93.65) ~= f[0], 42.00...42.05 ~= f[1] else { return nil }
            return HeatMapPoint(latitude: f[1], longitude: f[0], value: f[2])
        }
        #expect(points.count == 840)
        let configuration = HeatMapConfiguration(
            radius: 167.005,
            levelSpacing: .custom([
                80161.2, 147222, 214284, 281345, 348406, 415467, 482529, 549590, 616651, 683712
            ]),
            estimator: .mean)
        let tiles = try await HeatMapTiles.make(from: points, configuration: configuration, zooms: 14...14)
        let sink = MemorySink()
        _ = try await tiles.write(to: sink)
        let archive = try TileArchiveReader(sink.bytes)
        var features = 0
        for (key, gz) in archive.tiles {
            for (k, polygons) in try TileBandsReader.features(TileArchiveReader.gunzip(gz)).enumerated() {
                let rings = RingContactCheck.rings(ofPolygons: polygons)
                #expect(RingContactCheck.offenders(rings).isEmpty, "tile \(key.z)/\(key.x)/\(key.y) feature \(k)")
                features += 1
            }
        }
        #expect(archive.tiles.count >= 8 && features >= 40)
    }

    @Test func planarPointsAreRefused() async {
        let points = [HeatMapPoint(latitude: 1, longitude: 2, weight: 1)]
        await #expect(throws: HeatMapError.self) {
            _ = try await HeatMapTiles.make(from: points, configuration: HeatMapConfiguration(projection: .planar))
        }
    }
}

/// Keeps every byte written.
final class MemorySink: ByteSink {
    var bytes: [UInt8] = []
    func write(_ chunk: UnsafeRawBufferPointer) throws { bytes.append(contentsOf: chunk) }
}

/// Reads a PMTiles archive back: header fields, every entry, every tile.
struct TileArchiveReader {
    struct Key: Hashable { var z: Int, x: Int, y: Int }
    struct Header { var minZoom: Int, maxZoom: Int }

    var header: Header
    var entries: [PMTilesEntry] = []
    var tiles: [Key: [UInt8]] = [:]

    init(_ bytes: [UInt8]) throws {
        func u64(_ at: Int) -> Int { (0..<8).reduce(0) { $0 | Int(bytes[at + $1]) << (8 * $1) } }
        #expect(Array(bytes[0..<7]) == Array("PMTiles".utf8) && bytes[7] == 3)
        header = Header(minZoom: Int(bytes[100]), maxZoom: Int(bytes[101]))
        let root = Array(bytes[u64(8)..<u64(8) + u64(16)])
        let leaves = u64(40), data = u64(56)
        func walk(_ directory: [UInt8], into out: inout [PMTilesEntry]) throws {
            for e in try Self.entries(Self.gunzip(directory)) {
                if e.runLength == 0 {
                    try walk(Array(bytes[leaves + Int(e.offset)..<leaves + Int(e.offset) + Int(e.length)]), into: &out)
                } else {
                    out.append(e)
                }
            }
        }
        try walk(root, into: &entries)
        for e in entries {
            let content = Array(bytes[data + Int(e.offset)..<data + Int(e.offset) + Int(e.length)])
            for k in 0..<UInt64(e.runLength) {
                let t = HilbertTileID.tile(e.tileID + k)
                tiles[Key(z: t.z, x: t.x, y: t.y)] = content
            }
        }
    }

    static func gunzip(_ gz: [UInt8]) throws -> [UInt8] {
        try Array(gz[10..<(gz.count - 8)]).withUnsafeBufferPointer { try Inflater.raw($0, expected: nil) }
    }

    static func entries(_ bytes: [UInt8]) throws -> [PMTilesEntry] {
        var cursor = VarintCursor(bytes[...])
        func varint() -> UInt64 { cursor.varint() }
        let n = Int(varint())
        var out = [PMTilesEntry](repeating: PMTilesEntry(tileID: 0, offset: 0, length: 0, runLength: 0), count: n)
        var id: UInt64 = 0
        for k in 0..<n { id += varint(); out[k].tileID = id }
        for k in 0..<n { out[k].runLength = UInt32(varint()) }
        for k in 0..<n { out[k].length = UInt32(varint()) }
        for k in 0..<n {
            let v = varint()
            out[k].offset = v == 0 && k > 0 ? out[k - 1].offset + UInt64(out[k - 1].length) : v - 1
        }
        return out
    }
}

/// The `bands` layer of a Mapbox Vector Tile read back: each feature's
/// rings in tile units, grouped into polygons as MVT 2.1
/// says (a ring of positive surveyor's area starts a polygon, the
/// negative ones after it are its holes).
enum TileBandsReader {
    static func features(_ mvt: [UInt8]) throws -> [[[[FixedPoint]]]] {
        var out: [[[[FixedPoint]]]] = []
        for (field, layer) in try fields(mvt[...]) where field == 3 {
            let parts = try fields(layer)
            guard parts.contains(where: { $0.0 == 1 && Array($0.1) == Array("bands".utf8) }) else { continue }
            for (field, feature) in parts where field == 2 {
                for (f, bytes) in try fields(feature) where f == 4 { out.append(polygons(packed(bytes))) }
            }
        }
        return out
    }

    /// The length-delimited fields of a message (field number, bytes);
    /// varint and fixed-width fields are skipped.
    private static func fields(_ bytes: ArraySlice<UInt8>) throws -> [(Int, ArraySlice<UInt8>)] {
        var cursor = VarintCursor(bytes), out: [(Int, ArraySlice<UInt8>)] = []
        while cursor.at < bytes.endIndex {
            let key = cursor.varint()
            switch key & 7 {
            case 0: _ = cursor.varint()
            case 1: cursor.at += 8
            case 5: cursor.at += 4
            case 2:
                let n = Int(cursor.varint())
                out.append((Int(key >> 3), bytes[cursor.at..<cursor.at + n]))
                cursor.at += n
            default: throw HeatMapError.invalidConfiguration("wire type \(key & 7)")
            }
        }
        return out
    }

    private static func packed(_ bytes: ArraySlice<UInt8>) -> [UInt32] {
        var cursor = VarintCursor(bytes), out: [UInt32] = []
        while cursor.at < bytes.endIndex { out.append(UInt32(truncatingIfNeeded: cursor.varint())) }
        return out
    }

    private static func polygons(_ commands: [UInt32]) -> [[[FixedPoint]]] {
        var polygons: [[[FixedPoint]]] = [], ring: [FixedPoint] = []
        var x: Int64 = 0, y: Int64 = 0, k = 0
        func zigzag(_ n: UInt32) -> Int64 { Int64(n >> 1) ^ -Int64(n & 1) }
        while k < commands.count {
            let id = commands[k] & 7, count = Int(commands[k] >> 3)
            k += 1
            if id == 7 {
                var area: Int64 = 0
                for (i, p) in ring.enumerated() {
                    let q = ring[(i + 1) % ring.count]
                    area += p.x * q.y - q.x * p.y
                }
                if area > 0 || polygons.isEmpty {
                    polygons.append([ring])
                } else {
                    polygons[polygons.count - 1].append(ring)
                }
                ring = []
                continue
            }
            for _ in 0..<count {
                x += zigzag(commands[k])
                y += zigzag(commands[k + 1])
                k += 2
                ring.append(FixedPoint(x: x, y: y))
            }
        }
        return polygons
    }
}

/// Reads protobuf varints (PMTiles directories, MVT messages) one after
/// another from `at`.
struct VarintCursor {
    let bytes: ArraySlice<UInt8>
    var at: Int

    init(_ bytes: ArraySlice<UInt8>) {
        self.bytes = bytes
        at = bytes.startIndex
    }

    mutating func varint() -> UInt64 {
        var v: UInt64 = 0, shift: UInt64 = 0
        while true {
            let b = bytes[at]
            at += 1
            v |= UInt64(b & 0x7f) << shift
            if b < 0x80 { return v }
            shift += 7
        }
    }
}
