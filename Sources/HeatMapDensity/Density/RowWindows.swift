import Foundation
import HeatMapCore

/// Points kept in an order that holds neighbours together (an adaptive
/// bandwidth's tiles, ``TileOrder``), deposited without the sort into row
/// bands (``RowBands``): cut into consecutive chunks
/// (``chunkSizes(count:)``, so the cut depends on the data alone), each
/// chunk deposits into a cleared window of its own holding
/// the rows it can write, and the windows are then added into the grid,
/// row by row, in chunk order. Every node thus takes its terms in a fixed
/// order, the same bits on any number of cores, and no point is bucketed,
/// counted or moved: on 10⁶ points in tiles the sort took about a sixth of
/// the adaptive grid's CPU.
///
/// It pays only where each chunk's rows are few. In input order every
/// chunk reaches across the grid, and ``init(x:y:weight:count:rows:rowWidth:sorter:control:)``
/// gives nil when the windows would hold more than ``rowsPerTargetRow``
/// times the target's rows or ``limit`` doubles (from every 64th point,
/// before a pass over them all); the points then take the sort.
///
/// O(n + the windows' nodes) on all cores; memory the windows, at most
/// ``limit`` doubles.
struct RowWindows {
    /// The points, 0 ..< count.
    let count: Int
    /// Chunk k holds points k · chunkSize ..< min(count, (k + 1) · chunkSize).
    let chunkSize: Int
    /// The target's rows each chunk writes (empty for none).
    let windows: [Range<Int>]
    /// Doubles in a row of the target (and of a window).
    let rowWidth: Int
    /// The largest ``RowSorter/magnitude(at:weight:)`` of any point with an
    /// anchor (0 for none), as ``RowBands/largestMagnitude``.
    let largestMagnitude: Double

    /// Points per chunk for n points, the finer first: 32 chunks, or 16
    /// where 32 chunks' windows would hold too many rows, of at least
    /// 4 096 points. With 16 chunks of the same work on two cores, one
    /// core spent the last chunk alone (on 10⁶ points at 6 cells, 3 ms of
    /// the pilot's 25); 32 halve that, for a few more window rows.
    static func chunkSizes(count n: Int) -> [Int] {
        let sizes = [max(4096, (n + 31) / 32), max(4096, (n + 15) / 16)]
        return sizes[0] == sizes[1] ? [sizes[0]] : sizes
    }

    /// The fewest chunks worth it: fewer would leave cores idle (and a few
    /// chunks' windows could each hold the whole grid), where the sort's
    /// bands balance them.
    static let leastChunks = 8
    /// Every how many points the first look at the chunks' rows takes one.
    static let sampleStep = 64
    /// The most doubles the windows may hold in all (64 MiB).
    static let limit = 1 << 23
    /// The most rows the windows may hold in all, per row of the target:
    /// beyond, clearing them and adding them back costs about what the
    /// sort saves.
    static let rowsPerTargetRow = 3

    /// The windows of points 0 ..< n for `sorter`, or nil where they would
    /// be too large at every size of ``chunkSizes(count:)`` (points not
    /// held together): for each size, a look at every 64th point, then one
    /// pass over them all, for each chunk the range of its y and the
    /// largest magnitude of its points that write anything.
    /// `rows` is the target's (each `rowWidth` doubles).
    init?<S: WindowDepositor>(
        x: UnsafePointer<Double>, y: UnsafePointer<Double>, weight: UnsafePointer<Double>,
        count n: Int, rows: Int, rowWidth: Int, sorter: S, control: ComputeControl
    ) throws {
        guard rows > 0, rowWidth > 0 else { return nil }
        func fits(_ windows: [Range<Int>]) -> Bool {
            let held = windows.reduce(0) { $0 + $1.count }
            return held <= RowWindows.rowsPerTargetRow * rows && held <= RowWindows.limit / rowWidth
        }
        for chunkSize in RowWindows.chunkSizes(count: n) {
            let chunks = (n + chunkSize - 1) / chunkSize
            guard chunks >= RowWindows.leastChunks else { return nil }
            // Every `sampleStep`-th point's y first: its windows are within
            // the real ones, so points in input order go to the sort after a
            // 64th of the pass.
            let sampled = (0..<chunks).map { k -> Range<Int> in
                var lowest = Double.infinity, highest = -Double.infinity
                for i in stride(from: k * chunkSize, to: min(n, (k + 1) * chunkSize), by: RowWindows.sampleStep)
                where weight[i] != 0 {
                    lowest = min(lowest, y[i])
                    highest = max(highest, y[i])
                }
                return lowest <= highest ? sorter.rowsWritten(y: lowest...highest) : 0..<0
            }
            guard fits(sampled) else { continue }
            let found = try Parallel.map(chunks, control: control) { k -> (window: Range<Int>, largest: Double) in
                var lowest = Double.infinity, highest = -Double.infinity, largest = 0.0
                for i in k * chunkSize..<min(n, (k + 1) * chunkSize) where weight[i] != 0 {
                    lowest = min(lowest, y[i])
                    highest = max(highest, y[i])
                    if sorter.writes(x: x[i], y: y[i]) {
                        largest = max(largest, sorter.magnitude(at: i, weight: weight[i]))
                    }
                }
                return (lowest <= highest ? sorter.rowsWritten(y: lowest...highest) : 0..<0, largest)
            }
            guard fits(found.map(\.window)) else { continue }
            self.count = n
            self.chunkSize = chunkSize
            self.rowWidth = rowWidth
            windows = found.map(\.window)
            largestMagnitude = found.reduce(0) { max($0, $1.largest) }
            return
        }
        return nil
    }

    /// Runs `body(points, window, rows)` for every chunk that writes rows,
    /// on all cores: `window` holds its `rows` of the target, ``rowWidth``
    /// doubles each, cleared. Then adds every window's rows into the
    /// target's (`target(row)` is where row `row` starts), on all cores,
    /// each row taking the windows that hold it in chunk order. `progress`
    /// gets each chunk's point count.
    func run(
        control: ComputeControl, progress: (@Sendable (Int) -> Void)?,
        body: (Range<Int>, UnsafeMutablePointer<Double>, Range<Int>) throws -> Void,
        target: (Int) -> UnsafeMutablePointer<Double>
    ) throws {
        let rowWidth = self.rowWidth
        var offsets = [0]
        for window in windows { offsets.append(offsets.last! + window.count * rowWidth) }
        let storage = UnsafeMutablePointer<Double>.allocate(capacity: max(offsets.last!, 1))
        defer { storage.deallocate() }
        try Parallel.forEach(windows.count, control: control) { k in
            try control.checkCancellation()
            let points = k * chunkSize..<min(count, (k + 1) * chunkSize)
            guard !windows[k].isEmpty else {
                progress?(points.count)
                return
            }
            // Cleared by the core that fills it.
            let window = storage + offsets[k]
            window.initialize(repeating: 0, count: windows[k].count * rowWidth)
            try body(points, window, windows[k])
            progress?(points.count)
        }
        let first = windows.lazy.filter { !$0.isEmpty }.map(\.lowerBound).min() ?? 0
        let last = windows.lazy.filter { !$0.isEmpty }.map(\.upperBound).max() ?? 0
        guard first < last else { return }
        try Parallel.forEachRange(of: last - first, size: 16, control: control) { block in
            for row in block.lowerBound + first..<block.upperBound + first {
                let into = target(row)
                for (k, window) in windows.enumerated() where window.contains(row) {
                    let source = storage + offsets[k] + (row - window.lowerBound) * rowWidth
                    for j in 0..<rowWidth { into[j] += source[j] }
                }
            }
        }
    }
}

/// A depositor whose points ``RowWindows`` can deposit: it tells the rows
/// a run of points may write from their y alone, and whether a point
/// writes anything without working out its anchor.
protocol WindowDepositor: RowSorter {
    /// The rows of the target that points with y in `ys` may write, within
    /// the target.
    func rowsWritten(y ys: ClosedRange<Double>) -> Range<Int>
    /// Whether the point has an anchor (``RowSorter/anchor(x:y:)``).
    func writes(x: Double, y: Double) -> Bool
}
