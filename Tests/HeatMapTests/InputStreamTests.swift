import Foundation
import Testing

@testable import HeatMapContouring
@testable import HeatMapCore
@testable import HeatMapDensity
@testable import HeatMapFormats

/// Multi-pass streaming: one-pass statistics agree with the in-memory
/// fits, replays give back the same points, and the streamed grid is the
/// grid the library computes from the same points in memory.
@Suite struct InputStreamTests {
    /// Clusters at random places, some across ±180°.
    static func randomPoints(seed: UInt64, count: Int) -> [InputPoint] {
        var state = seed
        func next() -> Double {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Double(state >> 11) / Double(1 << 53)
        }
        let centres = (0..<3).map { _ in (next() * 140 - 70, next() * 360 - 180) }
        return (0..<count).map { i in
            let c = centres[i % centres.count]
            var lon = c.1 + (next() - 0.5) * 8
            if lon >= 180 { lon -= 360 }
            if lon < -180 { lon += 360 }
            return InputPoint(
                latitude: min(max(c.0 + (next() - 0.5) * 6, -90), 90), longitude: lon,
                weight: next() * 3, value: next() * 100)
        }
    }

    static func csv(_ points: [InputPoint]) -> String {
        "lat,lon,w,v\n" + points.map { "\($0.latitude),\($0.longitude),\($0.weight),\($0.value)\n" }.joined()
    }

    @Test(arguments: [1, 2, 3, 4, 5, 6, 7, 8] as [UInt64])
    func oneTableOfBinsFindsTheSmallestLongitudeArc(seed: UInt64) {
        let points = Self.randomPoints(seed: seed, count: 200 + Int(seed) * 37)
        var statistics = InputStatistics()
        for p in points { statistics.add(p) }
        let exact = LongitudeArcTests.sortedArc(points.map(\.longitude))?.arc
        #expect(statistics.longitudeArc == exact)
        let coordinates = points.map { LocationCoordinate2D(latitude: $0.latitude, longitude: $0.longitude) }
        #expect(statistics.projection(.equalArea) == PlaneProjection.fitted(.equalArea, to: coordinates))
    }

    @Test func longitudeBinsWrapAsLongitudeArcDoes() {
        // The bins' wrap avoids fmod for |x| < 3600; its results must be fmod's, zeros' signs too.
        var generator = SplitMix(seed: 9)
        var samples: [Double] = [
            0, -0.0, 360, -360, 720, -720, 179.99999999999997, -180, 180, 3599.9, -3599.9, 3600, 1e300
        ]
        for _ in 0..<2_000 { samples.append(generator.uniform(-4000, 4000)) }
        for _ in 0..<200 { samples.append(Double(Int(generator.uniform(-10, 10))) * 360) }
        for x in samples {
            var one = InputStatistics()
            one.add(InputPoint(latitude: 0, longitude: x))
            let wrapped = LongitudeArc.normalized(x)
            #expect(one.longitudeArc == LongitudeArc(west: wrapped, width: 0), "\(x)")
            #expect(one.longitudeArc?.west.sign == wrapped.sign, "\(x)")
        }
    }

    @Test func statisticsOfOddInputs() {
        var none = InputStatistics()
        #expect(none.longitudeArc == nil)
        #expect(none.allIdentical)
        none.add(InputPoint(latitude: 1, longitude: 181, weight: 0))
        none.add(InputPoint(latitude: 1, longitude: 181, weight: 0))
        #expect(none.allIdentical)
        #expect(none.weightedCount == 0)
        #expect(none.longitudeArc == LongitudeArc(west: -179, width: 0))
        none.add(InputPoint(latitude: 1, longitude: -179.5))
        #expect(!none.allIdentical)
    }

    @Test(arguments: [StreamedPoints.Replay.reparse, .spool])
    func replaysGiveBackEveryGoodPointInOrder(replay: StreamedPoints.Replay) throws {
        let points = Self.randomPoints(seed: 11, count: 70_000)
        let folder = try ScratchFolder()
        let path = try folder.write("p.csv", Self.csv(points) + "95,1,1,1\n")
        let options = PointReaderOptions(columns: PointColumns(weight: "w", value: "v"), skipInvalid: true)
        let streamed = try StreamedPoints.read(path: path, options: options, replay: replay)
        #expect(streamed.replay == replay)
        #expect(streamed.count == points.count)
        #expect(streamed.rejections.count == 1)
        var again: [InputPoint] = []
        var batches = 0
        try streamed.forEachBatch { batch in
            batches += 1
            for i in 0..<batch.count { again.append(batch[i]) }
        }
        #expect(again == points)
        #expect(batches == (points.count + StreamedPoints.batchSize - 1) / StreamedPoints.batchSize)
        // A second replay is the same again.
        var count = 0
        try streamed.forEachBatch { count += $0.count }
        #expect(count == points.count)
    }

    @Test func streamedGridIsTheInMemoryGrid() throws {
        let points = Self.randomPoints(seed: 5, count: 3_000)
        let folder = try ScratchFolder()
        let path = try folder.write("p.csv", Self.csv(points))
        let options = PointReaderOptions(columns: PointColumns(weight: "w"))
        let streamed = try StreamedPoints.read(path: path, options: options)
        let configuration = HeatMapConfiguration(radius: 40_000, gridResolution: 60)
        let result = try StreamedDensity.compute(from: streamed, configuration: configuration)
        let heat = points.enumerated().map {
            HeatMapPoint(
                id: $0.offset, latitude: $0.element.latitude,
                longitude: $0.element.longitude, weight: $0.element.weight)
        }
        let memory = HeatMapContours.compute(from: heat, configuration: configuration)
        #expect(result.grid.geometry == memory.grid.geometry)
        #expect(result.grid.projection == memory.grid.projection)
        #expect(result.grid.values == memory.grid.values)
        #expect(result.summary.used == 3_000)
    }

    @Test func autoRadiusIsTheLibrarysRuleUnlessCellsAreTooCoarse() throws {
        // A compact cloud: the rule's radius stands, as the library picks it in memory.
        let folder = try ScratchFolder()
        var cloud: [InputPoint] = []
        for i in 0..<400 {
            cloud.append(InputPoint(latitude: -41 + Double(i % 20) * 0.01, longitude: 174 + Double(i / 20) * 0.01))
        }
        let streamed = try StreamedPoints.read(
            path: try folder.write("cloud.csv", Self.csv(cloud)),
            options: PointReaderOptions())
        let auto = HeatMapConfiguration(bandwidth: .auto)
        let result = try StreamedDensity.compute(from: streamed, configuration: auto)
        let heat = cloud.map { HeatMapPoint(latitude: $0.latitude, longitude: $0.longitude) }
        let memory = HeatMapContours.compute(from: heat, configuration: auto)
        #expect(!result.radiusRaised)
        #expect(result.grid.radius == memory.grid.radius)
        #expect(result.grid.values == memory.grid.values)
        // Points spread over an ocean: 50 km kernels in 40 km cells would
        // fall between nodes, so the floor lifts σ to half a cell.
        var wide: [InputPoint] = []
        for i in 0..<2000 { wide.append(InputPoint(latitude: Double(i % 40), longitude: -100 + Double(i / 40) * 2)) }
        let ocean = try StreamedPoints.read(
            path: try folder.write("wide.csv", Self.csv(wide)),
            options: PointReaderOptions())
        let raised = try StreamedDensity.compute(from: ocean, configuration: auto, resolutionFromData: true)
        #expect(raised.radiusRaised)
        #expect(raised.grid.radius > 50_000)
        let g = raised.grid.geometry
        // Along the longer side (the one cut into `resolution` cells) σ is exactly half a cell.
        let cell = g.columns >= g.rows ? g.dx : g.dy
        #expect(abs(cell - 2 * raised.grid.radius / 3) <= 1e-9 * cell)
    }

    /// Planar input: the first pass's spread is what a replay through the
    /// planar projection would find, so every bandwidth rule gives the same
    /// radius and grid without the extra pass.
    @Test(arguments: [Bandwidth.auto, .scott, .silverman])
    func planarSpreadFromTheFirstPassIsTheReplaysSpread(bandwidth: Bandwidth) throws {
        let points = Self.randomPoints(seed: 9, count: 2_000).enumerated().map { i, p in
            // Planar x/y over a few hundred units; some weights zero.
            InputPoint(latitude: p.latitude * 3, longitude: p.longitude + 200, weight: i % 7 == 0 ? 0 : p.weight)
        }
        let folder = try ScratchFolder()
        let path = try folder.write("planar.csv", Self.csv(points))
        let options = PointReaderOptions(columns: PointColumns(weight: "w"), geographic: false)
        let streamed = try StreamedPoints.read(path: path, options: options)
        let spread = try #require(streamed.planarSpread)
        var replayed = BandwidthEstimator()
        try streamed.forEachBatch { batch in
            for i in 0..<batch.count {
                let q = PlaneProjection(kind: .planar).project(
                    latitude: batch.latitude[i], longitude: batch.longitude[i])
                replayed.add(x: q.x, y: q.y, weight: batch.weight[i])
            }
        }
        #expect(spread == replayed)
        let configuration = HeatMapConfiguration(
            radius: 5, gridResolution: 80, projection: .planar, bandwidth: bandwidth)
        let result = try StreamedDensity.compute(from: streamed, configuration: configuration)
        #expect(
            result.grid.radius == replayed.radius(for: bandwidth, fixed: 5, projection: PlaneProjection(kind: .planar))
                || result.radiusRaised)
        // Geographic input keeps no planar spread.
        let geographic = try StreamedPoints.read(
            path: path,
            options: PointReaderOptions(
                columns: PointColumns(weight: "w"),
                skipInvalid: true))
        #expect(geographic.planarSpread == nil)
    }
}
