import Foundation
import HeatMapContouring
import HeatMapCore
import HeatMapDensity

/// A hexagon's axial coordinates (q, r); the third cube coordinate is
/// s = −q − r.
///
/// Cells order row by row: by r, then by q (``RowMajorCell``).
package struct HexCell: Sendable, Hashable, Codable, RowMajorCell {
    /// Axial q.
    package var q: Int
    /// Axial r.
    package var r: Int

    package var column: Int { q }
    var row: Int { r }

    /// The third cube coordinate, −q − r.
    package var s: Int { -q - r }

    /// The number of steps between two cells. O(1).
    func distance(to other: HexCell) -> Int {
        (abs(q - other.q) + abs(r - other.r) + abs(s - other.s)) / 2
    }
}
