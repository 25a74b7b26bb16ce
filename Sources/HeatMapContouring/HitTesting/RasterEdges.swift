import Foundation
import HeatMapCore

/// Where a ``RasterIndex`` reads its edges at query time: edge i's ends in
/// the plane and its owners, the same bits its build read.
protocol RasterEdges: Sendable {
    /// Whether there are no edges.
    var isEmpty: Bool { get }
    /// Edge i: its ends and who owns it. O(1), or O(log rings) for ``RingEdges``.
    func edge(_ i: Int) -> (PlanePoint, PlanePoint, EdgeLink)
}

/// Edges as a flat copy of their vertices in the plane (``BandLocator``'s
/// index over plane polygons): 32 bytes an edge, the fastest to read.
struct FlatEdges: RasterEdges {
    // Vertices of all rings, x and y side by side, and per edge its link.
    // A query reads a few of each at random: one cache line per vertex and
    // per edge, not one per array.
    private let vertices: [PlanePoint]
    private let links: [EdgeLink]

    init(_ gathered: RingGatherer) {
        vertices = gathered.vertices
        links = gathered.links
    }

    var isEmpty: Bool { vertices.isEmpty }

    @inline(__always) func edge(_ i: Int) -> (PlanePoint, PlanePoint, EdgeLink) {
        let link = links[i]
        return (vertices[i], vertices[Int(link.next)], link)
    }
}

/// Edges read from the rings of polygons in latitude/longitude (the
/// result's ``HeatMapPolygon``s, whose arrays are shared, not copied) and
/// projected again as a query reads them: the index keeps no copy of the
/// geometry, only a record per ring. The build projects with the same
/// function, so build and query see the same bits.
struct RingEdges: RasterEdges {
    /// One gathered ring: its coordinates (the polygon's own array) and
    /// the owners of its edges.
    struct Ring: Sendable {
        let coordinates: [LocationCoordinate2D]
        let link: EdgeLink
    }

    private let rings: [Ring]
    /// Where each ring's edges start, and one past the last.
    private let starts: [Int32]
    private let projector: PointProjector

    init(rings: [Ring], starts: [Int32], projector: PointProjector) {
        self.rings = rings
        self.starts = starts
        self.projector = projector
    }

    var isEmpty: Bool { rings.isEmpty }

    /// A coordinate in the plane, as the build and every query compute it.
    @inline(__always) static func plane(_ c: LocationCoordinate2D, _ projector: PointProjector) -> PlanePoint {
        projector.plane(latitude: c.latitude, longitude: c.longitude)
    }

    func edge(_ i: Int) -> (PlanePoint, PlanePoint, EdgeLink) {
        // The last ring starting at or before i.
        var lo = 0, hi = rings.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if Int(starts[mid]) <= i { lo = mid } else { hi = mid - 1 }
        }
        let ring = rings[lo], j = i - Int(starts[lo]), n = ring.coordinates.count
        return (
            Self.plane(ring.coordinates[j], projector), Self.plane(ring.coordinates[j + 1 == n ? 0 : j + 1], projector),
            ring.link
        )
    }
}
