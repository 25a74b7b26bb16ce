import Foundation

/// Builds every kind of contour geometry from a grid.
///
/// PLACEHOLDER (to be replaced by the contouring stage): returns no rings.
public enum ContourBuilder {
    /// The contours of `grid` at `thresholds` (ascending), smoothed.
    public static func build(grid: DensityGrid, thresholds: [Double], smoother: PolygonSmoother,
                             control: ComputeControl = .none) throws -> ContourSet {
        let empty = Array(repeating: [PlanePolygon](), count: thresholds.count)
        return ContourSet(thresholds: thresholds, levels: empty, bands: empty,
                          isolines: Array(repeating: [], count: thresholds.count))
    }
}
