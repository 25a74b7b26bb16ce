import Foundation
import HeatMapCore
import Synchronization

/// A spatial index over contour polygons for point queries (docs/contour-rules.md): the
/// polygons are split into parts of about equal vertex counts, each a
/// ``RasterIndex`` built on its own core; a query asks every part.
struct PolygonIndex<Edges: RasterEdges>: Sendable {
    private let parts: [RasterIndex<Edges>]

    /// Indices of the polygons containing `p`, ascending.
    func polygons(containing p: PlanePoint) -> [Int] {
        var out: [Int] = []
        for part in parts { part.visit(p) { out.append(Int($0)) } }
        return out.sorted()
    }

    /// The highest-numbered polygon containing `p` (for bands: the only
    /// one), without allocating.
    func highestPolygon(containing p: PlanePoint) -> Int? {
        var best: Int32 = -1
        for part in parts { part.visit(p) { best = max(best, $0) } }
        return best >= 0 ? Int(best) : nil
    }

    /// ``highestPolygon(containing:)`` of each point, in order, on every
    /// core. Large batches are answered in ``SpatialOrder`` (nearby points
    /// one after another), so that consecutive lookups read the same parts
    /// of the index from cache instead of memory. O(n).
    func highestPolygons(containing points: [PlanePoint]) -> [Int?] {
        let order = SpatialOrder(points)
        let chunk = 4096
        let chunks = (points.count + chunk - 1) / chunk
        return [Int?](unsafeUninitializedCapacity: points.count) { out, initialized in
            let out = UncheckedSendable(out.baseAddress!)
            points.withUnsafeBufferPointer { points in
                Parallel.forEach(chunks) { c in
                    for k in c * chunk..<min(points.count, (c + 1) * chunk) {
                        let i = order.map { Int($0.indices[k]) } ?? k
                        (out.value + i).initialize(to: highestPolygon(containing: points[i]))
                    }
                }
            }
            initialized = points.count
        }
    }

    /// Contiguous ranges of `sizes.count` polygons holding about
    /// total / `count` vertices each.
    static func ranges(sizes: [Int], count: Int) -> [Range<Int>] {
        let total = sizes.reduce(0, +)
        var ranges: [Range<Int>] = []
        var start = 0, acc = 0
        for (i, n) in sizes.enumerated() {
            acc += n
            if acc * count >= total * (ranges.count + 1), ranges.count < count - 1 {
                ranges.append(start..<(i + 1))
                start = i + 1
            }
        }
        ranges.append(start..<sizes.count)
        return ranges
    }
}

extension PolygonIndex where Edges == FlatEdges {
    /// Indexes the polygons of every level, flattened level by level, with
    /// a copy of their vertices. O(V + cells), on every core. `parts`
    /// overrides how many parts (by default one per core for large inputs,
    /// one for small ones).
    init(bands: [[PlanePolygon]], parts requested: Int? = nil) {
        let polygons = Array(bands.joined())
        let sizes = polygons.map { $0.holes.reduce($0.exterior.count) { $0 + $1.count } }
        let total = sizes.reduce(0, +)
        let count = max(1, requested ?? (total < 200_000 ? 1 : min(Parallel.workerCount, 8)))
        let ranges = Self.ranges(sizes: sizes, count: count)
        parts = Parallel.map(ranges.count) { k in
            var gathered = RingGatherer(capacity: sizes[ranges[k]].reduce(0, +))
            for polygon in ranges[k] {
                let p = polygons[polygon]
                for k in 0...p.holes.count {
                    let ring = k == 0 ? p.exterior : p.holes[k - 1]
                    var poll = PollCounter(.none, every: RasterBuild.pollInterval)
                    ring.withUnsafeBufferPointer {
                        _ = try! gathered.add($0, polygon: polygon, isHole: k > 0, poll: &poll)
                    }
                }
            }
            // A control that never cancels: the build cannot throw.
            var poll = PollCounter(.none, every: RasterBuild.pollInterval)
            return try! RasterIndex(gathered, keeping: FlatEdges(gathered), poll: &poll)
        }
    }
}

extension PolygonIndex where Edges == RingEdges {
    /// Vertices a part of the result's index holds at most: the part's
    /// plane copy is made only while it is built, so this bounds what the
    /// build adds to the polygons' own memory.
    static var partVertices: Int { 1 << 21 }
    /// Vertices per index cell: a tap reads a cell's edges (a few dozen,
    /// each projected again, microseconds in all), and the cells' lists
    /// are most of what the index holds.
    static var verticesPerCell: Int { 8 }

    /// Indexes `polygons` (numbered by their position) in the plane of
    /// `projection`, keeping no copy of their vertices: a query projects
    /// the few it reads again. O(V) projections and O(V + cells) to build,
    /// on every core. Every pass counts its vertices, edges and cells and
    /// polls `control` once per `RasterBuild.pollInterval` of them,
    /// reporting stage `.index` at each poll (so a cancel from a report is
    /// seen by the next poll of every worker).
    /// - Throws: `CancellationError`; what a part had made is freed off the caller's path.
    /// `partVertices` and `pollInterval` are for tests.
    init(
        polygons: [HeatMapPolygon], projection: PlaneProjection, control: ComputeControl,
        partVertices: Int = Self.partVertices, pollInterval: Int = RasterBuild.pollInterval
    ) throws {
        let sizes = polygons.map { $0.interiorPolygons.reduce($0.coordinates.count) { $0 + $1.count } }
        let total = sizes.reduce(0, +)
        let count = max(1, (total + partVertices - 1) / partVertices)
        let ranges = Self.ranges(sizes: sizes, count: count)
        let projector = PointProjector(projection)
        let progress = StageProgress(.index, control: control)
        // The work counted: each vertex projected, then each edge in the
        // raster's four passes and the cells; a ring shared by two bands is
        // gathered once, so about three or four units a vertex.
        let work = 4 * total
        try control.begin(.index)
        let made = try Parallel.map(ranges.count, control: control) { k in
            var poll = PollCounter(control, every: pollInterval) { progress.advance(by: $0, of: work) }
            try poll.check()
            return try Self.part(
                polygons, ranges[k], capacity: sizes[ranges[k]].reduce(0, +),
                projector: projector, poll: &poll)
        }
        progress.report(1)
        // A cancel at that last report is honoured too.
        if control.isCancelled {
            DeferredRelease.release(consume made)
            throw CancellationError()
        }
        parts = made
    }

    private static func part(
        _ polygons: [HeatMapPolygon], _ range: Range<Int>, capacity: Int,
        projector: PointProjector, poll: inout PollCounter
    ) throws -> RasterIndex<RingEdges> {
        var gathered = RingGatherer(capacity: capacity)
        var kept: [(coordinates: [LocationCoordinate2D], first: Int)] = []
        var scratch: [PlanePoint] = []
        do {
            for polygon in range {
                let p = polygons[polygon]
                for k in 0...p.interiorPolygons.count {
                    let ring = k == 0 ? p.coordinates : p.interiorPolygons[k - 1]
                    scratch.removeAll(keepingCapacity: true)
                    // Counted within a ring too: the lowest band's outer ring
                    // may hold millions of vertices.
                    for c in ring {
                        try poll.advance()
                        scratch.append(RingEdges.plane(c, projector))
                    }
                    let first = gathered.vertices.count
                    let added = try scratch.withUnsafeBufferPointer {
                        try gathered.add($0, polygon: polygon, isHole: k > 0, poll: &poll)
                    }
                    if added { kept.append((ring, first)) }
                }
            }
            // The twins were marked on the gathered links: read each ring's owners back.
            let rings = kept.map { RingEdges.Ring(coordinates: $0.coordinates, link: gathered.links[$0.first]) }
            let edges = RingEdges(rings: rings, starts: gathered.ringStarts, projector: projector)
            let index = try RasterIndex(gathered, keeping: edges, verticesPerCell: verticesPerCell, poll: &poll)
            // The plane copy (32 bytes a vertex) is let go here, before the
            // next part is gathered, so the build's peak stays one part per core.
            return index
        } catch {
            // A part's plane copy is a hundred megabytes: freed off the cancel's path.
            DeferredRelease.release((consume gathered, consume scratch))
            throw error
        }
    }
}
