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
        self.init(range, geometry: geometry, last: range.isEmpty ? nil : vertices.point(range.upperBound - 1)) { body in
            vertices.forEachPoint(range) { _, q in body(q) }
        }
    }

    /// Measures the ring that `walk` gives point by point, whose last
    /// point is `last` (open: last joins first).
    private init(_ range: Range<Int>, geometry: GridGeometry, last: PlanePoint?,
                 walk: ((PlanePoint) -> Void) -> Void) {
        guard range.count >= 3, let last else {
            signedArea = 0; cellArea = 0; cellPerimeter = 0
            return
        }
        var origin: PlanePoint? = nil
        var ox = 0.0, oy = 0.0
        var twice = 0.0, perimeter = 0.0
        var px = 0.0, py = 0.0
        walk { q in
            if origin == nil {
                origin = q
                ox = q.x; oy = q.y
                px = last.x - ox; py = last.y - oy
            }
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
        RingMeasure(0..<points.count, geometry: geometry, last: points.last) { body in
            for p in points { body(p) }
        }.isDegenerate
    }
}
