import HeatMapCore
import HeatMapDensity

/// The hot cells of one level and the level above: cells crossed by two or
/// more original segments, with the segments (occupants) in each and the
/// pieces that hold them (see ``SmoothingGuard``).
///
/// A saturating count of one byte per cell finds the shared cells; their
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

    package init(lower: LevelTrace, upper: LevelTrace?, geometry: GridGeometry, control: ComputeControl) throws {
        let cellCount = (geometry.columns - 1) * (geometry.rows - 1)
        // Count pass: segments per cell, saturating at 2, in one byte per cell.
        var count = [UInt8](repeating: 0, count: cellCount)
        // Each level's segment cells, worked out once for both passes.
        let lowerCells = lower.segmentCells()
        try control.checkCancellation()
        let upperCells = upper?.segmentCells() ?? []
        try control.checkCancellation()
        count.withUnsafeMutableBufferPointer { count in
            for cells in [lowerCells, upperCells] {
                for cell in cells where cell >= 0 && count[Int(cell)] < 2 { count[Int(cell)] += 1 }
            }
        }
        try control.checkCancellation()
        // Fill pass: the segments of shared cells, piece by piece, with the
        // index of their entry below the cell in the sort key.
        var keys: [UInt64] = []
        var entries: [(occupant: UInt32, piece: Int32)] = []
        func fill(_ trace: LevelTrace, _ cells: [Int32], flag: UInt32) {
            for p in 0..<trace.pieceCount where !trace.isRemoved[p] {
                for v in trace.range(p) {
                    let cell = cells[v]
                    guard cell >= 0, count[Int(cell)] >= 2 else { continue }
                    keys.append(UInt64(cell) << 32 | UInt64(entries.count))
                    entries.append((UInt32(v) | flag, Int32(p)))
                }
            }
        }
        fill(lower, lowerCells, flag: 0)
        try control.checkCancellation()
        if let upper { fill(upper, upperCells, flag: 1 << 31) }
        try control.checkCancellation()
        keys = Self.sortedByCell(keys, columns: geometry.columns - 1, rows: geometry.rows - 1)
        try control.checkCancellation()
        occupants.reserveCapacity(keys.count)
        pieces.reserveCapacity(keys.count)
        var i = 0
        while i < keys.count {
            let cell = keys[i] >> 32
            cells.append(Int32(truncatingIfNeeded: cell))
            while i < keys.count && keys[i] >> 32 == cell {
                let entry = entries[Int(keys[i] & 0xffff_ffff)]
                occupants.append(entry.occupant)
                pieces.append(entry.piece)
                i += 1
            }
            start.append(Int32(occupants.count))
        }
    }

    /// `keys` (cell << 32 | entry) sorted by cell, keys of one cell in
    /// their order: two stable counting passes, by the cell's column and
    /// then by its row. O(n + columns + rows).
    private static func sortedByCell(_ keys: [UInt64], columns: Int, rows: Int) -> [UInt64] {
        guard keys.count > 1 else { return keys }
        let perRow = UInt64(columns)
        var byColumn = [UInt64](repeating: 0, count: keys.count)
        countingPass(keys, into: &byColumn, buckets: columns) { Int(($0 >> 32) % perRow) }
        var byRow = keys
        countingPass(byColumn, into: &byRow, buckets: rows) { Int(($0 >> 32) / perRow) }
        return byRow
    }

    /// `keys` into `out` stably by `bucket(key)` in 0 ..< `buckets`.
    private static func countingPass(
        _ keys: [UInt64], into out: inout [UInt64], buckets: Int, _ bucket: (UInt64) -> Int
    ) {
        var next = [Int](repeating: 0, count: buckets + 1)
        next.withUnsafeMutableBufferPointer { next in
            for key in keys { next[bucket(key) + 1] += 1 }
            for b in 0..<buckets { next[b + 1] += next[b] }
            out.withUnsafeMutableBufferPointer { out in
                for key in keys {
                    let b = bucket(key)
                    out[next[b]] = key
                    next[b] += 1
                }
            }
        }
    }
}
