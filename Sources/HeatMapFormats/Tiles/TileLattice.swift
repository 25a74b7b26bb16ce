import HeatMapContouring
import HeatMapCore
import HeatMapDensity

/// The grid every zoom is contoured on: nodes a fixed number of tile
/// units apart in Web Mercator, aligned to tile corners, so that two tiles
/// sharing an edge share the nodes along it (and the one-cell buffer
/// around each tile) and contour them alike.
enum TileLattice {
    /// Cells along a tile's side: 64 cells of 4 screen pixels on a 256-px tile.
    static let cellsPerTile = 64
    /// MVT extent: tile coordinates run 0..<4096 across a tile.
    static let extent = 4096
    /// Tile units per cell.
    static let cellUnits = extent / cellsPerTile
    /// Cells of buffer around a tile, so that no renderer draws a band's
    /// frame-closing edge inside the tile.
    static let bufferCells = 1
    /// Nodes along a tile's side, buffer included.
    static let tileNodes = cellsPerTile + 2 * bufferCells + 1
}

/// A rectangle of tiles at one zoom, contoured from one array of node
/// values: tile columns `x0 ..< x0 + width` (unwrapped: beyond 0..<2^z
/// across the antimeridian) and rows `y0 ..< y0 + height`.
struct TileBlock: Sendable, Hashable {
    var z: Int
    var x0: Int, y0: Int
    var width: Int, height: Int

    /// Global index of the block's first node column and row.
    var firstColumn: Int { x0 * TileLattice.cellsPerTile - TileLattice.bufferCells }
    var firstRow: Int { y0 * TileLattice.cellsPerTile - TileLattice.bufferCells }
    var columns: Int { width * TileLattice.cellsPerTile + 2 * TileLattice.bufferCells + 1 }
    var rows: Int { height * TileLattice.cellsPerTile + 2 * TileLattice.bufferCells + 1 }
    /// Lattice nodes per world unit at this zoom.
    var nodesPerUnit: Double { Double(TileLattice.cellsPerTile) * Double(1 << z) }

    /// World coordinates of node (column, row) of the block.
    @inline(__always) func u(column: Int) -> Double { Double(firstColumn + column) / nodesPerUnit }
    @inline(__always) func v(row: Int) -> Double { Double(firstRow + row) / nodesPerUnit }
}
