/// Area and perimeter of a closed ring, computed about its first vertex so
/// that small rings far from the origin keep their precision.
struct RingMeasure {
    /// Signed shoelace area in plane units (positive counter-clockwise).
    var signedArea: Double
    /// Area in cells (|area| / cell area).
    var cellArea: Double
    /// Perimeter in cell units (x in dx, y in dy).
    var cellPerimeter: Double

    /// Measures the ring of `vertices[range]` (open: last joins first).
    init(_ vertices: EdgeVertices, range: Range<Int>, geometry: GridGeometry) {
        self.init(range, geometry: geometry) { vertices.point($0) }
    }

    /// Measures the ring of `point(i)` for i in `range` (open: last joins first).
    private init(_ range: Range<Int>, geometry: GridGeometry, point: (Int) -> PlanePoint) {
        guard range.count >= 3 else {
            signedArea = 0; cellArea = 0; cellPerimeter = 0
            return
        }
        let o = point(range.lowerBound), last = point(range.upperBound - 1)
        let ox = o.x, oy = o.y
        var twice = 0.0, perimeter = 0.0
        var px = last.x - ox, py = last.y - oy
        for i in range {
            let q = point(i)
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
        RingMeasure(0..<points.count, geometry: geometry) { points[$0] }.isDegenerate
    }
}
