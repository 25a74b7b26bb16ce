import HeatMapCore
import HeatMapDensity

/// The hot cells of one level and the level above: cells crossed by two or
/// more original segments, with the segments (occupants) in each and the
/// pieces that hold them (see ``SmoothingGuard``).
///
/// A saturating count of one byte per cell finds the shared cells; their
/// segments are then listed in vertex order (lower level first) and sorted
/// stably by cell alone, so that a cell's occupants come lower level first,
/// each level's in vertex order — no hashing, and no comparisons.
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
        RadixSort.sort(&keys, bits: 32..<(32 + max(1, Int.bitWidth - (cellCount - 1).leadingZeroBitCount)))
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
}
