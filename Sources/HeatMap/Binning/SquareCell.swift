import Foundation

/// A square cell's indices (i, j) = (floor(x / S), floor(y / S)).
///
/// Cells order row by row: by j, then by i.
public struct SquareCell: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    /// Column index, floor(x / S).
    public var i: Int
    /// Row index, floor(y / S).
    public var j: Int

    /// Creates a cell from its indices.
    public init(i: Int, j: Int) {
        self.i = i
        self.j = j
    }

    /// Row-major order: by j, then i.
    public static func < (lhs: SquareCell, rhs: SquareCell) -> Bool {
        lhs.j != rhs.j ? lhs.j < rhs.j : lhs.i < rhs.i
    }

    public var description: String { "(\(i), \(j))" }
}
