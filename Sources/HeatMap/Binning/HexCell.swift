import Foundation

/// A hexagon's axial coordinates (q, r); the third cube coordinate is
/// s = −q − r.
///
/// Cells order row by row: by r, then by q.
struct HexCell: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    /// Axial q.
    var q: Int
    /// Axial r.
    var r: Int

    /// Creates a cell from its axial coordinates.
    init(q: Int, r: Int) {
        self.q = q
        self.r = r
    }

    /// The third cube coordinate, −q − r.
    var s: Int { -q - r }

    /// The number of steps between two cells. O(1).
    func distance(to other: HexCell) -> Int {
        (abs(q - other.q) + abs(r - other.r) + abs(s - other.s)) / 2
    }

    /// Row-major order: by r, then q.
    static func < (lhs: HexCell, rhs: HexCell) -> Bool {
        lhs.r != rhs.r ? lhs.r < rhs.r : lhs.q < rhs.q
    }

    var description: String { "(\(q), \(r))" }
}
