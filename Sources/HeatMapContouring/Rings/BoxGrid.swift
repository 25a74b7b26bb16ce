import Foundation
import HeatMapCore
import HeatMapDensity

/// The uniform grid of ``BoxPairs``: square cells of about twice the mean
/// box size over the boxes' bounds, numbered column by column (cell =
/// column × rows + row), so that a cell and an item index share one 64-bit
/// entry.
struct BoxGrid {
    let lowX: Int64, lowY: Int64
    /// Cells are 2^shift positions wide and high.
    package let shift: Int64
    package let columns: Int, rows: Int
    /// Bits of an item index, and of a cell number.
    let indexBits: Int, keyBits: Int

    /// Reads every box once, in index order; `items` holds at least one. O(n).
    package init<Items: BoxedItems>(_ items: Items) {
        let n = items.count
        var lowX = Int64.max, lowY = Int64.max, highX = Int64.min, highY = Int64.min
        var extent = 0.0
        for i in 0..<n {
            let b = items.box(i)
            lowX = min(lowX, b.minX); lowY = min(lowY, b.minY)
            highX = max(highX, b.maxX); highY = max(highY, b.maxY)
            extent += Double(max(b.maxX - b.minX, b.maxY - b.minY))
        }
        let indexBits = Self.bitWidth(n - 1)
        // A power of two, so that a cell index is a shift; coarser where the
        // cell numbers and item indices would not share one 64-bit entry.
        let wanted = max(1, (2 * extent / Double(n)).rounded(.up))
        var shift: Int64 = 0
        while Double(Int64(1) << shift) < wanted { shift += 1 }
        var columns = 0, rows = 0
        while true {
            columns = Int((highX - lowX) >> shift) + 1
            rows = Int((highY - lowY) >> shift) + 1
            if Self.bitWidth(columns * rows - 1) + indexBits <= 64 { break }
            shift += 1
        }
        (self.lowX, self.lowY, self.shift, self.columns, self.rows) = (lowX, lowY, shift, columns, rows)
        (self.indexBits, self.keyBits) = (indexBits, Self.bitWidth(columns * rows - 1))
    }

    @inline(__always) package func column(_ x: Int64) -> Int { Int((x - lowX) >> shift) }
    @inline(__always) package func row(_ y: Int64) -> Int { Int((y - lowY) >> shift) }

    /// How many cells a box covers.
    @inline(__always) func cellCount(_ b: FixedBox) -> Int {
        (column(b.maxX) - column(b.minX) + 1) * (row(b.maxY) - row(b.minY) + 1)
    }

    /// Bits needed to write `v` ≥ 0 (0 for 0).
    static func bitWidth(_ v: Int) -> Int { v <= 0 ? 0 : Int.bitWidth - v.leadingZeroBitCount }
}
