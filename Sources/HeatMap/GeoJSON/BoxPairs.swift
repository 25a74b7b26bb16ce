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
/// (a counting sort by row, then by column), pairs are compared within a
/// cell, and a pair is reported once, by the cell holding the low corner of
/// the two boxes' overlap. The rare box covering many cells (a long edge
/// along a cut or a pole) is compared with every box instead.
///
/// Pairs come in a fixed order for the same boxes. O(n + cells' pairs + long
/// boxes × n).
enum BoxPairs {
    /// A box is compared with all others when it covers more cells than this.
    static let longBoxCells = 64

    /// Calls `body(i, j)`, i < j, for every pair of overlapping boxes.
    static func forEach(_ boxes: [FixedBox], _ body: (Int, Int) -> Void) {
        let n = boxes.count
        guard n >= 2 else { return }
        var lowX = Int64.max, lowY = Int64.max, highX = Int64.min, highY = Int64.min
        var extent = 0.0
        for b in boxes {
            lowX = min(lowX, b.minX); lowY = min(lowY, b.minY)
            highX = max(highX, b.maxX); highY = max(highY, b.maxY)
            extent += Double(max(b.maxX - b.minX, b.maxY - b.minY))
        }
        // Cells of twice the mean extent, but never so many that a column or
        // row index passes 2^20.
        let side = Double(max(highX - lowX, highY - lowY))
        // A power of two, so a cell index is a shift, not a division.
        let wanted = max(1, (2 * extent / Double(n)).rounded(.up), (side / Double(1 << 20)).rounded(.up))
        var shift: Int64 = 0
        while Double(Int64(1) << shift) < wanted { shift += 1 }
        let columns = Int((highX - lowX) >> shift) + 1, rows = Int((highY - lowY) >> shift) + 1
        @inline(__always) func column(_ x: Int64) -> Int { Int((x - lowX) >> shift) }
        @inline(__always) func row(_ y: Int64) -> Int { Int((y - lowY) >> shift) }

        // Entries (cell, box) of the short boxes, and the long boxes apart.
        var entryRow: [Int32] = [], entryColumn: [Int32] = [], entryBox: [Int32] = []
        entryRow.reserveCapacity(2 * n); entryColumn.reserveCapacity(2 * n); entryBox.reserveCapacity(2 * n)
        var long: [Int] = []
        for (i, b) in boxes.enumerated() {
            let c0 = column(b.minX), c1 = column(b.maxX), r0 = row(b.minY), r1 = row(b.maxY)
            if (c1 - c0 + 1) * (r1 - r0 + 1) > longBoxCells { long.append(i); continue }
            for c in c0...c1 {
                for r in r0...r1 {
                    entryRow.append(Int32(r)); entryColumn.append(Int32(c)); entryBox.append(Int32(i))
                }
            }
        }
        // Stable counting sorts: by row, then by column; within a cell the
        // boxes stay in index order.
        let byRow = countingOrder(entryRow, buckets: rows, order: nil)
        let order = countingOrder(entryColumn, buckets: columns, order: byRow)
        var start = 0
        while start < order.count {
            let c = entryColumn[Int(order[start])], r = entryRow[Int(order[start])]
            var end = start + 1
            while end < order.count, entryColumn[Int(order[end])] == c, entryRow[Int(order[end])] == r { end += 1 }
            if end - start > 1 {
                for a in start..<(end - 1) {
                    let i = Int(entryBox[Int(order[a])])
                    let bi = boxes[i]
                    for b in (a + 1)..<end {
                        let j = Int(entryBox[Int(order[b])])
                        let bj = boxes[j]
                        guard bi.overlaps(bj),
                              column(max(bi.minX, bj.minX)) == Int(c), row(max(bi.minY, bj.minY)) == Int(r)
                        else { continue }
                        body(i, j)
                    }
                }
            }
            start = end
        }
        var isLong = [Bool](repeating: false, count: long.isEmpty ? 0 : n)
        for l in long { isLong[l] = true }
        for l in long {
            let bl = boxes[l]
            for j in 0..<n where j != l && (!isLong[j] || j > l) && bl.overlaps(boxes[j]) {
                body(min(l, j), max(l, j))
            }
        }
    }

    /// The entries' positions ordered by `keys` (0..<buckets), stably, taking
    /// them in `order` (nil: index order).
    private static func countingOrder(_ keys: [Int32], buckets: Int, order: [Int32]?) -> [Int32] {
        var counts = [Int](repeating: 0, count: buckets + 1)
        for k in keys { counts[Int(k) + 1] += 1 }
        for b in 0..<buckets { counts[b + 1] += counts[b] }
        var out = [Int32](repeating: 0, count: keys.count)
        if let order {
            for e in order { let k = Int(keys[Int(e)]); out[counts[k]] = e; counts[k] += 1 }
        } else {
            for e in keys.indices { let k = Int(keys[e]); out[counts[k]] = Int32(e); counts[k] += 1 }
        }
        return out
    }
}
