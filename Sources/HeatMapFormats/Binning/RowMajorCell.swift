import Foundation
import HeatMapContouring
import HeatMapCore
import HeatMapDensity

/// A bin cell named by two integers, a column and a row (a hexagon's axial
/// q and r, a square's i and j): cells order row by row, by row then
/// column, and print as "(column, row)".
protocol RowMajorCell: Comparable, CustomStringConvertible {
    /// The coordinate that runs along a row.
    var column: Int { get }
    /// The row.
    var row: Int { get }
}

extension RowMajorCell {
    /// Row-major order: by row, then column.
    package static func < (lhs: Self, rhs: Self) -> Bool {
        lhs.row != rhs.row ? lhs.row < rhs.row : lhs.column < rhs.column
    }

    package var description: String { "(\(column), \(row))" }
}
