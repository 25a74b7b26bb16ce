import Testing
@testable import HeatMap

@Suite struct BoxPairsTests {
    /// Random boxes of mixed sizes (a few long ones), against all pairs.
    @Test(arguments: [1, 2, 3, 4]) func findsEveryOverlappingPairOnce(seed: UInt64) {
        var rng = SplitMix(seed: seed)
        let boxes = (0..<400).map { k -> FixedBox in
            let x = Int64(rng.next() % 1000), y = Int64(rng.next() % 1000)
            let long = k % 97 == 0
            let w = Int64(rng.next() % (long ? 900 : 12)), h = Int64(rng.next() % (long ? 40 : 12))
            return FixedBox(minX: x, maxX: x + w, minY: y, maxY: y + h)
        }
        var found: [[Int]] = []
        BoxPairs.forEach(boxes, box: { $0 }) { i, bi, j, bj in
            // The items handed over are the boxes at those indices.
            #expect(bi.minX == boxes[i].minX && bi.maxY == boxes[i].maxY)
            #expect(bj.minX == boxes[j].minX && bj.maxY == boxes[j].maxY)
            found.append([i, j])
        }
        var expected: [[Int]] = []
        for i in boxes.indices { for j in boxes.indices where j > i && boxes[i].overlaps(boxes[j]) { expected.append([i, j]) } }
        #expect(found.count == Set(found).count)
        #expect(Set(found) == Set(expected))
        #expect(found.allSatisfy { $0[0] < $0[1] })
    }
}
