import HeatMapCore
import HeatMapDensity

/// The frame of a grid: its boundary nodes and edges as one cyclic,
/// counter-clockwise sequence (bottom row left to right, right column up,
/// top row right to left, left column down).
///
/// Perimeter node j sits between perimeter edges j − 1 and j; perimeter edge
/// k runs from node k to node k + 1 (mod `count`). Nodes outside the grid
/// count as below every threshold, so a level's rings close along this
/// frame: a ring leaves the interior at a crossing on a frame edge, follows
/// the frame through boundary nodes, and re-enters at the next crossing.
package struct GridFrame: Sendable {
    /// Nodes along x and y (both ≥ 2).
    package let columns: Int
    package let rows: Int

    package init(columns: Int, rows: Int) {
        self.columns = columns
        self.rows = rows
    }

    /// Number of perimeter nodes (= perimeter edges).
    package var count: Int { 2 * (columns - 1) + 2 * (rows - 1) }

    /// Perimeter indices of the four corners: bottom-left, bottom-right,
    /// top-right, top-left.
    package var corners: (Int, Int, Int, Int) {
        (0, columns - 1, columns - 1 + rows - 1, 2 * (columns - 1) + rows - 1)
    }

    /// The grid node (column, row) of perimeter node `j`.
    package func node(_ j: Int) -> (column: Int, row: Int) {
        let a = columns - 1, b = a + rows - 1, c = b + columns - 1
        if j <= a { return (j, 0) }
        if j <= b { return (columns - 1, j - a) }
        if j <= c { return (columns - 1 - (j - b), rows - 1) }
        return (0, rows - 1 - (j - c))
    }

    /// Perimeter index of the left frame node of row `row` (0 < row < rows − 1).
    @inline(__always) func leftNode(row: Int) -> Int { count - row }
    /// Perimeter index of the right frame node of row `row`.
    @inline(__always) func rightNode(row: Int) -> Int { columns - 1 + row }

    /// The perimeter edge of the frame side `side` of cell (column, row),
    /// or nil when that side is interior.
    @inline(__always) func perimeterEdge(cellColumn c: Int, cellRow r: Int, side: Int) -> Int? {
        switch side {
        case 0: return r == 0 ? c : nil
        case 1: return c == columns - 2 ? (columns - 1) + r : nil
        case 2: return r == rows - 2 ? (columns - 1) + (rows - 1) + (columns - 2 - c) : nil
        default: return c == 0 ? 2 * (columns - 1) + (rows - 1) + (rows - 2 - r) : nil
        }
    }

    /// The cell and its side that lie on perimeter edge `k`.
    func cellSide(ofPerimeterEdge k: Int) -> (column: Int, row: Int, side: Int) {
        let a = columns - 1, b = a + rows - 1, c = b + columns - 1
        if k < a { return (k, 0, 0) }
        if k < b { return (columns - 2, k - a, 1) }
        if k < c { return (columns - 2 - (k - b), rows - 2, 2) }
        return (0, rows - 2 - (k - c), 3)
    }

    /// How far along the counter-clockwise direction a point on perimeter
    /// edge `k` lies: larger is further. Orders crossings on one edge.
    @inline(__always) package func along(perimeterEdge k: Int, x: Double, y: Double) -> Double {
        let a = columns - 1, b = a + rows - 1, c = b + columns - 1
        if k < a { return x }
        if k < b { return y }
        if k < c { return -x }
        return -y
    }
}

/// Where a ring meets the frame: a perimeter edge and the position along it.
struct FrameKey: Sendable, Hashable {
    /// The perimeter edge.
    package var edge: Int32
    /// Position along the edge in the counter-clockwise direction (larger is further).
    package var along: Double
}
