import Foundation
import HeatMapCore
import HeatMapDensity

extension ContourSet {
    /// The set with fewer vertices: every ring keeps only the vertices that
    /// lie more than `tolerance` (plane units: metres for geographic
    /// projections) off the simplified line, while boundaries that bands or
    /// levels share stay identical in both, and every band and level stays
    /// valid (no ring crosses or touches another, or itself, where it did
    /// not before). Rings that simplifying would break keep their vertices.
    /// No segment longer than `maximumSegment` is made: for geographic
    /// data a few grid cells keep the lines between unprojected positions
    /// close to the plane's straight ones (a long straight edge along the
    /// grid's frame is a curve in longitude/latitude).
    /// With a geographic `projection` (the one the set will be unprojected
    /// with), validity is also checked in longitude/latitude.
    /// Only the kinds in `modes` are simplified (an export needs one; the
    /// others stay as they were). A tolerance ≤ 0 gives the set unchanged.
    /// About O(n log n) in vertices.
    /// - Throws: `CancellationError` when `control` is cancelled.
    public func simplified(
        tolerance: Double, maximumSegment: Double = .infinity, projection: PlaneProjection? = nil,
        modes: Set<ContourMode> = Set(ContourMode.allCases),
        control: ComputeControl = .none
    ) throws -> ContourSet {
        guard tolerance > 0, tolerance.isFinite else { return self }
        var out = self
        if modes.contains(.bands) {
            out.bands = try ArcSimplifier(
                layers: bands, tolerance: tolerance, maximumSegment: maximumSegment, projection: projection,
                control: control
            ).run()
        }
        if modes.contains(.levels) {
            out.levels = try ArcSimplifier(
                layers: levels, tolerance: tolerance, maximumSegment: maximumSegment, projection: projection,
                control: control
            ).run()
        }
        if modes.contains(.isolines) {
            // Each isoline ring is its own polygon: lines of a level never cross.
            let layers = isolines.map { $0.map { PlanePolygon(exterior: $0) } }
            out.isolines = try ArcSimplifier(
                layers: layers, tolerance: tolerance, maximumSegment: maximumSegment, projection: projection,
                control: control
            ).run()
                .map { $0.map(\.exterior) }
        }
        return out
    }
}

extension ContourSet {
    /// The longest segment simplifying the contours of `grid` may make:
    /// 8 grid cells for geographic data, where a longer straight segment
    /// in the plane strays from the same segment drawn between its
    /// unprojected ends; unbounded for planar data. The library's
    /// `simplification` and the tool's `--simplify` both take it from here.
    static func longestSimplifiedSegment(on grid: DensityGrid) -> Double {
        grid.projection.isGeographic ? 8 * max(grid.geometry.dx, grid.geometry.dy) : .infinity
    }

    /// The set, made from `grid`, simplified to `tolerance` (plane units)
    /// with ``longestSimplifiedSegment(on:)`` and checked in the grid's
    /// projection (see ``simplified(tolerance:maximumSegment:projection:modes:control:)``).
    ///
    /// - Throws: `CancellationError` when `control` is cancelled.
    package func simplified(
        tolerance: Double, on grid: DensityGrid,
        modes: Set<ContourMode> = Set(ContourMode.allCases),
        control: ComputeControl = .none
    ) throws -> ContourSet {
        try simplified(
            tolerance: tolerance, maximumSegment: Self.longestSimplifiedSegment(on: grid),
            projection: grid.projection, modes: modes, control: control)
    }
}
