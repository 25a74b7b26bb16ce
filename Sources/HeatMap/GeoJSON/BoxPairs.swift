import Foundation

/// An axis-aligned box on the integer grid of fixed positions (closed:
/// boxes that only touch overlap).
struct FixedBox {
    var minX: Int64, maxX: Int64, minY: Int64, maxY: Int64

    @inline(__always) func overlaps(_ o: FixedBox) -> Bool {
        minX <= o.maxX && o.minX <= maxX && minY <= o.maxY && o.minY <= maxY
    }
}

/// Every pair of overlapping boxes, found through a uniform grid of cells
/// about twice the mean box size, so the cost grows with the boxes and the
/// pairs, not with their square: each box is listed in the cells it covers
/// as one 64-bit entry (cell, then box index) and the entries are radix
/// sorted, so a cell's boxes lie together in index order; pairs are compared
/// within a cell (its boxes first copied side by side, so the comparisons
/// read memory in order), and a pair is reported once, by the cell holding
/// the low corner of the two boxes' overlap. The rare box covering many
/// cells (a long edge along a cut or a pole) is compared with every box
/// instead.
///
/// Pairs come in a fixed order for the same boxes: by cell (column, then
/// row), then by box index. O(n + cells' pairs + long boxes × n).
enum BoxPairs {
    /// A box is compared with all others when it covers more cells than this.
    static let longBoxCells = 64

    /// Calls `body(i, items[i], j, items[j])`, i < j, for every pair of
    /// items whose boxes overlap; the items of a cell are copied side by
    /// side first, so `body` reads them without further trips to memory.
    static func forEach<Item>(_ items: [Item], box: (Item) -> FixedBox,
                              _ body: (Int, Item, Int, Item) -> Void) {
        let n = items.count
        guard n >= 2 else { return }
        var lowX = Int64.max, lowY = Int64.max, highX = Int64.min, highY = Int64.min
        var extent = 0.0
        for item in items {
            let b = box(item)
            lowX = min(lowX, b.minX); lowY = min(lowY, b.minY)
            highX = max(highX, b.maxX); highY = max(highY, b.maxY)
            extent += Double(max(b.maxX - b.minX, b.maxY - b.minY))
        }
        let indexBits = bitWidth(n - 1)
        // Cells of twice the mean extent, a power of two so that a cell index
        // is a shift; coarser where the cell numbers and box indices would not
        // share one 64-bit entry.
        let wanted = max(1, (2 * extent / Double(n)).rounded(.up))
        var shift: Int64 = 0
        while Double(Int64(1) << shift) < wanted { shift += 1 }
        var columns = 0, rows = 0
        while true {
            columns = Int((highX - lowX) >> shift) + 1
            rows = Int((highY - lowY) >> shift) + 1
            if bitWidth(columns * rows - 1) + indexBits <= 64 { break }
            shift += 1
        }
        let keyBits = bitWidth(columns * rows - 1)
        @inline(__always) func column(_ x: Int64) -> Int { Int((x - lowX) >> shift) }
        @inline(__always) func row(_ y: Int64) -> Int { Int((y - lowY) >> shift) }

        // Entries cell << indexBits | box of the short boxes; long boxes apart.
        var entries: [UInt64] = []
        entries.reserveCapacity(2 * n)
        var long: [Int] = []
        for (i, item) in items.enumerated() {
            let b = box(item)
            let c0 = column(b.minX), c1 = column(b.maxX), r0 = row(b.minY), r1 = row(b.maxY)
            if (c1 - c0 + 1) * (r1 - r0 + 1) > longBoxCells { long.append(i); continue }
            for c in c0...c1 {
                for r in r0...r1 { entries.append(UInt64(c * rows + r) << indexBits | UInt64(i)) }
            }
        }
        // Entries were made in box order, so sorting stably by the cell
        // alone leaves each cell's boxes in index order.
        RadixSort.sort(&entries, bits: indexBits..<(indexBits + keyBits))
        let indexMask = indexBits == 0 ? 0 : (UInt64.max >> (64 - indexBits))
        var run: [(box: FixedBox, item: Item)] = []
        var runIndex: [Int] = []
        var start = 0
        while start < entries.count {
            let key = entries[start] >> indexBits
            var end = start + 1
            while end < entries.count, entries[end] >> indexBits == key { end += 1 }
            if end - start > 1 {
                let c = Int(key) / rows, r = Int(key) % rows
                run.removeAll(keepingCapacity: true)
                runIndex.removeAll(keepingCapacity: true)
                for e in start..<end {
                    let i = Int(entries[e] & indexMask)
                    runIndex.append(i)
                    let item = items[i]
                    run.append((box(item), item))
                }
                for a in 0..<(run.count - 1) {
                    let bi = run[a].box
                    for b in (a + 1)..<run.count {
                        let bj = run[b].box
                        guard bi.overlaps(bj),
                              column(max(bi.minX, bj.minX)) == c, row(max(bi.minY, bj.minY)) == r
                        else { continue }
                        body(runIndex[a], run[a].item, runIndex[b], run[b].item)
                    }
                }
            }
            start = end
        }
        var isLong = [Bool](repeating: false, count: long.isEmpty ? 0 : n)
        for l in long { isLong[l] = true }
        for l in long {
            let bl = box(items[l])
            for j in 0..<n where j != l && (!isLong[j] || j > l) && bl.overlaps(box(items[j])) {
                let (i, k) = (min(l, j), max(l, j))
                body(i, items[i], k, items[k])
            }
        }
    }

    /// Bits needed to write `v` ≥ 0 (0 for 0).
    private static func bitWidth(_ v: Int) -> Int { v <= 0 ? 0 : Int.bitWidth - v.leadingZeroBitCount }
}
