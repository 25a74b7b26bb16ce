import Foundation
import HeatMapCore
import HeatMapDensity

/// Takes plane geometry to output coordinates: [longitude, latitude] for
/// geographic projections (continuous across ±180°, not yet wrapped; a ring
/// around a pole is closed along the pole's parallel), x/y for planar.
/// Rings come back open, exteriors counter-clockwise and holes clockwise
/// in output coordinates.
package struct LonLatGeometry {
    package let projection: PlaneProjection
    /// The projection's inverse with its centre's sines worked out once.
    private let unprojection: Unprojection
    private let northPole: PlanePoint?
    private let southPole: PlanePoint?

    package init(projection: PlaneProjection) {
        self.projection = projection
        unprojection = Unprojection(projection)
        // Only the azimuthal projection can wrap a ring round a pole.
        if projection.kind == .equalArea {
            northPole = projection.project(latitude: 90, longitude: 0)
            southPole = projection.project(latitude: -90, longitude: 0)
        } else {
            northPole = nil
            southPole = nil
        }
    }

    /// A plane polygon in output coordinates.
    /// A cancelled `control` cuts it short (the caller throws). O(n).
    package func polygon(_ polygon: PlanePolygon, control: ComputeControl = .none) -> PlanePolygon {
        self.polygon(raw: raw(polygon, control: control), plane: polygon, control: control)
    }

    /// The positions of a plane ring as they unproject, point by point:
    /// raw [longitude, latitude] (each in the centre's ± 180°, not yet
    /// unwrapped), or x/y for planar data (the ring itself). The first step
    /// of ``polygon(_:control:)``, which a writer of rings that several
    /// polygons share takes once per ring (``polygon(raw:plane:control:)``
    /// does the rest); cut short if `control` is cancelled. O(n).
    package func raw(_ plane: [PlanePoint], control: ComputeControl = .none) -> [PlanePoint] {
        guard projection.isGeographic else { return plane }
        return plane.withUnsafeBufferPointer { LonLatGeometry.unprojected($0, unprojection, control: control) }
    }

    /// ``raw(_:control:)`` of positions in a buffer (into a new array). O(n).
    package func raw(_ plane: UnsafeBufferPointer<PlanePoint>, control: ComputeControl = .none) -> [PlanePoint] {
        guard projection.isGeographic else { return Array(plane) }
        return LonLatGeometry.unprojected(plane, unprojection, control: control)
    }

    /// ``raw(_:control:)`` of every ring of a polygon. O(n).
    package func raw(_ polygon: PlanePolygon, control: ComputeControl = .none) -> PlanePolygon {
        PlanePolygon(
            exterior: raw(polygon.exterior, control: control), holes: polygon.holes.map { raw($0, control: control) })
    }

    /// ``polygon(_:control:)`` of a polygon whose rings are already
    /// ``raw(_:control:)``: unwrapped, oriented, its holes in its
    /// exterior's turn of longitudes. `plane` is the polygon before
    /// unprojection when the caller holds it; a ring that circles a pole
    /// (rare) is otherwise projected back to learn which. O(n).
    package func polygon(raw polygon: PlanePolygon, plane: PlanePolygon? = nil, control: ComputeControl = .none)
        -> PlanePolygon
    {
        guard projection.isGeographic else { return Self.oriented(polygon) }
        return measuredPolygon(raw: polygon, plane: plane, control: control).polygon
    }

    /// ``polygon(raw:plane:control:)`` and the box of its exterior
    /// (``PlanePolygon/bounds``), measured while the rings are unwrapped
    /// rather than in passes of their own. O(n).
    ///
    /// A polygon round a pole spans one turn of longitudes from seam to
    /// seam (±180° in some turn): a cap closed over the pole, or the strip
    /// between two rings that circle it. A hole across a seam is cut
    /// there into notches of the exterior on both sides (the polygon is
    /// clipped out of three turns of itself, ``HalfPlaneClipper``); the
    /// pieces past the first, if the cut makes more, are in `more` (empty
    /// otherwise).
    package func measuredPolygon(
        raw polygon: PlanePolygon, plane: PlanePolygon? = nil, control: ComputeControl = .none
    ) -> (polygon: PlanePolygon, bounds: PlaneBox, more: [PlanePolygon]) {
        guard projection.isGeographic else {
            let oriented = Self.oriented(polygon)
            return (oriented, PlaneRing.bounds(oriented.exterior), [])
        }
        let outer = measuredRing(raw: polygon.exterior, plane: plane?.exterior)
        var exterior = outer.points
        if outer.area < 0 { exterior.reverse() }
        var box = outer.box
        var holes: [[PlanePoint]] = []
        holes.reserveCapacity(polygon.holes.count)
        // The exterior's and the hole's curves, when a hole circles the
        // exterior's pole too.
        var joined: Curves?
        for (k, h) in polygon.holes.enumerated() {
            if control.isCancelled { break }
            let measured = measuredRing(raw: h, plane: plane?.holes[k])
            // A band round a pole: its exterior and one hole both circle
            // it, and each closed over the pole they would share that edge.
            if joined == nil, let curves = Self.curves(outer, measured), let strip = Self.strip(curves) {
                exterior = strip
                box = PlaneRing.bounds(strip)
                joined = curves
                continue
            }
            var hole = measured.points
            guard !hole.isEmpty else { continue }
            if measured.area > 0 { hole.reverse() }
            // Each ring was unwrapped on its own: put the hole in the
            // exterior's turn of longitudes.
            let turns = Self.turns(placing: hole, box: measured.box, in: exterior, box: box)
            if turns != 0 { hole = hole.map { PlanePoint(x: $0.x + 360 * turns, y: $0.y) } }
            holes.append(hole)
        }
        if outer.pole != nil, let pieces = Self.cutAtSeams(outer, joined, holes: holes), !pieces.isEmpty {
            return (pieces[0], PlaneRing.bounds(pieces[0].exterior), Array(pieces.dropFirst()))
        }
        return (PlanePolygon(exterior: exterior, holes: holes), box, [])
    }

    /// The turns of longitude (a whole number) that put `hole`, whose box
    /// is `hb`, inside `exterior`, whose box is `box`: the turn nearest the
    /// exterior's middle, unless the exterior spans so wide (more than a
    /// turn, less the hole's width) that the hole's box fits it in more
    /// than one turn; then the turn in which the hole's first position
    /// lies inside the exterior (the ring tells, the middle may not).
    /// O(1), or O(exterior) for the wide ones.
    private static func turns(placing hole: [PlanePoint], box hb: PlaneBox, in exterior: [PlanePoint], box: PlaneBox)
        -> Double
    {
        let nearest = (((box.minX + box.maxX) / 2 - (hb.minX + hb.maxX) / 2) / 360).rounded()
        guard box.maxX - box.minX + (hb.maxX - hb.minX) > 360, let first = hole.first else { return nearest }
        let fitting = [nearest - 1, nearest, nearest + 1].filter {
            hb.minX + 360 * $0 >= box.minX && hb.maxX + 360 * $0 <= box.maxX
        }
        guard fitting.count > 1 else { return nearest }
        return fitting.first { PlaneRing.locate(PlanePoint(x: first.x + 360 * $0, y: first.y), in: exterior) == 1 }
            ?? nearest
    }

    /// The pieces of a polygon round a pole (`outer` circles it; `joined`
    /// are the curves of the strip when a hole circles it too) that
    /// reaches past the seams of its turn, or nil when it does not: the
    /// turn runs from the seam where the exterior's curve starts to the one
    /// where it ends, and a curve that wanders back across a seam, or a
    /// hole across one, needs its part beyond laid on the far side. The
    /// exterior's curves are repeated over the turns before and after, the
    /// holes copied one turn either way, and the whole clipped to the
    /// turn (``HalfPlaneClipper``). O(n log n).
    private static func cutAtSeams(_ outer: MeasuredRing, _ joined: Curves?, holes: [[PlanePoint]])
        -> [PlanePolygon]?
    {
        guard let pole = outer.pole, let a = joined?.exterior ?? curve(of: outer, counterClockwise: true) else {
            return nil
        }
        let b = joined?.hole ?? []
        let west = min(a[0].x, a[a.count - 1].x), east = max(a[0].x, a[a.count - 1].x)
        guard east - west == 360 else { return nil }
        let outside = { (p: PlanePoint) in p.x < west || p.x > east }
        guard
            a.contains(where: outside) || b.contains(where: outside)
                || holes.contains(where: { $0.contains(where: outside) })
        else { return nil }
        // A curve of one turn, then the same one turn before and one after.
        func thrice(_ curve: [PlanePoint]) -> [PlanePoint] {
            let step = curve[curve.count - 1].x - curve[0].x
            var out: [PlanePoint] = []
            out.reserveCapacity(3 * curve.count)
            for k in [-1.0, 0, 1] {
                for p in curve {
                    let q = PlanePoint(x: p.x + k * step, y: p.y)
                    if out.last != q { out.append(q) }
                }
            }
            return out
        }
        var ring = thrice(a)
        if joined != nil {
            for p in thrice(b) where ring.last != p { ring.append(p) }
        } else {
            ring.append(PlanePoint(x: ring[ring.count - 1].x, y: pole))
            ring.append(PlanePoint(x: ring[0].x, y: pole))
        }
        if ring.count > 1, ring.first == ring.last { ring.removeLast() }
        var copies: [[PlanePoint]] = []
        for h in holes {
            for k in [-360.0, 0, 360] {
                let shifted = k == 0 ? h : h.map { PlanePoint(x: $0.x + k, y: $0.y) }
                if shifted.contains(where: { $0.x > west && $0.x < east }) { copies.append(shifted) }
            }
        }
        return HalfPlaneClipper.clip(PlanePolygon(exterior: ring, holes: copies), keeping: .east, of: west)
            .flatMap { HalfPlaneClipper.clip($0, keeping: .west, of: east) }
    }

    /// One ring (open) in output coordinates, unwrapped to be continuous in
    /// longitude and closed round a pole if it circles one.
    func ring(_ plane: [PlanePoint], control: ComputeControl = .none) -> [PlanePoint] {
        let raw = self.raw(plane, control: control)
        if raw.count < plane.count { return raw }
        return ring(raw: raw, plane: plane)
    }

    /// A planar polygon oriented: exterior counter-clockwise, holes clockwise.
    private static func oriented(_ polygon: PlanePolygon) -> PlanePolygon {
        var exterior = polygon.exterior
        if PlaneRing.signedArea(exterior) < 0 { exterior.reverse() }
        let holes = polygon.holes.map { h in
            var h = h
            if PlaneRing.signedArea(h) > 0 { h.reverse() }
            return h
        }
        return PlanePolygon(exterior: exterior, holes: holes)
    }

    /// A ring in output coordinates with the signed area and the box
    /// that ``PlaneRing/signedArea(_:)`` and ``PlaneRing/bounds(_:)`` give
    /// it (the area's sign and the box are what orienting and placing it
    /// need).
    private struct MeasuredRing {
        var points: [PlanePoint]
        var area: Double
        var box: PlaneBox
        /// The latitude of the pole a ring that circles one was closed
        /// over: its last two points run along that parallel, from the
        /// seam where the ring ends back to the seam where it starts.
        var pole: Double? = nil
    }

    /// The curves of a band's exterior and of one of its holes that both
    /// circle a pole, each one turn from seam to seam, the hole's in the
    /// exterior's turn (``curves(_:_:)``).
    private typealias Curves = (exterior: [PlanePoint], hole: [PlanePoint])

    /// The ring of the strip between two rings that circle the same pole,
    /// a band's exterior and one of its holes, from their `curves` (nil
    /// when too few positions are left): each curve runs one turn from
    /// seam to seam (±180° in some turn), so the exterior's, counter-clockwise, and the hole's,
    /// clockwise, join end to end along the seam and bound the strip
    /// between them, with no edge over the pole. O(n).
    private static func strip(_ curves: Curves) -> [PlanePoint]? {
        let (a, b) = curves
        var ring: [PlanePoint] = []
        ring.reserveCapacity(a.count + b.count)
        for p in a + b where ring.last != p { ring.append(p) }
        if ring.count > 1, ring.first == ring.last { ring.removeLast() }
        return ring.count >= 3 ? ring : nil
    }

    /// The curve of a ring closed over a pole (the ring without its edge
    /// over the pole), run the way the ring runs oriented as an exterior
    /// (`counterClockwise`) or a hole; nil for a ring that circles no pole.
    private static func curve(of ring: MeasuredRing, counterClockwise: Bool) -> [PlanePoint]? {
        guard ring.pole != nil, ring.points.count >= 4 else { return nil }
        var curve = Array(ring.points.dropLast(2))
        if (ring.area < 0) == counterClockwise { curve.reverse() }
        return curve
    }

    /// The curves of an exterior and a hole round the same pole, the
    /// hole's in the turn where the exterior's ends, when they join end to
    /// end along the seams; nil otherwise.
    private static func curves(_ outer: MeasuredRing, _ inner: MeasuredRing) -> Curves? {
        guard outer.pole == inner.pole, let a = curve(of: outer, counterClockwise: true),
            var b = curve(of: inner, counterClockwise: false)
        else { return nil }
        let turns = ((a[a.count - 1].x - b[0].x) / 360).rounded()
        if turns != 0 { b = b.map { PlanePoint(x: $0.x + 360 * turns, y: $0.y) } }
        guard b[0].x == a[a.count - 1].x, b[b.count - 1].x == a[0].x else { return nil }
        return (a, b)
    }

    /// ``ring(_:control:)`` of a ring already ``raw(_:control:)``.
    private func ring(raw: [PlanePoint], plane: [PlanePoint]?) -> [PlanePoint] {
        guard projection.isGeographic else { return raw }
        return measuredRing(raw: raw, plane: plane).points
    }

    /// ``ring(raw:plane:)`` measured in the pass that unwraps it: the area
    /// summed as ``PlaneRing/signedArea(_:)`` sums it (about the first
    /// position, term by term in the same order, so the same bits), the
    /// box grown position by position. Geographic only.
    private func measuredRing(raw: [PlanePoint], plane: [PlanePoint]?) -> MeasuredRing {
        guard raw.count >= 2 else {
            return MeasuredRing(points: raw, area: PlaneRing.signedArea(raw), box: PlaneRing.bounds(raw))
        }
        // Each longitude continues from the one before by the short way
        // round. Most rings need no change: the raw array is kept (and
        // shared) until a longitude differs.
        var out = raw
        let o = raw[0]
        var box = PlaneBox.empty
        box.formUnion(o)
        // The area's first term pairs the last position with the first,
        // which is (0, 0) about itself: ±0 (or NaN when the first is not
        // finite), so the sum of the others, begun at +0, is the same sum.
        let firstX = o.x - o.x, firstY = o.y - o.y
        var sum = 0.0, px = firstX, py = firstY
        var x = o.x
        for i in 1..<raw.count {
            x += LonLatGeometry.step(raw[i].x - raw[i - 1].x)
            if x != out[i].x { out[i].x = x }
            let y = raw[i].y
            box.formUnion(PlanePoint(x: x, y: y))
            let dx = x - o.x, dy = y - o.y
            sum += px * dy - dx * py
            (px, py) = (dx, dy)
        }
        let first = px * firstY - firstX * py
        let area = raw.count < 3 ? 0 : (first.isNaN ? first : sum / 2)
        let rawFirst = raw[0], rawLast = raw[raw.count - 1]
        let closing = LonLatGeometry.step(rawFirst.x - rawLast.x)
        let turns = ((out[out.count - 1].x + closing - out[0].x) / 360).rounded()
        guard turns.isFinite, turns != 0 else { return MeasuredRing(points: out, area: area, box: box) }
        // The ring circles a pole. Start it where it crosses ±180° and close
        // it over the pole along ±180°, so that the cap lies in one window
        // of longitudes and needs no cut (a cut elsewhere would leave two
        // pieces sharing an edge).
        let plane = plane ?? raw.map { projection.project(latitude: $0.y, longitude: $0.x) }
        let pole: Double
        if let n = northPole, PlaneRing.locate(n, in: plane) == 1 {
            pole = 90
        } else if let s = southPole, PlaneRing.locate(s, in: plane) == 1 {
            pole = -90
        } else {
            pole = out.reduce(0) { $0 + $1.y } >= 0 ? 90 : -90
        }
        let n = out.count
        var closed = out
        closed.append(PlanePoint(x: out[n - 1].x + closing, y: rawFirst.y))
        func seam(_ x: Double) -> Double { ((x - 180) / 360).rounded(.down) }
        guard let i = (0..<n).first(where: { seam(closed[$0].x) != seam(closed[$0 + 1].x) }) else {
            return MeasuredRing(points: out, area: area, box: box)
        }
        let a = closed[i], b = closed[i + 1]
        let line = 180 + 360 * max(seam(a.x), seam(b.x))
        let start = HalfPlaneClipper.cut(a, b, line)
        // closed[n] is point 0 one turn on; after it come points 1...i, one turn on.
        let turn = 360 * turns
        var ring = [start] + closed[(i + 1)...n]
        ring += out[1..<(i + 1)].map { PlanePoint(x: $0.x + turn, y: $0.y) }
        let end = PlanePoint(x: start.x + 360 * turns, y: start.y)
        ring.append(end)
        ring.append(PlanePoint(x: end.x, y: pole))
        ring.append(PlanePoint(x: start.x, y: pole))
        var clean: [PlanePoint] = []
        for p in ring where clean.last != p { clean.append(p) }
        if clean.count > 1, clean.first == clean.last { clean.removeLast() }
        // The closing edge over the pole survives the clean-up unless the
        // curve itself reaches the pole.
        let closedOverPole = clean.count >= 4 && clean[clean.count - 1].y == pole && clean[clean.count - 2].y == pole
        return MeasuredRing(
            points: clean, area: PlaneRing.signedArea(clean), box: PlaneRing.bounds(clean),
            pole: closedOverPole ? pole : nil)
    }

    /// A line in output coordinates, unwrapped to be continuous; `closed`
    /// appends the way back to the first point (continuing round a pole if
    /// the line circles one).
    package func line(_ plane: [PlanePoint], closed: Bool) -> [PlanePoint] {
        var raw = plane.withUnsafeBufferPointer { LonLatGeometry.unprojected($0, unprojection, control: .none) }
        if closed, let first = raw.first, raw.count >= 2, raw.last != first { raw.append(first) }
        guard projection.isGeographic, raw.count >= 2 else { return raw }
        var out = raw
        for i in 1..<raw.count {
            out[i].x = out[i - 1].x + LonLatGeometry.step(raw[i].x - raw[i - 1].x)
        }
        return out
    }

    /// `plane` as raw (longitude, latitude), or x/y for planar; cut short
    /// if `control` is cancelled (polled every 16,384 points). O(n).
    package static func unprojected(
        _ source: UnsafeBufferPointer<PlanePoint>, _ unprojection: Unprojection, control: ComputeControl
    ) -> [PlanePoint] {
        let poll = 1 << 14
        return [PlanePoint](unsafeUninitializedCapacity: source.count) { buffer, count in
            var start = 0
            while start < source.count {
                if start > 0, control.isCancelled { break }
                let end = min(source.count, start + poll)
                unprojection.lonLat(
                    UnsafeBufferPointer(rebasing: source[start..<end]), into: buffer.baseAddress! + start)
                start = end
            }
            count = start
        }
    }

    /// A longitude difference taken the short way round, in (−180, 180].
    @inline(__always) package static func step(_ d: Double) -> Double {
        // Neighbouring vertices are almost always less than half a turn apart.
        if d > -180, d <= 180 { return d }
        var d = d.truncatingRemainder(dividingBy: 360)
        if d > 180 { d -= 360 }
        if d <= -180 { d += 360 }
        return d
    }
}

extension PlaneRing {
    /// The bounding box of a ring. O(n).
    package static func bounds(_ ring: [PlanePoint]) -> PlaneBox {
        var box = PlaneBox.empty
        for p in ring { box.formUnion(p) }
        return box
    }
}
