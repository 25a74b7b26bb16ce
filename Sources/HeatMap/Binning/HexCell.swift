import Foundation

/// A hexagon's axial coordinates (q, r); the third cube coordinate is
/// s = −q − r.
///
/// Cells order row by row: by r, then by q (``RowMajorCell``).
struct HexCell: Sendable, Hashable, Codable, RowMajorCell {
    /// Axial q.
    var q: Int
    /// Axial r.
    var r: Int

    var column: Int { q }
    var row: Int { r }

    /// The third cube coordinate, −q − r.
    var s: Int { -q - r }

    /// The number of steps between two cells. O(1).
    func distance(to other: HexCell) -> Int {
        (abs(q - other.q) + abs(r - other.r) + abs(s - other.s)) / 2
    }
}
