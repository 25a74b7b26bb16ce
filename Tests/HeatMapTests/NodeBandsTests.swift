import Testing

@testable import HeatMapContouring
@testable import HeatMapCore
@testable import HeatMapDensity
@testable import HeatMapFormats

/// A node's band is the number of thresholds at or below its value, and
/// answers what assembly asks of values exactly.
@Suite struct NodeBandsTests {
    /// Values drawn around the thresholds, some exactly on them.
    static func values(_ count: Int, thresholds: [Double], seed: UInt64) -> [Double] {
        var rng = SplitMix(seed: seed)
        let top = (thresholds.last ?? 1) + 1
        return (0..<count).map { k in
            k % 7 == 0 ? thresholds[Int(rng.next() % UInt64(thresholds.count))] : rng.unit() * (top + 1) - 1
        }
    }

    @Test(arguments: [1, 3, 40, 255, 256, 700])
    func bandsCountTheThresholdsAtOrBelow(levels: Int) throws {
        let thresholds = (0..<levels).map { Double($0) * 0.5 }
        let values = Self.values(5_000, thresholds: thresholds, seed: UInt64(levels))
        let bands = try values.withUnsafeBufferPointer { try NodeBands(values: $0, thresholds: thresholds) }
        for (node, v) in values.enumerated() {
            #expect(bands[node] == thresholds.filter { $0 <= v }.count, "value \(v)")
        }
    }

    /// Inside a band or level exactly when the value says so, and of two
    /// nodes with a level between them the one with the higher value has
    /// the higher band.
    @Test func insideAndOrderAgreeWithTheValues() throws {
        let thresholds = [0.1, 0.25, 0.4, 0.7, 0.9]
        let values = Self.values(2_000, thresholds: thresholds, seed: 3)
        let bands = try values.withUnsafeBufferPointer { try NodeBands(values: $0, thresholds: thresholds) }
        for (node, v) in values.enumerated() {
            for l in thresholds.indices {
                let upper = l + 1 < thresholds.count ? thresholds[l + 1] : .infinity
                #expect(bands.isInside(node, lower: l, isLevel: false) == (v >= thresholds[l] && v < upper))
                #expect(bands.isInside(node, lower: l, isLevel: true) == (v >= thresholds[l]))
            }
        }
        for a in stride(from: 0, to: values.count - 1, by: 2) {
            let (va, vb) = (values[a], values[a + 1])
            let between = thresholds.contains { min(va, vb) < $0 && $0 <= max(va, vb) }
            if between { #expect((bands[a] > bands[a + 1]) == (va > vb)) }
        }
    }

    @Test func aCancelStopsIt() {
        let values = [Double](repeating: 1, count: 1 << 18)
        let flag = CancellationFlag()
        flag.cancel()
        let cancelled = ComputeControl(cancellation: flag)
        #expect(throws: CancellationError.self) {
            try values.withUnsafeBufferPointer { try NodeBands(values: $0, thresholds: [0.5], control: cancelled) }
        }
    }
}

extension NodeBandsTests {
    /// The packed inside bits, eight bands a word or one by one, are the
    /// bands compared one by one, at every offset and length.
    @Test(arguments: [5, 127, 200])
    func packedBitsAreTheBandsComparedOneByOne(levels: Int) throws {
        let thresholds = (0..<levels).map(Double.init)
        var rng = SplitMix(seed: UInt64(levels))
        let values = (0..<300).map { _ in rng.unit() * Double(levels + 1) - 0.5 }
        let bands = try values.withUnsafeBufferPointer { try NodeBands(values: $0, thresholds: thresholds) }
        for level in [0, 1, levels / 2, levels - 1] {
            for start in [0, 1, 7, 64, 100] {
                for count in [0, 1, 8, 9, 63, 64] where start + count <= values.count {
                    var expected: UInt64 = 0
                    for b in 0..<count where values[start + b] >= thresholds[level] { expected |= 1 << UInt64(b) }
                    #expect(
                        bands.bits(from: start, count: count, atOrAbove: level) == expected,
                        "level \(level), start \(start), count \(count)")
                }
            }
        }
    }
}
