import Testing
@testable import HeatMap

@Suite struct BoxPairsTests {
    /// Boxes with runs given by a flag per item; counts the boxes read.
    private final class Boxes: BoxedItems {
        let boxes: [FixedBox], joins: [Bool]
        var reads = 0
        init(_ boxes: [FixedBox], joins: [Bool]) { (self.boxes, self.joins) = (boxes, joins) }
        var count: Int { boxes.count }
        func box(_ i: Int) -> FixedBox { reads += 1; return boxes[i] }
        func joinsPrevious(_ i: Int) -> Bool { joins[i] }
        /// The run of each item.
        var runs: [Int] { var r = 0; return joins.indices.map { i in if i > 0, !joins[i] { r += 1 }; return r } }
    }

    /// Random boxes of mixed sizes (a few long ones), against all pairs:
    /// every overlapping pair is found once, except that pairs inside one
    /// run may be left out.
    @Test(arguments: [1, 2, 3, 4]) func findsEveryOverlappingPairOnce(seed: UInt64) {
        var rng = SplitMix(seed: seed)
        let boxes = (0..<400).map { k -> FixedBox in
            let x = Int64(rng.next() % 1000), y = Int64(rng.next() % 1000)
            let long = k % 97 == 0
            let w = Int64(rng.next() % (long ? 900 : 12)), h = Int64(rng.next() % (long ? 40 : 12))
            return FixedBox(minX: x, maxX: x + w, minY: y, maxY: y + h)
        }
        for runLength in [1, 3, 50] {
            let items = Boxes(boxes, joins: boxes.indices.map { $0 > 0 && rng.next() % UInt64(runLength) != 0 })
            let runs = items.runs
            var found: [[Int]] = []
            BoxPairs.forEach(items) { i, j in found.append([i, j]) }
            var expected: [[Int]] = []
            for i in boxes.indices {
                for j in boxes.indices where j > i && boxes[i].overlaps(boxes[j]) && runs[i] != runs[j] {
                    expected.append([i, j])
                }
            }
            #expect(found.count == Set(found).count)
            #expect(Set(found).isSuperset(of: expected))
            #expect(found.allSatisfy { $0[0] < $0[1] && boxes[$0[0]].overlaps(boxes[$0[1]]) })
            if runLength == 1 { #expect(Set(found) == Set(expected)) }
        }
    }

    /// A chain of boxes corner to corner in one run (a monotone stair of
    /// segments) is listed and never compared: its boxes are read twice
    /// each, in the listing passes only; broken into runs, it is compared.
    @Test func passesOverCellsOfOneRun() {
        let boxes = (0..<1000).map { k -> FixedBox in
            let x = Int64(k * 10)
            return FixedBox(minX: x, maxX: x + 10, minY: x / 2, maxY: x / 2 + 5)
        }
        let oneRun = Boxes(boxes, joins: boxes.indices.map { $0 > 0 })
        var pairs = 0
        BoxPairs.forEach(oneRun) { _, _ in pairs += 1 }
        #expect(oneRun.reads == 2 * boxes.count)
        #expect(pairs == 0)
        let broken = Boxes(boxes, joins: boxes.indices.map { $0 % 2 == 1 })
        var found = Set<[Int]>()
        BoxPairs.forEach(broken) { i, j in found.insert([i, j]) }
        #expect(broken.reads > 2 * boxes.count)
        // Runs {0, 1}, {2, 3}, …: the touching neighbours 1–2, 3–4, … must come.
        #expect(found.isSuperset(of: (0..<999).filter { $0 % 2 == 1 }.map { [$0, $0 + 1] }))
        #expect(found.isSubset(of: (0..<999).map { [$0, $0 + 1] }))
    }
}
