import HeatMapCore
import Testing

@testable import HeatMapContouring

/// ``FixedRing/rounded(_:precision:counterClockwise:)`` against its
/// definition step by step: each position rounded, the ring cleaned
/// (``FixedRing/clean(_:)``), its area summed over the cleaned positions
/// (``FixedRing/twiceArea(_:)``), nil for fewer than three positions or no
/// area, and reversed when it runs the other way. Rings on a small lattice
/// repeat positions, fold back on themselves and cross, so the cleaning
/// removes positions in every way while the area is summed as it goes.
struct FixedRingRoundingTests {
    @Test(arguments: [0, 3])
    func roundingMatchesItsDefinition(decimals: Int) {
        var generator = SplitMix(seed: UInt64(7 + decimals))
        let precision = VertexPrecision(decimals: decimals, limit: 6)
        let unit = FixedRing.scale(-decimals)
        var kinds = Set<String>()
        for _ in 0..<20_000 {
            let n = Int(generator.next() % 9) + 1
            let ring = (0..<n).map { _ in
                PlanePoint(
                    x: (Double(generator.next() % 4) + generator.unit() * 0.8 - 0.4) * unit,
                    y: (Double(generator.next() % 4) + generator.unit() * 0.8 - 0.4) * unit)
            }
            let rounded = ring.map { precision.fixed($0)! }
            let cleaned = FixedRing.clean(rounded)
            let area = FixedRing.twiceArea(cleaned)
            for counterClockwise in [true, false] {
                let made = FixedRing.rounded(ring, precision: precision, counterClockwise: counterClockwise)
                guard cleaned.count >= 3, area != 0 else {
                    #expect(made == nil, "\(ring)")
                    kinds.insert("none")
                    continue
                }
                let expected = (area > 0) == counterClockwise ? cleaned : cleaned.reversed()
                #expect(made?.points == expected, "\(ring)")
                kinds.insert(cleaned.count < rounded.count ? "cleaned" : "whole")
            }
        }
        #expect(kinds == ["none", "cleaned", "whole"])
    }
}
