import Foundation
import HeatMapCore
import HeatMapDensity

/// One strip of ``BoxPairs``' grid, paired on its own: the boxes of the
/// items it meets copied side by side (numbered from 0 in index order),
/// each listed as one 64-bit entry (strip cell | box | run bit) in every
/// cell of the strip it covers, and the entries radix sorted by the cell,
/// so that a cell's boxes lie together in index order. The boxes' buffer
/// is kept from strip to strip.
struct BoxStripCells {
    /// A box of the strip with what pairing needs of its item.
    private struct Member {
        package var box = FixedBox(minX: 0, maxX: 0, minY: 0, maxY: 0)
        package var item = 0
        /// The first box of its run in the strip (itself when it does not
        /// continue the run of the box before it).
        var runStart: Int32 = 0
        /// Whether it and the box before it need no comparing.
        var follows = false
    }

    /// The strip's boxes, then those left from a bigger strip before (the
    /// array only grows).
    private var members: [Member] = []
    private var entries: [UInt64] = []
    private var grid: BoxGrid?
    private var columns = 0..<0
    private var indexBits = 0, runBit = 0

    /// Copies the boxes of the items in `visits` (ascending runs of item
    /// indices) and lists them in the cells of `columns`. O(items + entries).
    package mutating func load<Items: BoxedItems>(
        _ items: Items, _ visits: ArraySlice<Range<Int>>,
        columns: Range<Int>, grid: BoxGrid
    ) {
        let m = visits.reduce(0) { $0 + $1.count }
        if members.count < m { members = [Member](repeating: Member(), count: m) }
        let first = columns.lowerBound, last = columns.upperBound - 1
        var entryCount = 0
        members.withUnsafeMutableBufferPointer { members in
            var k = 0
            for visit in visits {
                for i in visit {
                    let b = items.box(i)
                    // Within a visit, the box after the one before in the items too.
                    let next = i > visit.lowerBound
                    let runStart = next && items.joinsPrevious(i) ? members[k - 1].runStart : Int32(k)
                    members[k] = Member(box: b, item: i, runStart: runStart, follows: next && items.followsPrevious(i))
                    entryCount +=
                        (min(grid.column(b.maxX), last) - max(grid.column(b.minX), first) + 1)
                        * (grid.row(b.maxY) - grid.row(b.minY) + 1)
                    k += 1
                }
            }
        }
        let indexBits = BoxGrid.bitWidth(m - 1), keyBits = BoxGrid.bitWidth(columns.count * grid.rows - 1)
        // The run bit (the box continues the run of the box before it) only
        // where the 64 bits have room for it.
        let runBit = keyBits + indexBits < 64 ? 1 : 0
        let tailBits = indexBits + runBit
        entries = members.withUnsafeBufferPointer { members in
            [UInt64](unsafeUninitializedCapacity: entryCount) { entries, count in
                for k in 0..<m {
                    let b = members[k].box
                    let tail = UInt64(k) &<< runBit | (runBit == 1 && members[k].runStart != k ? 1 : 0)
                    for c in max(grid.column(b.minX), first)...min(grid.column(b.maxX), last) {
                        let cell = (c - first) * grid.rows
                        for r in grid.row(b.minY)...grid.row(b.maxY) {
                            entries[count] = UInt64(cell + r) << tailBits | tail
                            count += 1
                        }
                    }
                }
            }
        }
        // Entries were made in box order, so sorting stably by the cell
        // alone leaves each cell's boxes in index order.
        RadixSort.sort(&entries, bits: tailBits..<(tailBits + keyBits))
        (self.grid, self.columns, self.indexBits, self.runBit) = (grid, columns, indexBits, runBit)
    }

    /// Calls `body(i, j)`, i < j items of the strip, for the overlapping
    /// pairs whose overlap's low corner lies in the strip, but for pairs
    /// inside one run and neighbours; by cell (column, then row), then by
    /// box. A cell holding only consecutive boxes of one run is passed over
    /// from its entries alone.
    func forEachPair(_ body: (Int, Int) -> Void) {
        guard let grid else { return }
        let tailBits = indexBits + runBit
        let indexMask = UInt64.max >> (64 - indexBits)
        // An entry that is the next box after the entry before it, in the
        // same cell and the same run.
        let step = UInt64(1) << runBit | UInt64(runBit)
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
                let c = columns.lowerBound + Int(key) / grid.rows, r = Int(key) % grid.rows
                for e in start..<(end - 1) {
                    let a = members[Int((entries[e] &>> runBit) & indexMask)]
                    for f in (e + 1)..<end {
                        let b = members[Int((entries[f] &>> runBit) & indexMask)]
                        if b.runStart == a.runStart || (b.follows && a.item + 1 == b.item) { continue }
                        guard a.box.overlaps(b.box),
                            grid.column(max(a.box.minX, b.box.minX)) == c, grid.row(max(a.box.minY, b.box.minY)) == r
                        else { continue }
                        body(a.item, b.item)
                    }
                }
            }
            start = end
        }
    }
}
