import Foundation

/// A square cell's indices (i, j) = (floor(x / S), floor(y / S)).
///
/// Cells order row by row: by j, then by i (``RowMajorCell``).
struct SquareCell: Sendable, Hashable, Codable, RowMajorCell {
    /// Column index, floor(x / S).
    var i: Int
    /// Row index, floor(y / S).
    var j: Int

    var column: Int { i }
    var row: Int { j }
}
