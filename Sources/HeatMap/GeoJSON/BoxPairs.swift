import Foundation

/// An axis-aligned box on the integer grid of fixed positions (closed:
/// boxes that only touch overlap).
struct FixedBox {
    var minX: Int64, maxX: Int64, minY: Int64, maxY: Int64

    @inline(__always) func overlaps(_ o: FixedBox) -> Bool {
        minX <= o.maxX && o.minX <= maxX && minY <= o.maxY && o.minY <= maxY
    }
}

/// Items with boxes, numbered from 0, for ``BoxPairs``.
protocol BoxedItems {
    var count: Int { get }
    /// The box of item i.
    func box(_ i: Int) -> FixedBox
    /// Whether items i − 1 and i (i > 0) lie in one run of items of which
    /// no two need comparing.
    func joinsPrevious(_ i: Int) -> Bool
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
/// The caller may name runs of consecutive items none of which it needs
/// compared with one another (consecutive segments of a ring that cannot
/// meet): a cell holding only consecutive items of one run — most cells,
/// for contour rings — is then passed over from its entries alone, without
/// reading its boxes.
///
/// Pairs come in a fixed order for the same boxes: by cell (column, then
/// row), then by box index. O(n + cells' pairs + long boxes × n).
enum BoxPairs {
    /// A box is compared with all others when it covers more cells than this.
    static let longBoxCells = 64

    /// Calls `body(i, j)`, i < j, for every pair of items whose boxes
    /// overlap, except that pairs inside one run (``BoxedItems/joinsPrevious(_:)``)
    /// may be left out: the caller must need none of them. Boxes are read
    /// in index order while listing the items, then again for the items of
    /// each cell compared.
    static func forEach<Items: BoxedItems>(_ items: Items, _ body: (Int, Int) -> Void) {
        let n = items.count
        guard n >= 2 else { return }
        var lowX = Int64.max, lowY = Int64.max, highX = Int64.min, highY = Int64.min
        var extent = 0.0
        for i in 0..<n {
            let b = items.box(i)
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

        // Entries cell | box index | joins-previous of the short boxes (long
        // boxes apart); the run bit only where the 64 bits have room for it,
        // so that the cells never depend on it.
        let runBit = keyBits + indexBits < 64 ? 1 : 0
        let tailBits = indexBits + runBit
        var entries: [UInt64] = []
        entries.reserveCapacity(2 * n)
        var long: [Int] = []
        for i in 0..<n {
            let b = items.box(i)
            let c0 = column(b.minX), c1 = column(b.maxX), r0 = row(b.minY), r1 = row(b.maxY)
            if (c1 - c0 + 1) * (r1 - r0 + 1) > longBoxCells { long.append(i); continue }
            let joins: UInt64 = runBit == 1 && i > 0 && items.joinsPrevious(i) ? 1 : 0
            let tail = UInt64(i) << runBit | joins
            for c in c0...c1 {
                for r in r0...r1 { entries.append(UInt64(c * rows + r) << tailBits | tail) }
            }
        }
        // Entries were made in box order, so sorting stably by the cell
        // alone leaves each cell's boxes in index order.
        RadixSort.sort(&entries, bits: tailBits..<(tailBits + keyBits))
        let indexMask = indexBits == 0 ? 0 : (UInt64.max >> (64 - indexBits))
        // An entry that is the next item after the entry before it, in the
        // same cell and the same run.
        let step = UInt64(1) << runBit | UInt64(runBit)
        var run: [FixedBox] = []
        var runIndex: [Int] = []
        var start = 0
        while start < entries.count {
            let key = entries[start] >> tailBits
            var end = start + 1
            var oneRun = runBit == 1
            while end < entries.count, entries[end] >> tailBits == key {
                if entries[end] != (entries[end - 1] & ~1) &+ step { oneRun = false }
                end += 1
            }
            if end - start > 1, !oneRun {
                let c = Int(key) / rows, r = Int(key) % rows
                run.removeAll(keepingCapacity: true)
                runIndex.removeAll(keepingCapacity: true)
                for e in start..<end {
                    let i = Int((entries[e] >> runBit) & indexMask)
                    runIndex.append(i)
                    run.append(items.box(i))
                }
                for a in 0..<(run.count - 1) {
                    let bi = run[a]
                    for b in (a + 1)..<run.count {
                        let bj = run[b]
                        guard bi.overlaps(bj),
                              column(max(bi.minX, bj.minX)) == c, row(max(bi.minY, bj.minY)) == r
                        else { continue }
                        body(runIndex[a], runIndex[b])
                    }
                }
            }
            start = end
        }
        var isLong = [Bool](repeating: false, count: long.isEmpty ? 0 : n)
        for l in long { isLong[l] = true }
        for l in long {
            let bl = items.box(l)
            for j in 0..<n where j != l && (!isLong[j] || j > l) && bl.overlaps(items.box(j)) {
                body(min(l, j), max(l, j))
            }
        }
    }

    /// Bits needed to write `v` ≥ 0 (0 for 0).
    private static func bitWidth(_ v: Int) -> Int { v <= 0 ? 0 : Int.bitWidth - v.leadingZeroBitCount }
}
