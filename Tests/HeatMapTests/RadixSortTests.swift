import Testing

@testable import HeatMapContouring
@testable import HeatMapCore
@testable import HeatMapDensity
@testable import HeatMapFormats

@Suite struct RadixSortTests {
    /// The stable sort by the bits in `bits`, the slow way.
    private func reference<Key: FixedWidthInteger & UnsignedInteger>(_ keys: [Key], _ bits: Range<Int>) -> [Key] {
        let width = bits.clamped(to: 0..<Key.bitWidth).count
        let mask: Key = width >= Key.bitWidth ? .max : (Key(1) << width) - 1
        return keys.enumerated().sorted { a, b in
            let x = (a.element >> bits.lowerBound) & mask, y = (b.element >> bits.lowerBound) & mask
            return x != y ? x < y : a.offset < b.offset
        }.map(\.element)
    }

    /// Sizes below and above the comparison-sort cut, narrow and wide bit
    /// ranges (one digit, the top digit plus buckets sorted by insertion or
    /// by passes), keys spread evenly, crowded into one bucket, or repeated.
    @Test(arguments: [1, 2, 3]) func sortsStablyByTheBitsAsked(seed: UInt64) {
        var rng = SplitMix(seed: seed)
        for n in [0, 1, 5, 4095, 5000, 30_000] {
            for bits in [0..<0, 3..<11, 0..<13, 20..<48, 17..<64, 0..<64] {
                for shape in 0..<3 {
                    let keys = (0..<n).map { _ -> UInt64 in
                        let r = rng.next()
                        switch shape {
                        case 0: return r
                        // One top digit: every key in one bucket.
                        case 1: return (r & ((1 << 40) - 1)) | (0x5a5 << 52)
                        // Few distinct digits, many ties told apart by the unsorted bits.
                        default: return (r % 7) << 30 | (r >> 60) << 50 | (r & 0xffff)
                        }
                    }
                    var sorted = keys
                    RadixSort.sort(&sorted, bits: bits)
                    let same = sorted == reference(keys, bits)
                    #expect(same, "n \(n) bits \(bits) shape \(shape)")
                }
            }
        }
        let small = (0..<100_000).map { _ in UInt32(truncatingIfNeeded: rng.next()) }
        var sorted = small
        RadixSort.sort(&sorted)
        let same = sorted == small.sorted()
        #expect(same)
    }
}
