import Foundation

/// A square cell's indices (i, j) = (floor(x / S), floor(y / S)).
///
/// Cells order row by row: by j, then by i.
struct SquareCell: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    /// Column index, floor(x / S).
    var i: Int
    /// Row index, floor(y / S).
    var j: Int

    /// Creates a cell from its indices.
    init(i: Int, j: Int) {
        self.i = i
        self.j = j
    }

    /// Row-major order: by j, then i.
    static func < (lhs: SquareCell, rhs: SquareCell) -> Bool {
        lhs.j != rhs.j ? lhs.j < rhs.j : lhs.i < rhs.i
    }

    var description: String { "(\(i), \(j))" }
}
