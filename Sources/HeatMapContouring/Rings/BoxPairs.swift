import Foundation
import HeatMapCore
import HeatMapDensity

/// An axis-aligned box on the integer grid of fixed positions (closed:
/// boxes that only touch overlap).
package struct FixedBox {
    package var minX: Int64, maxX: Int64, minY: Int64, maxY: Int64

    package init(minX: Int64, maxX: Int64, minY: Int64, maxY: Int64) {
        (self.minX, self.maxX, self.minY, self.maxY) = (minX, maxX, minY, maxY)
    }

    /// No position: every bound past the other.
    package static let empty = FixedBox(minX: .max, maxX: .min, minY: .max, maxY: .min)

    @inline(__always) package func overlaps(_ o: FixedBox) -> Bool {
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
    /// Whether items i − 1 and i (i > 0) need no comparing with each other
    /// (neighbours, such as consecutive segments of a ring); true where
    /// ``joinsPrevious(_:)`` is.
    func followsPrevious(_ i: Int) -> Bool
}

/// Every pair of overlapping boxes, found through a uniform grid of cells
/// about twice the mean box size (``BoxGrid``), so the cost grows with the
/// boxes and the pairs, not with their square. The grid's columns are cut
/// into strips of some thousands of boxes each (``BoxStrips``), and each
/// strip is paired on its own (``BoxStripCells``): its boxes copied side by
/// side, listed in the cells they cover as 64-bit entries (cell, then box)
/// radix sorted so that a cell's boxes lie together in index order, and
/// compared within each cell — a working set small enough to stay in the
/// cache however big the whole. A pair is reported once, by the cell
/// holding the low corner of the two boxes' overlap (which lies in one
/// strip, and both boxes are listed there). The rare box covering many
/// cells (a long edge along a cut or a pole) is compared with every box
/// instead.
///
/// The caller may name runs of consecutive items none of which it needs
/// compared with one another (consecutive segments of a ring that cannot
/// meet), and neighbours that need no comparing: a cell holding only
/// consecutive items of one run — most cells, for contour rings — is passed
/// over from its entries alone, and pairs inside a run or of neighbours are
/// passed over without reading their boxes.
///
/// Pairs come in a fixed order for the same boxes: by cell (column, then
/// row), then by box index; the long boxes' pairs last. O(n + cells' pairs
/// + long boxes × n).
enum BoxPairs {
    /// A box is compared with all others when it covers more cells than this.
    static let longBoxCells = 64
    /// About how many boxes a strip holds: with their entries, about half a
    /// megabyte.
    static let stripBoxes = 8192

    /// Calls `body(i, j)`, i < j, for every pair of items whose boxes
    /// overlap, except that pairs the items say need no comparing
    /// (``BoxedItems/joinsPrevious(_:)``, ``BoxedItems/followsPrevious(_:)``)
    /// may be left out; the pairs and their order do not depend on
    /// `stripBoxes`. Boxes are read in index order: once for the grid, one
    /// in 16 for the strips' cut, once for their visits, then once for each
    /// strip an item meets (and for the long boxes' comparisons). Once
    /// `control` is cancelled it stops between strips, pairs left out: the
    /// caller must then throw, not use the answer.
    package static func forEach<Items: BoxedItems>(
        _ items: Items, stripBoxes: Int = stripBoxes,
        control: ComputeControl = .none, _ body: (Int, Int) -> Void
    ) {
        let n = items.count
        guard n >= 2 else { return }
        let grid = BoxGrid(items)
        let strips = BoxStrips(items, grid: grid, target: stripBoxes, longBoxCells: longBoxCells)
        var cells = BoxStripCells()
        for s in 0..<strips.count where strips.starts[s + 1] > strips.starts[s] {
            // A strip is about a millisecond of work: a cancel stops the
            // pairing here, and the caller throws.
            if control.isCancelled { return }
            cells.load(
                items, strips.visits(s), columns: strips.firstColumns[s]..<strips.firstColumns[s + 1], grid: grid)
            cells.forEachPair(body)
        }
        let long = strips.long
        var isLong = [Bool](repeating: false, count: long.isEmpty ? 0 : n)
        for l in long { isLong[l] = true }
        for l in long {
            if control.isCancelled { return }
            let bl = items.box(l)
            for j in 0..<n where j != l && (!isLong[j] || j > l) && bl.overlaps(items.box(j)) {
                body(min(l, j), max(l, j))
            }
        }
    }
}
