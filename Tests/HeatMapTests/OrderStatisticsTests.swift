import Foundation
import Testing

@testable import HeatMapContouring
@testable import HeatMapCore
@testable import HeatMapDensity
@testable import HeatMapFormats

/// Order statistics by histogram and refinement agree with sorting.
@Suite struct OrderStatisticsTests {
    /// Values of three kinds: spread over decades (many top-level buckets),
    /// packed into one narrow range (one bucket, refined twice), and ties.
    static func values(_ kind: Int, count: Int, seed: UInt64) -> [Double] {
        var rng = SplitMix(seed: seed)
        return (0..<count).map { i in
            if i % 97 == 0 { return .nan }
            switch kind {
            case 0: return rng.uniform(-1, 1) * pow(10, rng.uniform(-8, 6))
            case 1: return 1.5 + rng.uniform(0, 1e-9)
            default: return Double(Int(rng.uniform(0, 7)))
            }
        }
    }

    @Test(arguments: [0, 1, 2])
    func selectedRanksAreTheSortedOnes(kind: Int) throws {
        for (count, seed) in [(1, 1), (1000, 2), (150_000, 3)] as [(Int, UInt64)] {
            let values = Self.values(kind, count: count, seed: seed)
            for floor in [-Double.infinity, 0.5, 1.5 + 5e-10] {
                let sorted = values.filter { $0 > floor }.sorted()
                let (m, picks) = try values.withUnsafeBufferPointer { buffer in
                    try OrderStatistics.select(
                        buffer, above: floor,
                        ranks: { m in
                            m == 0 ? [] : [m - 1, 0, m / 2, m / 3, (m * 9) / 10, m / 2]
                        }, control: .none)
                }
                #expect(m == sorted.count)
                if m > 0 {
                    #expect(picks == [m - 1, 0, m / 2, m / 3, (m * 9) / 10, m / 2].map { sorted[$0] })
                } else {
                    #expect(picks.isEmpty)
                }
            }
        }
    }

    /// Over values too many to hold (passed over in blocks, as every
    /// frame's grid is), the candidates are narrowed by more passes until
    /// they fit: the same picks, in 2 passes when they fit at once and
    /// more when the limit is small.
    @Test(arguments: [0, 1, 2])
    func selectionInPassesHoldsFewCandidates(kind: Int) throws {
        let values = Self.values(kind, count: 200_000, seed: 5)
        let ranks: (Int) -> [Int] = { m in m == 0 ? [] : [0, m / 10, m / 2, (m * 9) / 10, m - 1] }
        let expected = try values.withUnsafeBufferPointer {
            try OrderStatistics.select($0, above: -1, ranks: ranks, control: .none)
        }
        for limit in [Int.max, 5_000, 10] {
            var passes = 0
            let blocks = ValuePasses { control, body in
                passes += 1
                try values.withUnsafeBufferPointer { all in
                    for start in stride(from: 0, to: all.count, by: 30_000) {
                        try control.checkCancellation()
                        try body(UnsafeBufferPointer(rebasing: all[start..<min(start + 30_000, all.count)]))
                    }
                }
            }
            let got = try OrderStatistics.select(blocks, above: -1, ranks: ranks, candidateLimit: limit, control: .none)
            #expect(got.count == expected.count && got.selected == expected.selected, "limit \(limit)")
            #expect(limit == .max ? passes == 2 : passes >= 2)
        }
    }

    @Test(arguments: [0, 1, 2])
    func radixSortAgreesWithSort(kind: Int) throws {
        let values = Self.values(kind, count: 100_000, seed: 9)
        let sorted = try values.withUnsafeBufferPointer {
            try OrderStatistics.sortedDescending($0, above: 0, control: .none)
        }
        #expect(sorted == values.filter { $0 > 0 }.sorted(by: >))
    }

    @Test func keysKeepTheOrderOfValues() {
        let values: [Double] = [-.infinity, -1e300, -2, -1, -1e-300, 0, 1e-300, 1, 2, 1e300, .infinity]
        let keys = values.map(OrderStatistics.key)
        #expect(keys == keys.sorted())
        #expect(keys.map(OrderStatistics.value) == values)
    }

    /// Values cut into parts passed over on all cores give the picks, the
    /// count and the extremes of one pass in order: for one part, a few
    /// (an uneven last one) and more parts than the cores; ties of −0 and
    /// 0 at both ends pick what Swift.min and Swift.max pick.
    @Test(arguments: [0, 1, 2])
    func partsMergeToWhatOnePassGives(kind: Int) throws {
        var values = Self.values(kind, count: 30_011, seed: 11)
        values[5] = -0.0
        values[29_000] = 0.0
        let ranks: (Int) -> [Int] = { m in m == 0 ? [] : [0, 1, m / 7, m / 2, m - 2, m - 1] }
        let sorted = values.filter { $0 > -1 }.sorted()
        for partSize in [Int.max, 10_000, 997, 64] {
            let (count, picks, lo, hi) = try values.withUnsafeBufferPointer { buffer in
                let passes = ValuePasses(buffer, partSize: partSize)
                let (count, picks) = try OrderStatistics.select(
                    passes, above: -1, ranks: ranks, candidateLimit: .max, control: .none)
                let (lo, hi) = try OrderStatistics.extremes(passes, control: .none)
                return (count, picks, lo, hi)
            }
            #expect(count == sorted.count)
            #expect(picks == ranks(sorted.count).map { sorted[$0] })
            let defined = values.filter { !$0.isNaN }
            let (min, max) = (defined.min()!, defined.max()!)
            #expect(lo == min && lo.sign == min.sign)
            #expect(hi == max && hi.sign == max.sign)
        }
        // Signed zeros tied at both ends, one or two to a part: the first
        // smallest and the last largest, as in one part.
        let zeros: [Double] = [0.0, -0.0, .nan, -0.0, 0.0, 0.0, -0.0]
        for partSize in [1, 2, 3] {
            let (lo, hi) = try zeros.withUnsafeBufferPointer {
                try OrderStatistics.extremes(ValuePasses($0, partSize: partSize), control: .none)
            }
            #expect(lo.sign == .plus && hi.sign == .minus)
        }
    }

    @Test func aCancelledSelectionThrows() {
        let values = [Double](repeating: 1, count: 1 << 20)
        let flag = CancellationFlag()
        flag.cancel()
        let control = ComputeControl(cancellation: flag)
        #expect(throws: CancellationError.self) {
            try values.withUnsafeBufferPointer {
                try OrderStatistics.select($0, above: 0, ranks: { [$0 / 2] }, control: control)
            }
        }
        // In many parts too: no part's answer is used once cancelled.
        #expect(throws: CancellationError.self) {
            try values.withUnsafeBufferPointer {
                try OrderStatistics.select(
                    ValuePasses($0, partSize: 4096), above: 0, ranks: { [$0 / 2] }, candidateLimit: .max,
                    control: control)
            }
        }
        #expect(throws: CancellationError.self) {
            try values.withUnsafeBufferPointer {
                try OrderStatistics.extremes(ValuePasses($0, partSize: 4096), control: control)
            }
        }
    }
}
