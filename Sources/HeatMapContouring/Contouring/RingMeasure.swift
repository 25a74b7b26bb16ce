import HeatMapCore
import HeatMapDensity

/// Area and perimeter of a closed ring, computed about its first vertex so
/// that small rings far from the origin keep their precision.
struct RingMeasure {
    /// Signed shoelace area in plane units (positive counter-clockwise).
    package var signedArea: Double
    /// Area in cells (|area| / cell area).
    package var cellArea: Double
    /// Perimeter in cell units (x in dx, y in dy).
    var cellPerimeter: Double

    /// Measures the ring of `points` (open: last joins first).
    package init(_ points: [PlanePoint], geometry: GridGeometry) {
        guard points.count >= 3 else {
            signedArea = 0; cellArea = 0; cellPerimeter = 0
            return
        }
        let ox = points[0].x, oy = points[0].y
        var twice = 0.0, perimeter = 0.0
        var px = points[points.count - 1].x - ox, py = points[points.count - 1].y - oy
        for q in points {
            let x = q.x - ox, y = q.y - oy
            twice += px * y - x * py
            let ex = (x - px) / geometry.dx, ey = (y - py) / geometry.dy
            perimeter += (ex * ex + ey * ey).squareRoot()
            px = x; py = y
        }
        signedArea = twice / 2
        cellArea = abs(signedArea) / (geometry.dx * geometry.dy)
        cellPerimeter = perimeter
    }

    /// Whether the ring's mean width (2·area / perimeter) is below 4ε of a
    /// cell: an artefact of the crossing clamp around nodes exactly at the
    /// threshold, standing for a set with no area.
    var isDegenerate: Bool {
        !(cellArea > 2 * CrossingRule.epsilon * cellPerimeter)
    }

    /// Whether the ring of `points` is degenerate (see ``isDegenerate``).
    static func isDegenerate(_ points: [PlanePoint], geometry: GridGeometry) -> Bool {
        RingMeasure(points, geometry: geometry).isDegenerate
    }
}
