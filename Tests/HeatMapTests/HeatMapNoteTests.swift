import Foundation
import Testing

@testable import HeatMapContouring
@testable import HeatMapCore
@testable import HeatMapDensity

/// A result says why it may not be the map asked for (`notes`), as the
/// tool does on standard error, and an ordinary map says nothing.
@Suite struct HeatMapNoteTests {
    static func spread(_ n: Int, weight: Double = 1) -> [HeatMapPoint] {
        (0..<n).map { k in
            HeatMapPoint(
                id: k, latitude: 45 + 0.3 * sin(Double(k)), longitude: 7 + 0.3 * cos(Double(2 * k)), weight: weight)
        }
    }

    static func notes(_ points: [HeatMapPoint], _ configure: (inout HeatMapConfiguration) -> Void = { _ in })
        throws -> [HeatMapNote]
    {
        var configuration = HeatMapConfiguration(radius: 20_000, contourLevels: 5)
        configure(&configuration)
        return try HeatMapContours.compute(from: points, configuration: configuration, control: .none).notes
    }

    @Test func anOrdinaryMapHasNoNotes() throws {
        #expect(try Self.notes(Self.spread(200)).isEmpty)
    }

    @Test func oddPointsAreNamed() throws {
        #expect(try Self.notes([]) == [.noPoints(leftOut: 0)])
        let bad = [HeatMapPoint(id: 0, latitude: .nan, longitude: 0), HeatMapPoint(id: 1, latitude: 95, longitude: 0)]
        #expect(try Self.notes(bad) == [.noPoints(leftOut: 2)])
        #expect(try Self.notes(Self.spread(30, weight: 0)) == [.allWeightsZero(points: 30)])
        #expect(try Self.notes(Array(Self.spread(1))) == [.onePlace(points: 1)])
        let same = (0..<4).map { HeatMapPoint(id: $0, latitude: 10, longitude: 20) }
        #expect(try Self.notes(same) == [.onePlace(points: 4)])
        #expect(HeatMapNote.allWeightsZero(points: 30).description.hasPrefix("all 30 weights are zero"))
    }

    @Test func levelsOutsideTheGridsRangeAreNamed() throws {
        let notes = try Self.notes(Self.spread(200)) { $0.levelSpacing = .custom([1e9, 2e9]) }
        guard case .noLevelInRange(let minimum, let maximum)? = notes.first, notes.count == 1 else {
            Issue.record("\(notes)")
            return
        }
        #expect(minimum >= 0 && maximum > minimum && maximum < 1e9)
    }

    /// Points over the whole globe: the equal-area grid's rim cap (round
    /// the antipode of its centre) holds none of their density.
    @Test func weightTheGlobesGridCannotHoldIsNamed() throws {
        var rng = SplitMix(seed: 5)
        let points = (0..<3000).map { k -> HeatMapPoint in
            let u = Double(rng.next() % 1_000_000) / 1_000_000, v = Double(rng.next() % 1_000_000) / 1_000_000
            return HeatMapPoint(id: k, latitude: asin(2 * u - 1) * 180 / .pi, longitude: 360 * v - 180)
        }
        let notes = try Self.notes(points) {
            $0.radius = 300_000; $0.gridResolution = 300
        }
        guard case .weightOutsideGrid(let held, _, _, let degrees)? = notes.first else {
            Issue.record("\(notes)")
            return
        }
        #expect(held > 0.9 && held < 0.99 && degrees > 1)
    }
}
