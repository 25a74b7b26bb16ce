import Foundation
import HeatMapContouring
import HeatMapCore
import HeatMapDensity

/// A square cell's indices (i, j) = (floor(x / S), floor(y / S)).
///
/// Cells order row by row: by j, then by i (``RowMajorCell``).
package struct SquareCell: Sendable, Hashable, Codable, RowMajorCell {
    /// Column index, floor(x / S).
    package var i: Int
    /// Row index, floor(y / S).
    package var j: Int

    package var column: Int { i }
    var row: Int { j }
}
