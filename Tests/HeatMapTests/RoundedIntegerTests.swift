import Testing

@testable import HeatMapContouring

/// ``FixedRing/roundedInteger(_:)`` against the standard library's
/// `rounded()` (half away from zero): every magnitude below 2^52 drawn from
/// random bit patterns, exact halves and their neighbours on both sides of
/// 2^51 (where the fast path ends), and the values it refuses.
struct RoundedIntegerTests {
    /// `rounded()`, when that lies below 2^52 in magnitude.
    private static func expected(_ v: Double) -> Int64? {
        guard v.isFinite, abs(v.rounded()) < 0x1p52 else { return nil }
        return Int64(v.rounded())
    }

    @Test func agreesWithRoundedOnRandomMagnitudes() {
        var generator = SplitMix(seed: 52)
        for _ in 0..<200_000 {
            // A random sign and mantissa at an exponent from 2^-30 to 2^53.
            let exponent = Int(generator.next() % 84) - 30
            let v = Double(
                sign: generator.next() & 1 == 0 ? .plus : .minus, exponent: exponent,
                significand: 1 + Double(generator.next() >> 12) / 0x1p52)
            #expect(FixedRing.roundedInteger(v) == Self.expected(v), "\(v)")
        }
    }

    @Test func takesHalvesAwayFromZero() {
        var values: [Double] = [0, -0.0, 0.5, -0.5, 1.5, -1.5, 2.5, -2.5, 0.49999999999999994, -0.49999999999999994]
        var generator = SplitMix(seed: 2)
        for bits in [3, 20, 40, 49, 50, 51, 52] {
            for _ in 0..<200 {
                let k = Double(generator.next() >> UInt64(64 - bits))
                for half in [k + 0.5, -(k + 0.5)] {
                    values += [half, half.nextUp, half.nextDown]
                }
            }
        }
        // Either side of the edge of the fast path and of the domain.
        for edge in [0x1p51, 0x1p52] {
            for v in [edge, edge.nextDown, edge.nextDown.nextDown, edge - 0.5, edge - 1.5, edge.nextUp] {
                values += [v, -v]
            }
        }
        for v in values {
            #expect(FixedRing.roundedInteger(v) == Self.expected(v), "\(v)")
        }
    }

    @Test func refusesWhatItCannotHold() {
        for v in [
            Double.nan, .infinity, -.infinity, 0x1p52, -0x1p52, 0x1p52 - 0.5, -(0x1p52 - 0.5), 0x1p60,
            -Double.greatestFiniteMagnitude
        ] {
            #expect(FixedRing.roundedInteger(v) == nil, "\(v)")
        }
    }
}
