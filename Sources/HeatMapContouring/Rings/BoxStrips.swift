import Foundation
import HeatMapCore
import HeatMapDensity

/// The columns of a ``BoxGrid`` cut into strips of whole columns, each
/// meeting about `target` items, and the items each strip meets as visits:
/// runs of consecutive items that all meet it (a ring passing through the
/// strip), in index order. An item whose box reaches over a strip's edge
/// is in a visit of every strip it meets; items covering more than
/// `longBoxCells` cells are in no strip but listed apart.
///
/// The cut is made from a sample of the items (every 16th: contour rings
/// wander, so consecutive items lie together), and the items are then read
/// once in full: one pass that opens a visit where an item enters a strip
/// and closes it where an item leaves, after which the visits are sorted
/// by strip (a count pass, then a fill pass). A visit runs over ~60
/// segments of a contour band, so the strips' lists are small and a
/// strip's boxes are read from memory a stretch at a time.
struct BoxStrips {
    /// Strip s holds columns `firstColumns[s]..<firstColumns[s + 1]`.
    private(set) var firstColumns: [Int] = [0]
    /// The items strip s meets are those of `visits[starts[s]..<starts[s + 1]]`.
    package private(set) var starts: [Int] = []
    private(set) var visits: [Range<Int>] = []
    /// The long items, ascending.
    private(set) var long: [Int] = []

    package var count: Int { firstColumns.count - 1 }

    /// One item in this many is read for the cut.
    static let sampleStride = 16

    /// Reads every box once and one in ``sampleStride`` once more, in index
    /// order. O(n + visits).
    package init<Items: BoxedItems>(_ items: Items, grid: BoxGrid, target: Int, longBoxCells: Int) {
        let n = items.count
        // The sample is counted in bins of 2^k columns, at most one for 64 items (or 64).
        var binShift = 0
        while (grid.columns - 1) >> binShift >= max(64, n / 64) { binShift += 1 }
        let bins = ((grid.columns - 1) >> binShift) + 1
        @inline(__always) func bin(_ x: Int64) -> Int { grid.column(x) >> binShift }
        var load = [Int](repeating: 0, count: bins)
        for i in stride(from: 0, to: n, by: Self.sampleStride) { load[bin(items.box(i).minX)] += Self.sampleStride }
        // Each strip takes bins while it stays within the target; a bin
        // over it is a strip alone.
        var stripOf = [Int](repeating: 0, count: bins)
        var held = 0
        for b in 0..<bins {
            if held > 0, held + load[b] > target {
                firstColumns.append(b << binShift)
                held = 0
            }
            held += load[b]
            stripOf[b] = firstColumns.count - 1
        }
        firstColumns.append(grid.columns)

        // Visits in the order they close; `open[s]` is where strip s's open visit began.
        var closed: [(strip: Int, visit: Range<Int>)] = []
        var open = [Int](repeating: 0, count: count)
        var was = 0..<0
        for i in 0..<n {
            let b = items.box(i)
            var now = 0..<0
            if grid.cellCount(b) > longBoxCells {
                long.append(i)
            } else {
                now = stripOf[bin(b.minX)]..<(stripOf[bin(b.maxX)] + 1)
            }
            guard now != was else { continue }
            for s in was where !now.contains(s) { closed.append((s, open[s]..<i)) }
            for s in now where !was.contains(s) { open[s] = i }
            was = now
        }
        for s in was { closed.append((s, open[s]..<n)) }
        // A strip's visits close in index order, so a stable sort by strip keeps them so.
        starts = [Int](repeating: 0, count: count + 1)
        for c in closed { starts[c.strip + 1] += 1 }
        for s in 0..<count { starts[s + 1] += starts[s] }
        var next = starts
        visits = [Range<Int>](repeating: 0..<0, count: closed.count)
        for c in closed {
            visits[next[c.strip]] = c.visit
            next[c.strip] += 1
        }
    }

    /// The visits of strip s, in index order.
    func visits(_ s: Int) -> ArraySlice<Range<Int>> { visits[starts[s]..<starts[s + 1]] }
}
