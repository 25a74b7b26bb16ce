import Testing

@testable import HeatMapContouring
@testable import HeatMapCore
@testable import HeatMapDensity
@testable import HeatMapFormats

@Suite struct BoxPairsTests {
    /// Boxes with runs and neighbours given by flags per item; counts the boxes read.
    private final class Boxes: BoxedItems {
        let boxes: [FixedBox], joins: [Bool], neighbours: [Bool]
        var reads = 0
        init(_ boxes: [FixedBox], joins: [Bool], neighbours: [Bool]? = nil) {
            (self.boxes, self.joins) = (boxes, joins)
            self.neighbours = neighbours.map { n in n.indices.map { n[$0] || joins[$0] } } ?? joins
        }
        var count: Int { boxes.count }
        func box(_ i: Int) -> FixedBox { reads += 1; return boxes[i] }
        func joinsPrevious(_ i: Int) -> Bool { joins[i] }
        func followsPrevious(_ i: Int) -> Bool { neighbours[i] }
        /// The run of each item.
        var runs: [Int] {
            var r = 0;
            return joins.indices.map { i in
                if i > 0, !joins[i] { r += 1 }; return r
            }
        }

        /// Every overlapping pair that must be reported, and those that may be.
        func expected() -> (must: Set<[Int]>, may: Set<[Int]>) {
            let runs = runs
            var must = Set<[Int]>(), may = Set<[Int]>()
            for i in boxes.indices {
                for j in boxes.indices where j > i && boxes[i].overlaps(boxes[j]) {
                    may.insert([i, j])
                    if runs[i] != runs[j], !(j == i + 1 && neighbours[j]) { must.insert([i, j]) }
                }
            }
            return (must, may)
        }
    }

    private func pairs(_ items: Boxes, stripBoxes: Int = BoxPairs.stripBoxes) -> [[Int]] {
        var found: [[Int]] = []
        BoxPairs.forEach(items, stripBoxes: stripBoxes) { i, j in found.append([i, j]) }
        return found
    }

    /// Checks one set of boxes at several strip sizes (down to a box or two
    /// a strip, so that most pairs meet at strip edges): every pair that
    /// must come comes once, only overlapping pairs come, and the pairs of
    /// different runs and their order are the same whatever the strips (a
    /// run leaving a strip and coming back is two runs there, so more of
    /// its own pairs may come).
    private func check(_ items: Boxes, _ label: String) {
        let (must, may) = items.expected()
        for strip in [BoxPairs.stripBoxes, 1, 2, 7, 64] {
            let found = pairs(items, stripBoxes: strip)
            #expect(found.count == Set(found).count, "\(label), strips of \(strip): a pair came twice")
            #expect(
                Set(found).isSuperset(of: must),
                "\(label), strips of \(strip): \(must.subtracting(found).count) pairs missing")
            #expect(Set(found).isSubset(of: may), "\(label), strips of \(strip): pairs that do not overlap")
            #expect(
                found.filter { must.contains($0) } == pairs(items).filter { must.contains($0) },
                "\(label), strips of \(strip): another order")
        }
    }

    /// Random boxes of mixed sizes (a few long ones), against all pairs.
    @Test(arguments: [1, 2, 3, 4]) func findsEveryOverlappingPairOnce(seed: UInt64) {
        var rng = SplitMix(seed: seed)
        let boxes = (0..<400).map { k -> FixedBox in
            let x = Int64(rng.next() % 1000), y = Int64(rng.next() % 1000)
            let long = k % 97 == 0
            let w = Int64(rng.next() % (long ? 900 : 12)), h = Int64(rng.next() % (long ? 40 : 12))
            return FixedBox(minX: x, maxX: x + w, minY: y, maxY: y + h)
        }
        for runLength in [1, 3, 50] {
            let joins = boxes.indices.map { $0 > 0 && rng.next() % UInt64(runLength) != 0 }
            check(Boxes(boxes, joins: joins), "seed \(seed), runs of \(runLength)")
            let neighbours = boxes.indices.map { $0 > 0 && rng.next() % 2 == 0 }
            check(Boxes(boxes, joins: joins, neighbours: neighbours), "seed \(seed), runs of \(runLength), neighbours")
        }
        let none = Boxes(boxes, joins: boxes.map { _ in false })
        #expect(Set(pairs(none)) == none.expected().may)
    }

    /// Boxes whose edges lie on cell and strip edges (a lattice of the cell
    /// size, touching exactly there), boxes of every width up to many cells
    /// (reaching over several strips, some long), and chains of boxes
    /// corner to corner wandering across the strips as a ring's segments do.
    @Test(arguments: [5, 6, 7]) func stripEdgesAndChains(seed: UInt64) {
        var rng = SplitMix(seed: seed)
        var boxes: [FixedBox] = []
        // A lattice of 8 × 8 squares: the mean extent makes the cells 16.
        for _ in 0..<150 {
            let x = Int64(rng.next() % 40) * 8, y = Int64(rng.next() % 40) * 8
            let w = Int64(rng.next() % 4) * 8, h = Int64(rng.next() % 3) * 8
            boxes.append(FixedBox(minX: x, maxX: x + w, minY: y, maxY: y + h))
        }
        // Wide boxes over many columns, a few over more than 64 cells.
        for _ in 0..<20 {
            let x = Int64(rng.next() % 300), y = Int64(rng.next() % 300), w = Int64(rng.next() % 700)
            boxes.append(FixedBox(minX: x, maxX: x + w, minY: y, maxY: y + Int64(rng.next() % 20)))
        }
        // Chains: a random walk of steps up to 12, one run while it keeps its direction.
        var joins = [Bool](repeating: false, count: boxes.count)
        for _ in 0..<4 {
            var p = (x: Int64(rng.next() % 320), y: Int64(rng.next() % 320)), direction = (0, 0)
            for step in 0..<120 {
                let q = (x: p.x + Int64(rng.next() % 25) - 12, y: p.y + Int64(rng.next() % 25) - 12)
                let d = ((q.x > p.x ? 1 : -1), (q.y > p.y ? 1 : -1))
                boxes.append(
                    FixedBox(minX: min(p.x, q.x), maxX: max(p.x, q.x), minY: min(p.y, q.y), maxY: max(p.y, q.y)))
                joins.append(step > 0 && d == direction)
                (p, direction) = (q, d)
            }
        }
        let neighbours = boxes.indices.map { $0 > 0 && rng.next() % 3 == 0 }
        check(Boxes(boxes, joins: joins), "seed \(seed)")
        check(Boxes(boxes, joins: joins, neighbours: neighbours), "seed \(seed), neighbours")
    }

    /// A chain of boxes corner to corner in one run (a monotone stair of
    /// segments) gives no pairs; broken into runs, the touching ends of the
    /// runs come, unless they are neighbours. Either way each box is read a
    /// few times in passes, never once per pair.
    @Test func passesOverRunsAndNeighbours() {
        let boxes = (0..<1000).map { k -> FixedBox in
            let x = Int64(k * 10)
            return FixedBox(minX: x, maxX: x + 10, minY: x / 2, maxY: x / 2 + 5)
        }
        let oneRun = Boxes(boxes, joins: boxes.indices.map { $0 > 0 })
        #expect(pairs(oneRun).isEmpty)
        #expect(oneRun.reads <= 4 * boxes.count)
        let broken = Boxes(boxes, joins: boxes.indices.map { $0 % 2 == 1 })
        let found = Set(pairs(broken))
        #expect(broken.reads <= 4 * boxes.count)
        // Runs {0, 1}, {2, 3}, …: the touching neighbours 1–2, 3–4, … must come.
        #expect(found == Set((0..<999).filter { $0 % 2 == 1 }.map { [$0, $0 + 1] }))
        let chained = Boxes(boxes, joins: broken.joins, neighbours: boxes.indices.map { $0 > 0 })
        #expect(pairs(chained).isEmpty)
    }
}
