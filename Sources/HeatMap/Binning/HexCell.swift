import Foundation

/// A hexagon's axial coordinates (q, r); the third cube coordinate is
/// s = −q − r.
///
/// Cells order row by row: by r, then by q.
public struct HexCell: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    /// Axial q.
    public var q: Int
    /// Axial r.
    public var r: Int

    /// Creates a cell from its axial coordinates.
    public init(q: Int, r: Int) {
        self.q = q
        self.r = r
    }

    /// The third cube coordinate, −q − r.
    public var s: Int { -q - r }

    /// The number of steps between two cells. O(1).
    public func distance(to other: HexCell) -> Int {
        (abs(q - other.q) + abs(r - other.r) + abs(s - other.s)) / 2
    }

    /// Row-major order: by r, then q.
    public static func < (lhs: HexCell, rhs: HexCell) -> Bool {
        lhs.r != rhs.r ? lhs.r < rhs.r : lhs.q < rhs.q
    }

    public var description: String { "(\(q), \(r))" }
}
