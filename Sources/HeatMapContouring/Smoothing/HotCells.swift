import HeatMapCore
import HeatMapDensity

/// The hot cells of one level and the level above: cells crossed by two or
/// more original segments, with the segments (occupants) in each and the
/// pieces that hold them (see ``SmoothingGuard``).
///
/// Two bits per cell (seen once, seen twice) find the shared cells; their
/// segments are then listed in vertex order (lower level first) and sorted
/// by cell, so that a cell's occupants come lower level first, each
/// level's in vertex order — no hashing.
struct HotCells: Sendable {
    /// Occupants of hot cell h: `occupants[start[h] ..< start[h + 1]]`.
    package var cells: [Int32] = []
    package var start: [Int32] = [0]
    /// Occupant: bit 31 set for the upper level; the rest is the index of
    /// the segment's first vertex in that level's trace.
    var occupants: [UInt32] = []
    /// The piece holding each occupant.
    var pieces: [Int32] = []

    /// About the bytes the cells hold.
    var bytes: Int { 4 * (cells.count + start.count + occupants.count + pieces.count) }

    package init(lower: LevelTrace, upper: LevelTrace?, geometry: GridGeometry, control: ComputeControl) throws {
        let cellCount = (geometry.columns - 1) * (geometry.rows - 1)
        // Each level's segment cells, worked out once for both passes.
        let lowerCells = lower.segmentCells()
        try control.checkCancellation()
        let upperCells = upper?.segmentCells() ?? []
        try control.checkCancellation()
        // Count pass: whether a cell holds one segment, and whether two or
        // more, as two bits of a cell (a quarter of a byte per cell keeps
        // the grid's mask in cache, where the passes look it up in the
        // order the contours run).
        var seen = SharedCells(count: cellCount)
        for cells in [lowerCells, upperCells] { seen.add(cells) }
        try control.checkCancellation()
        // Fill pass: the segments of shared cells, piece by piece, each an
        // item of the sort: its cell, and its occupant and piece.
        var items: [Item] = []
        func fill(_ trace: LevelTrace, _ cells: [Int32], flag: UInt32) {
            for p in 0..<trace.pieceCount where !trace.isRemoved[p] {
                for v in trace.range(p) {
                    let cell = cells[v]
                    guard cell >= 0, seen.isShared(Int(cell)) else { continue }
                    items.append(Item(cell: UInt32(cell), occupant: UInt32(v) | flag, piece: Int32(p)))
                }
            }
        }
        fill(lower, lowerCells, flag: 0)
        try control.checkCancellation()
        if let upper { fill(upper, upperCells, flag: 1 << 31) }
        try control.checkCancellation()
        Self.sortByCell(&items, columns: geometry.columns - 1, rows: geometry.rows - 1)
        try control.checkCancellation()
        occupants.reserveCapacity(items.count)
        pieces.reserveCapacity(items.count)
        var i = 0
        while i < items.count {
            let cell = items[i].cell
            cells.append(Int32(truncatingIfNeeded: cell))
            while i < items.count && items[i].cell == cell {
                occupants.append(items[i].occupant)
                pieces.append(items[i].piece)
                i += 1
            }
            start.append(Int32(occupants.count))
        }
    }

    /// A segment of a shared cell, as the sort moves it: its cell, its
    /// occupant and piece.
    private struct Item {
        var cell: UInt32
        var occupant: UInt32
        var piece: Int32
    }

    /// Two bits a cell: seen once, seen twice or more.
    private struct SharedCells {
        /// Word 2w holds the cells 64w ..< 64(w + 1) seen once, word 2w + 1
        /// those seen twice: both of a cell in one cache line.
        private var words: [UInt64]

        init(count: Int) { words = [UInt64](repeating: 0, count: 2 * ((count + 63) >> 6)) }

        mutating func add(_ cells: [Int32]) {
            words.withUnsafeMutableBufferPointer { words in
                for cell in cells where cell >= 0 {
                    let w = 2 * (Int(cell) >> 6), bit = UInt64(1) << UInt64(cell & 63)
                    words[w + 1] |= words[w] & bit
                    words[w] |= bit
                }
            }
        }

        @inline(__always) func isShared(_ cell: Int) -> Bool {
            words[2 * (cell >> 6) + 1] & (1 << UInt64(cell & 63)) != 0
        }
    }

    /// Sorts `items` by cell, the items of one cell in their order: two
    /// stable counting passes, by the cell's column into a scratch array
    /// and by its row back into `items` (no copy of them is made first:
    /// every slot is written by the pass). O(n + columns + rows).
    private static func sortByCell(_ items: inout [Item], columns: Int, rows: Int) {
        guard items.count > 1 else { return }
        let perRow = UInt32(columns)
        let byColumn = [Item](unsafeUninitializedCapacity: items.count) { out, count in
            countingPass(items, into: out, buckets: columns) { Int($0.cell % perRow) }
            count = items.count
        }
        items.withUnsafeMutableBufferPointer { out in
            countingPass(byColumn, into: out, buckets: rows) { Int($0.cell / perRow) }
        }
    }

    /// `keys` into `out` (as many slots) stably by `bucket(key)` in 0 ..< `buckets`.
    private static func countingPass(
        _ keys: [Item], into out: UnsafeMutableBufferPointer<Item>, buckets: Int, _ bucket: (Item) -> Int
    ) {
        var next = [Int](repeating: 0, count: buckets + 1)
        next.withUnsafeMutableBufferPointer { next in
            for key in keys { next[bucket(key) + 1] += 1 }
            for b in 0..<buckets { next[b + 1] += next[b] }
            for key in keys {
                let b = bucket(key)
                (out.baseAddress! + next[b]).initialize(to: key)
                next[b] += 1
            }
        }
    }
}
