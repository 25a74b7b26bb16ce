import Foundation
import Testing

@testable import HeatMapContouring
@testable import HeatMapCore
@testable import HeatMapDensity
@testable import HeatMapFormats

/// One rule for the smallest longitude arc: the library's arc, the tool's
/// one-pass statistics, the binning fitter and the in-memory point
/// preparation all answer from ``LongitudeBins``. These were three
/// implementations that disagreed on longitudes all round the globe (the
/// exact arc, the bins' whole circle, the fitter's arc between bins).
@Suite struct LongitudeArcTests {
    /// The arc by sorting: the complement of the widest gap between
    /// neighbours, the wrap-round gap first, then ascending, replaced only
    /// by a strictly wider one.
    static func sortedArc(_ longitudes: [Double]) -> (arc: LongitudeArc, widestGap: Double)? {
        let sorted = longitudes.map(LongitudeArc.normalized).sorted()
        guard let lo = sorted.first, let hi = sorted.last else { return nil }
        var widest = lo + 360 - hi, west = lo
        for k in 1..<max(sorted.count, 1) where sorted[k] - sorted[k - 1] > widest {
            widest = sorted[k] - sorted[k - 1]
            west = sorted[k]
        }
        return (LongitudeArc(west: west, width: 360 - widest), widest)
    }

    /// Every answer the package gives for these longitudes (latitudes 0…9).
    static func answers(_ longitudes: [Double]) -> [LongitudeArc?] {
        var statistics = InputStatistics()
        var fitter = ProjectionFitter()
        for (i, l) in longitudes.enumerated() {
            statistics.add(InputPoint(latitude: Double(i % 10), longitude: l))
            fitter.add(latitude: Double(i % 10), longitude: l)
        }
        var bulk = LongitudeBins()
        longitudes.filter(\.isFinite).withUnsafeBufferPointer { bulk.add(contentsOf: $0) }
        return [
            LongitudeArc.smallest(containing: longitudes), statistics.longitudeArc, fitter.longitudeArc,
            bulk.smallestArc()
        ]
    }

    /// Clusters somewhere on the globe (some across ±180°, some given in
    /// 0…360): wherever the widest gap is 0.1° or more, every answer is
    /// the sorted one, bit for bit.
    @Test(arguments: Array(1...12) as [UInt64])
    func everyAnswerIsTheSortedArcWhenTheWidestGapIsATenthOfADegree(seed: UInt64) throws {
        var rng = SplitMix(seed: seed)
        let clusters = 1 + Int(rng.unit() * 4)
        let centres = (0..<clusters).map { _ in rng.uniform(-180, 540) }
        let width = rng.uniform(0.001, 60)
        let longitudes = (0..<(50 + Int(rng.unit() * 3000))).map { i in
            centres[i % clusters] + rng.uniform(-width, width)
        }
        let reference = try #require(Self.sortedArc(longitudes))
        try #require(reference.widestGap >= 0.1)
        for answer in Self.answers(longitudes) {
            #expect(answer == reference.arc)
        }
    }

    /// Longitudes all round the globe, no gap of 0.1°: the whole circle from
    /// −180° everywhere (the exact arc had some other west end, and the
    /// fitter a third), so every projection fitted to them is centred on 0°.
    @Test(arguments: [8_000, 20_000] as [Int])
    func longitudesAllRoundTheGlobeGiveTheWholeCircle(count: Int) throws {
        var rng = SplitMix(seed: UInt64(count))
        // Evenly spread with jitter: every gap well under 0.1°.
        let step = 360 / Double(count)
        let longitudes = (0..<count).map { i in -180 + (Double(i) + rng.unit() * 0.5) * step }
        let reference = try #require(Self.sortedArc(longitudes))
        try #require(reference.widestGap < 0.1)
        let whole = LongitudeArc(west: -180, width: 360)
        #expect(reference.arc != whole)
        for answer in Self.answers(longitudes) {
            #expect(answer == whole)
        }
        let coordinates = longitudes.enumerated().map {
            LocationCoordinate2D(latitude: Double($0.offset % 10), longitude: $0.element)
        }
        #expect(PlaneProjection.fitted(.equalArea, to: coordinates).centreLongitude == 0)
        // The library's point preparation (HeatMapContours) and the tool's
        // statistics centre the plane alike.
        let points = coordinates.map { HeatMapPoint(coordinate: $0) }
        let prepared = try PointPreparation.prepare(points, configuration: HeatMapConfiguration(), strict: true)
        var statistics = InputStatistics()
        for c in coordinates { statistics.add(InputPoint(latitude: c.latitude, longitude: c.longitude)) }
        #expect(prepared.projection == statistics.projection(.equalArea))
        #expect(prepared.projection.centreLongitude == 0)
    }

    /// Fewer than two distinct longitudes, empty input, non-finite values.
    @Test func degenerateInputs() {
        #expect(Self.answers([]).allSatisfy { $0 == nil })
        #expect(Self.answers([190]).allSatisfy { $0 == LongitudeArc(west: -170, width: 0) })
        #expect(Self.answers([-180, 180]).allSatisfy { $0 == LongitudeArc(west: -180, width: 0) })
        #expect(LongitudeArc.smallest(containing: [.nan, .infinity, 10, 12]) == LongitudeArc(west: 10, width: 2))
        var fitter = ProjectionFitter()
        fitter.add(latitude: .nan, longitude: 10)
        #expect(fitter.isEmpty && fitter.longitudeArc == nil)
    }
}
