import Foundation
import HeatMapCore

/// The rim of the equal-area plane: the azimuthal plane holds the whole
/// sphere in a disc of radius 2R (R the authalic radius) whose rim is one
/// point, the antipode of the centre. A grid over data on most of the
/// globe reaches that rim and goes past it, where no plane point is a
/// place on the sphere.
package enum SphereRim {
    /// Nodes within this many cell diagonals of the rim, or beyond it,
    /// hold no density: a contour's crossing on a cell edge lies within a
    /// cell of a node inside, so every vertex of a contour stays inside
    /// the disc, at a place of the sphere, and none at the antipode.
    static let marginInCells = 1.5

    /// The cap round the antipode whose nodes ``mark(_:beyondIn:geometry:projection:)``
    /// sets, as the antipode's latitude and longitude and the cap's angular
    /// radius in degrees (the plane squeezes distances toward its rim, so a
    /// margin of a cell or two there is a wide cap: ρ = 2R − ε holds the
    /// places 2√(ε/R) radians from the antipode); nil when the grid stays
    /// inside the margin or the plane is not equal-area. O(1).
    package static func cap(
        geometry: GridGeometry, projection: PlaneProjection
    ) -> (latitude: Double, longitude: Double, degrees: Double)? {
        guard projection.kind == .equalArea, let limit = limit(reachedBy: geometry) else { return nil }
        let r = PlaneProjection.authalicRadius
        let margin = 2 * r - max(limit, 0)
        let degrees = min(2 * (margin / r).squareRoot(), Double.pi) * 180 / Double.pi
        var longitude = projection.centreLongitude + 180
        if longitude > 180 { longitude -= 360 }
        return (-projection.centreLatitude, longitude, degrees)
    }

    /// The plane radius past which `geometry`'s nodes hold no density (the
    /// rim less ``marginInCells`` cell diagonals), when some node lies past
    /// it; nil otherwise. O(1): the farthest node is a corner.
    private static func limit(reachedBy geometry: GridGeometry) -> Double? {
        let diagonal = (geometry.dx * geometry.dx + geometry.dy * geometry.dy).squareRoot()
        let limit = 2 * PlaneProjection.authalicRadius - marginInCells * diagonal
        let first = geometry.node(column: 0, row: 0)
        let last = geometry.node(column: geometry.columns - 1, row: geometry.rows - 1)
        let farX = max(abs(first.x), abs(last.x)), farY = max(abs(first.y), abs(last.y))
        return farX * farX + farY * farY > limit * limit ? limit : nil
    }

    /// Sets the nodes of `values` (row-major on `geometry`) at or past the
    /// rim's margin to `value` in the equal-area plane: 0 for a density
    /// (contoured like any place without points; a NaN's floor would put
    /// every level's crossing next to one another there), NaN (undefined)
    /// for a mean. Other planes, and grids that stay inside, are left as
    /// they are. O(nodes) when the grid reaches the margin, O(1) otherwise.
    static func mark(
        _ value: Double, beyondIn values: inout [Double], geometry: GridGeometry, projection: PlaneProjection
    ) {
        guard projection.kind == .equalArea, let limit = limit(reachedBy: geometry) else { return }
        let limitSquared = limit * limit
        values.withUnsafeMutableBufferPointer { values in
            for r in 0..<geometry.rows {
                for c in 0..<geometry.columns {
                    let p = geometry.node(column: c, row: r)
                    if p.x * p.x + p.y * p.y > limitSquared { values[r * geometry.columns + c] = value }
                }
            }
        }
    }
}
