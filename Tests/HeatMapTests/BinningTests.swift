import Foundation
import Testing

@testable import HeatMapContouring
@testable import HeatMapCore
@testable import HeatMapDensity
@testable import HeatMapFormats

@Suite struct BinningTests {
    func planar(
        _ shape: BinShape = .hexagon, size: Double, orientation: HexOrientation = .pointy,
        includeEmpty: Bool = false
    ) -> BinningConfiguration {
        BinningConfiguration(
            shape: shape, size: size, orientation: orientation, projection: .planar,
            includeEmpty: includeEmpty)
    }

    func randomPoints(_ n: Int, seed: UInt64, spread: Double = 100) -> PlanePoints {
        var rng = SplitMix(seed: seed)
        var points = PlanePoints()
        for _ in 0..<n {
            points.append(x: (rng.unit() - 0.3) * spread, y: (rng.unit() - 0.6) * spread, weight: rng.unit() * 10)
        }
        return points
    }

    @Test(arguments: [BinShape.hexagon, .square])
    func countsSumToTheNumberOfPoints(_ shape: BinShape) throws {
        let points = randomPoints(20_000, seed: 11)
        for orientation in HexOrientation.allCases {
            for includeEmpty in [false, true] {
                let result = try HeatMapBinning.bin(
                    points,
                    configuration: planar(
                        shape, size: 1.5, orientation: orientation,
                        includeEmpty: includeEmpty))
                #expect(result.bins.reduce(0) { $0 + $1.statistics.count } == 20_000)
                #expect(result.pointCount == 20_000)
                #expect(abs(result.bins.reduce(0) { $0 + $1.statistics.sum } - points.totalWeight) < 1e-6)
                #expect(result.bins.map(\.id) == result.bins.map(\.id).sorted())
                #expect(Set(result.bins.map(\.id)).count == result.bins.count)
                if includeEmpty {
                    #expect(result.bins.contains { $0.statistics.count == 0 })
                    // The honeycomb is what the grid says covers the data's box.
                    let cover = Set(result.grid.cells(covering: result.bounds))
                    #expect(Set(result.bins.map(\.id)).isSuperset(of: cover))
                } else {
                    #expect(result.bins.allSatisfy { $0.statistics.count > 0 })
                }
            }
        }
    }

    @Test func aggregatesAgainstHandComputedValues() throws {
        // Squares of side 10: three points in (0, 0), two in (1, -1), one in (-1, 0).
        let points = PlanePoints(
            x: [1, 2, 9.5, 11, 19, -0.5], y: [1, 9, 0, -1, -9, 3],
            weight: [1, 1, 1, 1, 1, 1], value: [4, -2, 7, 10, 20, 3.5])
        let result = try HeatMapBinning.bin(points, configuration: planar(.square, size: 10))
        #expect(result.bins.map(\.id) == [BinCellID(1, -1), BinCellID(-1, 0), BinCellID(0, 0)])
        let s = Dictionary(uniqueKeysWithValues: result.bins.map { ($0.id, $0.statistics) })
        let a = try #require(s[BinCellID(0, 0)])
        #expect(a.count == 3 && a.sum == 9 && a.mean == 3 && a.minimum == -2 && a.maximum == 7)
        let b = try #require(s[BinCellID(1, -1)])
        #expect(b.count == 2 && b.sum == 30 && b.mean == 15 && b.minimum == 10 && b.maximum == 20)
        let c = try #require(s[BinCellID(-1, 0)])
        #expect(c.value(.count) == 1 && c.value(.sum) == 3.5 && c.value(.mean) == 3.5 && c.value(.min) == 3.5)
        #expect(BinStatistics.empty.value(.mean) == nil && BinStatistics.empty.value(.count) == 0)
        #expect(BinStatistics.empty.value(.sum) == 0 && BinStatistics.empty.value(.max) == nil)
        // Without a value column the weights are aggregated.
        let weighted = try HeatMapBinning.bin(
            PlanePoints(x: [1, 2], y: [1, 1], weight: [2, 5]),
            configuration: planar(.square, size: 10))
        #expect(weighted.bins.first?.statistics.sum == 7)
        #expect(weighted.valueRange(.max) == 5...5)
    }

    @Test func streamingBatchesEqualOneCall() throws {
        let points = randomPoints(50_000, seed: 5, spread: 1000)
        let configuration = planar(size: 7, orientation: .flat)
        let once = try HeatMapBinning.bin(points, configuration: configuration)
        var binner = try Binner(configuration: configuration, projection: PlaneProjection(kind: .planar))
        var start = 0
        for size in [1, 999, 7000, 13, 30_000, 100_000] where start < points.count {
            let end = min(start + size, points.count)
            try binner.add(
                x: Array(points.x[start..<end]), y: Array(points.y[start..<end]),
                values: Array(points.weight[start..<end]))
            start = end
        }
        let streamed = try binner.result()
        #expect(streamed.bins.map(\.id) == once.bins.map(\.id))
        #expect(streamed.bins.map(\.statistics.count) == once.bins.map(\.statistics.count))
        for (a, b) in zip(streamed.bins, once.bins) {
            #expect(abs(a.statistics.sum - b.statistics.sum) < 1e-9)
            #expect(a.statistics.minimum == b.statistics.minimum && a.statistics.maximum == b.statistics.maximum)
        }
    }

    @Test func sparseBatchesGiveTheSameCellsAsDenseOnes() throws {
        // Points far apart (the sorted path) against the same points one by one.
        var rng = SplitMix(seed: 9)
        var x: [Double] = [], y: [Double] = []
        for _ in 0..<3000 { x.append((rng.unit() - 0.5) * 1e7); y.append((rng.unit() - 0.5) * 1e7) }
        x += [5, 5, 5]; y += [5, 5, 5]
        let configuration = planar(size: 1)
        var sparse = try Binner(configuration: configuration, projection: PlaneProjection(kind: .planar))
        try sparse.add(x: x, y: y)
        var single = try Binner(configuration: configuration, projection: PlaneProjection(kind: .planar))
        for k in x.indices { try single.add(PlanePoint(x: x[k], y: y[k])) }
        let a = try sparse.result(), b = try single.result()
        #expect(a.bins.map(\.id) == b.bins.map(\.id))
        #expect(a.bins.map(\.statistics) == b.bins.map(\.statistics))
        #expect(a.bins.contains { $0.statistics.count == 3 })
    }

    @Test func badPointsAreCountedOrRefused() throws {
        var binner = try Binner(configuration: planar(size: 1), projection: PlaneProjection(kind: .planar))
        try binner.add(x: [0, .nan, 1e300, 2, 3], y: [0, 0, 0, .infinity, 3], values: [1, 1, 1, 1, .nan])
        #expect(binner.summary.used == 1)
        #expect(binner.summary.rejectedCount == 4)
        var strict = try Binner(
            configuration: planar(size: 1), projection: PlaneProjection(kind: .planar), strict: true)
        try strict.add(x: [0, 1], y: [0, 1])
        #expect(throws: HeatMapError.invalidPoint(index: 3, reason: "x or y is not a finite number")) {
            try strict.add(x: [0, .nan], y: [0, 0])
        }
        // Geographic input outside the ranges of docs/density-model.md.
        let fitted = PlaneProjection(kind: .equalArea, centreLatitude: 0, centreLongitude: 0)
        var geo = try Binner(configuration: BinningConfiguration(size: 10), projection: fitted)
        try geo.add(latitudes: [0, 95, 10], longitudes: [0, 0, 400])
        #expect(geo.summary.used == 1)
        #expect(geo.summary.rejected["latitude outside [-90, 90]"] == 1)
        // Mismatched lengths and projections are configuration errors.
        #expect(throws: HeatMapError.self) { try geo.add(latitudes: [0], longitudes: []) }
        #expect(throws: HeatMapError.self) {
            try Binner(configuration: BinningConfiguration(size: 10), projection: PlaneProjection(kind: .planar))
        }
    }

    @Test func tooManyEmptyCellsIsAnErrorNotAnOutOfMemory() throws {
        var binner = try Binner(
            configuration: planar(size: 1e-6, includeEmpty: true),
            projection: PlaneProjection(kind: .planar))
        try binner.add(x: [0, 100], y: [0, 100])
        #expect(throws: HeatMapError.self) { try binner.result() }
    }

    @Test func emptyInputGivesNoBins() throws {
        let result = try HeatMapBinning.bin(
            [HeatMapPoint](), configuration: BinningConfiguration(size: 5, includeEmpty: true))
        #expect(result.bins.isEmpty)
        #expect(try GeoJSONExport.bins(result).contains("\"features\":[\n]"))
        #expect(BinCSV.text(result) == "q,r,x,y,count,value\n")
    }

    @Test(arguments: [HexOrientation.pointy, .flat])
    func equalAreaCellsHaveEqualGroundAreas(_ orientation: HexOrientation) throws {
        // Points over 40° of latitude and longitude across ±180°.
        var rng = SplitMix(seed: 21)
        var points: [HeatMapPoint] = []
        for k in 0..<4000 {
            points.append(
                HeatMapPoint(
                    id: k, latitude: -40 + rng.unit() * 40,
                    longitude: LongitudeArc.normalized(160 + rng.unit() * 40)))
        }
        let size = 60.0  // km
        let result = try HeatMapBinning.bin(
            points, configuration: BinningConfiguration(size: size, orientation: orientation))
        let expected = 1.5 * 3.0.squareRoot() * size * size * 1e6
        var worst = 0.0
        for bin in result.bins {
            let ring = bin.corners.map { result.projection.unproject($0) }
            let area = sphericalArea(ring, radius: PlaneProjection.authalicRadius)
            worst = max(worst, abs(area / expected - 1))
        }
        #expect(result.bins.count > 100)
        #expect(worst < 0.01, "largest area error \(worst)")
        // The same cells in web mercator are far from equal: the test can tell.
        let mercator = try HeatMapBinning.bin(
            points,
            configuration: BinningConfiguration(
                size: size, orientation: orientation, projection: .webMercator))
        let spread = mercator.bins.map { b in
            sphericalArea(b.corners.map { mercator.projection.unproject($0) }, radius: PlaneProjection.authalicRadius)
        }
        #expect((spread.max() ?? 0) / (spread.min() ?? 1) > 1.2)
    }

    /// Area of a spherical polygon with great-circle edges (square metres),
    /// by the signed solid angles of a fan of triangles.
    func sphericalArea(_ ring: [LocationCoordinate2D], radius: Double) -> Double {
        func v(_ c: LocationCoordinate2D) -> (Double, Double, Double) {
            let la = c.latitude * .pi / 180, lo = c.longitude * .pi / 180
            return (cos(la) * cos(lo), cos(la) * sin(lo), sin(la))
        }
        func dot(_ a: (Double, Double, Double), _ b: (Double, Double, Double)) -> Double {
            a.0 * b.0 + a.1 * b.1 + a.2 * b.2
        }
        func cross(_ a: (Double, Double, Double), _ b: (Double, Double, Double)) -> (Double, Double, Double) {
            (a.1 * b.2 - a.2 * b.1, a.2 * b.0 - a.0 * b.2, a.0 * b.1 - a.1 * b.0)
        }
        let a = v(ring[0])
        var total = 0.0
        for k in 1..<(ring.count - 1) {
            let b = v(ring[k]), c = v(ring[k + 1])
            total += 2 * atan2(dot(a, cross(b, c)), 1 + dot(a, b) + dot(b, c) + dot(c, a))
        }
        return abs(total) * radius * radius
    }

    @Test func projectionFitterMatchesTheFittedProjection() {
        var rng = SplitMix(seed: 4)
        for west in [-10.0, 170, 179.95, -180] {
            var coords: [LocationCoordinate2D] = []
            var fitter = ProjectionFitter()
            for _ in 0..<2000 {
                let c = LocationCoordinate2D(
                    latitude: -30 + rng.unit() * 20,
                    longitude: LongitudeArc.normalized(west + rng.unit() * 25))
                coords.append(c)
                fitter.add(latitude: c.latitude, longitude: c.longitude)
            }
            #expect(fitter.projection(.equalArea) == PlaneProjection.fitted(.equalArea, to: coords))
        }
        #expect(ProjectionFitter().projection(.equalArea) == PlaneProjection(kind: .equalArea))
    }

    @Test func csvHasTheColumnsOfTheSpec() throws {
        let points = PlanePoints(x: [1, 1.2, 30], y: [1, 1.1, -4], weight: [1, 1, 1], value: [2, 4, 8])
        let hex = try HeatMapBinning.bin(points, configuration: planar(size: 5))
        let text = BinCSV.text(hex, aggregate: .mean)
        let lines = text.split(separator: "\n")
        #expect(lines.first == "q,r,x,y,count,value")
        #expect(lines.count == 3)
        for line in lines.dropFirst() {
            let f = line.split(separator: ",", omittingEmptySubsequences: false)
            #expect(f.count == 6)
            let id = BinCellID(Int(f[0])!, Int(f[1])!)
            let centre = hex.grid.center(of: id)
            #expect(abs(Double(f[2])! - centre.x) <= 5e-7 && abs(Double(f[3])! - centre.y) <= 5e-7)
        }
        #expect(text.contains(",2,3\n"))  // two points, mean 3
        let squares = try HeatMapBinning.bin(points, configuration: planar(.square, size: 5, includeEmpty: true))
        let squareText = BinCSV.text(squares, aggregate: .max)
        #expect(squareText.hasPrefix("i,j,x,y,count,value\n"))
        // Empty cells: count 0 and an empty value where the aggregate is undefined.
        #expect(squareText.contains(",0,\n"))
    }

    @Test func geographicCSVCentresAreLongitudeLatitude() throws {
        let points = [HeatMapPoint(latitude: -17.5, longitude: 179.9), HeatMapPoint(latitude: -17.6, longitude: -179.9)]
        let result = try HeatMapBinning.bin(points, configuration: BinningConfiguration(size: 100))
        for line in BinCSV.text(result).split(separator: "\n").dropFirst() {
            let f = line.split(separator: ",")
            let lon = Double(f[2])!, lat = Double(f[3])!
            #expect(lon >= -180 && lon < 180 && abs(abs(lon) - 180) < 1)
            #expect(abs(lat + 17.55) < 1)
        }
    }
}
