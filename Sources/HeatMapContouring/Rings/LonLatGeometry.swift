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
    /// The antipode of the equal-area plane's centre as [longitude,
    /// latitude] (the plane's rim, which no ring reaches: the grid's nodes
    /// near it hold no density); nil for other planes.
    private let antipode: PlanePoint?
    /// ρ² past which the equal-area plane is more than 90° from its
    /// centre (2R²); nil for other planes.
    private let farHalfSquared: Double?

    package init(projection: PlaneProjection) {
        self.projection = projection
        unprojection = Unprojection(projection)
        // Only the azimuthal projection can wrap a ring round a pole.
        if projection.kind == .equalArea {
            northPole = projection.project(latitude: 90, longitude: 0)
            southPole = projection.project(latitude: -90, longitude: 0)
            antipode = PlanePoint(x: projection.centreLongitude + 180, y: -projection.centreLatitude)
            let rho = 2 * PlaneProjection.authalicRadius * sin(LonLatGeometry.farAngle / 2 * Double.pi / 180)
            farHalfSquared = rho * rho
        } else {
            farHalfSquared = nil
            northPole = nil
            southPole = nil
            antipode = nil
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
        let outer = measuredFollowingThePlane(raw: polygon.exterior, plane: plane?.exterior)
        if encirclesAntipode(outer) {
            return aroundAntipode(outer, holes: polygon.holes, plane: plane?.holes, control: control)
        }
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
            let measured = measuredFollowingThePlane(raw: h, plane: plane?.holes[k])
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

    /// The angle from the centre (degrees) past which rings follow the
    /// plane (``measuredFollowingThePlane(raw:plane:)``).
    static let farAngle = 90.0

    /// The latitude (degrees, north or south) past which rings follow the
    /// plane too: toward a pole the meridians close in, and the chord
    /// between two positions strays from the image of the plane's segment
    /// by about L² tan φ / 8R, more than ``chordTolerance`` of its length L
    /// once L tan φ passes 50 km (sides of 9 km at 80°, 1.7 km at 88°).
    /// Short of 80° the chords of a grid over the whole globe (sides of
    /// about 85 km) stray by under a kilometre, well inside the gaps the
    /// plane keeps between rings; past it they reach several (bands
    /// crossed at 88° N), and each test costs a projection a segment.
    static let polarLatitude = 80.0

    /// The largest share of a segment's plane length by which the image of
    /// its [longitude, latitude] chord may miss the segment's middle in the
    /// far half of the equal-area plane and near the poles.
    static let chordTolerance = 1.0 / 1024

    /// Whether some position within `box` (longitudes unwrapped about any
    /// turn) may lie past ``polarLatitude`` or more than 90° from the
    /// equal-area plane's centre: a bound from the box's longitudes about
    /// the centre's and its latitudes. O(1).
    private func mayStrayFromChords(_ box: PlaneBox) -> Bool {
        guard farHalfSquared != nil, !box.isEmpty else { return false }
        if Self.isPolar(box.minY) || Self.isPolar(box.maxY) { return true }
        let deg = Double.pi / 180
        let west = box.minX - projection.centreLongitude, east = box.maxX - projection.centreLongitude
        guard east - west < 180 else { return true }
        let turns = ((west + east) / 2 / 360).rounded()
        let widest = max(abs(west - 360 * turns), abs(east - 360 * turns))
        guard widest < 90 else { return true }
        // cos c = sin φ₀ sin φ + cos φ₀ cos φ cos Δλ ≥ the same at Δλ's widest,
        // a sinusoid in φ whose least over [south, north] is at an end.
        let s0 = sin(projection.centreLatitude * deg), c0 = cos(projection.centreLatitude * deg)
        let k = cos(widest * deg)
        func lower(_ phi: Double) -> Double { s0 * sin(phi * deg) + c0 * cos(phi * deg) * k }
        return min(lower(box.minY), lower(box.maxY)) <= cos(LonLatGeometry.farAngle * deg)
    }

    /// The miss (plane metres) below which a chord is never halved: a
    /// millimetre, far below any gap the output's rounding keeps, and far
    /// above the projections' own error, which near a pole would otherwise
    /// halve a segment of a few millimetres to the last depth.
    static let chordFloor = 1e-3

    /// Whether a latitude lies past ``polarLatitude``.
    @inline(__always) private static func isPolar(_ latitude: Double) -> Bool {
        abs(latitude) >= polarLatitude
    }

    /// ``measuredRing(raw:plane:)``, with positions added where the ring
    /// runs through the far half of the equal-area plane (more than 90°
    /// from its centre) or near a pole (past ``polarLatitude``). In the far
    /// half the plane is squeezed along its radius and stretched across it
    /// more and more toward the rim; near a pole a few kilometres of plane
    /// span degrees of longitude. There the straight [longitude, latitude]
    /// chord between two positions can stray from the image of the plane's
    /// segment by more than the gap to a neighbouring ring that the plane
    /// keeps clear: each such segment is halved at its plane middle until
    /// the chord, projected back, passes within ``chordTolerance`` of its
    /// plane length of that middle. A ring whose box lies within 90° of the
    /// centre and 80° of the equator (every ring of a data set that neither
    /// spans most of the globe nor reaches the polar caps) is left as it is;
    /// a ring round a pole is densified before it is closed over the pole.
    private func measuredFollowingThePlane(raw: [PlanePoint], plane: [PlanePoint]?) -> MeasuredRing {
        let measured = measuredRing(raw: raw, plane: plane)
        guard mayStrayFromChords(measured.box) else { return measured }
        // The raw ring is densified, then measured again: a ring round a
        // pole is closed over it only after.
        let points = followingThePlane(ring: raw)
        guard points.count > raw.count else { return measured }
        return measuredRing(raw: points, plane: nil)
    }

    /// The positions of a closed ring (its last joins its first; each
    /// step of longitude taken the short way round, as in a raw ring) with
    /// those that ``measuredFollowingThePlane(raw:plane:)`` adds, each
    /// within 180° of longitude of the one before. O(n) projections.
    private func followingThePlane(ring: [PlanePoint]) -> [PlanePoint] {
        guard ring.count >= 2, let farSquared = farHalfSquared else { return ring }
        let plane = ring.map { projection.project(latitude: $0.y, longitude: $0.x) }
        var out: [PlanePoint] = []
        out.reserveCapacity(ring.count)
        for i in ring.indices {
            let j = i + 1 == ring.count ? 0 : i + 1
            out.append(ring[i])
            let a = plane[i], b = plane[j]
            guard
                max(a.x * a.x + a.y * a.y, b.x * b.x + b.y * b.y) > farSquared
                    || Self.isPolar(ring[i].y) || Self.isPolar(ring[j].y)
            else { continue }
            // Halved in one order whatever the ring's direction, then laid
            // out as the ring runs: a ring shared by two bands, one run each
            // way, gains the same positions.
            var middle: [PlanePoint] = []
            if (a.x, a.y) <= (b.x, b.y) {
                halve(a, b, ring[i], ring[j], depth: 0, into: &middle)
                out += middle
            } else {
                halve(b, a, ring[j], ring[i], depth: 0, into: &middle)
                out += middle.reversed()
            }
        }
        return out
    }

    /// Positions between `a` and `b` (plane; output `la`, `lb`) as
    /// ``followingThePlane(ring:)`` adds them, in order from `a`.
    private func halve(
        _ a: PlanePoint, _ b: PlanePoint, _ la: PlanePoint, _ lb: PlanePoint, depth: Int,
        into out: inout [PlanePoint]
    ) {
        guard depth < 12 else { return }
        let middle = PlanePoint(x: (a.x + b.x) / 2, y: (a.y + b.y) / 2)
        let chord = PlanePoint(x: la.x + LonLatGeometry.step(lb.x - la.x) / 2, y: (la.y + lb.y) / 2)
        let back = projection.project(latitude: chord.y, longitude: chord.x)
        let length = ((b.x - a.x) * (b.x - a.x) + (b.y - a.y) * (b.y - a.y)).squareRoot()
        let miss = ((back.x - middle.x) * (back.x - middle.x) + (back.y - middle.y) * (back.y - middle.y)).squareRoot()
        guard miss > max(LonLatGeometry.chordTolerance * length, LonLatGeometry.chordFloor) else { return }
        let c = unprojection.coordinate(middle)
        let lm = PlanePoint(
            x: la.x + LonLatGeometry.step(LonLatGeometry.onTurnGrid(c.longitude) - la.x), y: c.latitude)
        halve(a, middle, la, lm, depth: depth + 1, into: &out)
        out.append(lm)
        halve(middle, b, lm, lb, depth: depth + 1, into: &out)
    }

    /// Whether `ring` circles no pole and holds the antipode of the
    /// plane's centre in longitude/latitude: then the plane's inside of
    /// the ring, which never holds the antipode, is the outside of its
    /// image, both poles included (a ring round the whole of a data set
    /// that spans the globe). O(1) unless the antipode is within the
    /// ring's box, O(n) then.
    private func encirclesAntipode(_ ring: MeasuredRing) -> Bool {
        guard let antipode, ring.pole == nil, ring.points.count >= 3 else { return false }
        let turns = (((ring.box.minX + ring.box.maxX) / 2 - antipode.x) / 360).rounded()
        let a = PlanePoint(x: antipode.x + 360 * turns, y: antipode.y)
        guard ring.box.minX < a.x, a.x < ring.box.maxX, ring.box.minY < a.y, a.y < ring.box.maxY else {
            return false
        }
        return PlaneRing.locate(a, in: ring.points) == 1
    }

    /// ``measuredPolygon(raw:plane:control:)`` of a polygon whose exterior
    /// circles the antipode (``encirclesAntipode(_:)``): the sphere but the
    /// antipode's side of the exterior and the holes. A hole that circles
    /// the antipode too bounds it instead (a band round the data, between
    /// two such rings): its image is the exterior, the exterior's a hole.
    /// Otherwise the polygon spans every longitude, from the south pole (or
    /// the curve of a hole round it) to the north pole (or a hole round
    /// it), the other rings its holes, clipped to −180°…180°
    /// (``HalfPlaneClipper``) where they reach past; the pieces past the
    /// first, if any, are in `more`. O(n log n).
    private func aroundAntipode(
        _ outer: MeasuredRing, holes: [[PlanePoint]], plane: [[PlanePoint]]?, control: ComputeControl
    ) -> (polygon: PlanePolygon, bounds: PlaneBox, more: [PlanePolygon]) {
        var measured: [MeasuredRing] = []
        for (k, h) in holes.enumerated() where !control.isCancelled {
            measured.append(measuredFollowingThePlane(raw: h, plane: plane?[k]))
        }
        func asHole(_ ring: MeasuredRing) -> [PlanePoint] { ring.area > 0 ? ring.points.reversed() : ring.points }
        if let k = measured.firstIndex(where: encirclesAntipode) {
            let bound = measured[k]
            let exterior = bound.area < 0 ? bound.points.reversed() : bound.points
            var inner: [[PlanePoint]] = []
            for (j, ring) in ([outer] + measured).enumerated() where j != k + 1 {
                var hole = asHole(ring)
                guard hole.count >= 3 else { continue }
                let turns = Self.turns(placing: hole, box: ring.box, in: exterior, box: bound.box)
                if turns != 0 { hole = hole.map { PlanePoint(x: $0.x + 360 * turns, y: $0.y) } }
                inner.append(hole)
            }
            return (PlanePolygon(exterior: exterior, holes: inner), bound.box, [])
        }
        // South to north over one turn, −180°…180°: the curves of holes
        // round a pole, else the poles' parallels.
        func curve(pole: Double, eastward: Bool) -> [PlanePoint] {
            guard let ring = measured.first(where: { $0.pole == pole }),
                var curve = Self.curve(of: ring, counterClockwise: false)
            else {
                return eastward
                    ? [PlanePoint(x: -180, y: pole), PlanePoint(x: 180, y: pole)]
                    : [PlanePoint(x: 180, y: pole), PlanePoint(x: -180, y: pole)]
            }
            if (curve[curve.count - 1].x > curve[0].x) != eastward { curve.reverse() }
            let start = eastward ? -180.0 : 180.0
            let turns = ((start - curve[0].x) / 360).rounded()
            return turns == 0 ? curve : curve.map { PlanePoint(x: $0.x + 360 * turns, y: $0.y) }
        }
        var inner: [[PlanePoint]] = []
        for ring in [outer] + measured where ring.pole == nil {
            var hole = asHole(ring)
            guard hole.count >= 3 else { continue }
            let turns = (-(ring.box.minX + ring.box.maxX) / 2 / 360).rounded()
            if turns != 0 { hole = hole.map { PlanePoint(x: $0.x + 360 * turns, y: $0.y) } }
            inner.append(hole)
        }
        let pieces = Self.between(
            south: curve(pole: -90, eastward: true), north: curve(pole: 90, eastward: false), holes: inner)
        guard let first = pieces.first else { return (PlanePolygon(exterior: []), .empty, []) }
        return (first, PlaneRing.bounds(first.exterior), Array(pieces.dropFirst()))
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
        var ring = thrice(a)
        if joined != nil {
            for p in thrice(b) where ring.last != p { ring.append(p) }
        } else {
            ring.append(PlanePoint(x: ring[ring.count - 1].x, y: pole))
            ring.append(PlanePoint(x: ring[0].x, y: pole))
        }
        return clippedToTurn(ring, holes: holes, west: west, east: east)
    }

    /// The polygon between `south`, a curve running east over one turn,
    /// and `north`, one running west over the same turn, less `holes`
    /// (each in or near that turn), clipped to the turn: the curves
    /// repeated over the turns before and after (``clippedToTurn(_:holes:west:east:)``).
    /// O(n log n).
    private static func between(south: [PlanePoint], north: [PlanePoint], holes: [[PlanePoint]])
        -> [PlanePolygon]
    {
        var ring = thrice(south)
        for p in thrice(north) where ring.last != p { ring.append(p) }
        return clippedToTurn(ring, holes: holes, west: south[0].x, east: south[south.count - 1].x)
    }

    /// The polygon `ring` (spanning the turns either side of west…east)
    /// less `holes` (each in or near that turn, copied one turn either
    /// way), clipped to the turn west…east (``HalfPlaneClipper``).
    /// O(n log n).
    private static func clippedToTurn(_ ring: [PlanePoint], holes: [[PlanePoint]], west: Double, east: Double)
        -> [PlanePolygon]
    {
        var ring = ring
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

    /// A curve of one turn, then the same one turn before and one after.
    private static func thrice(_ curve: [PlanePoint]) -> [PlanePoint] {
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
        let next = PlanePoint(x: out[out.count - 1].x + closing, y: rawFirst.y)
        guard let clean = Self.cappedOverPole(out, next: next, turn: 360 * turns, pole: pole) else {
            return MeasuredRing(points: out, area: area, box: box)
        }
        // The closing edge over the pole survives the clean-up unless the
        // curve itself reaches the pole.
        let closedOverPole = clean.count >= 4 && clean[clean.count - 1].y == pole && clean[clean.count - 2].y == pole
        return MeasuredRing(
            points: clean, area: PlaneRing.signedArea(clean), box: PlaneRing.bounds(clean),
            pole: closedOverPole ? pole : nil)
    }

    /// A ring round a pole (open, unwrapped; `next` is its first position
    /// one turn on, `turn` ±360°) begun where it crosses a seam (180° +
    /// k·360°, cut there like the splitter cuts) and closed over the `pole`
    /// along that seam, repeated positions dropped: the cap lies in one
    /// window of longitudes, which the cut at ±180° only shifts (closed
    /// along another meridian, it would be cut into two parts sharing that
    /// edge). nil when it crosses no seam. O(n).
    package static func cappedOverPole(_ ring: [PlanePoint], next: PlanePoint, turn: Double, pole: Double)
        -> [PlanePoint]?
    {
        let n = ring.count
        var closed = ring
        closed.append(next)
        func seam(_ x: Double) -> Double { ((x - 180) / 360).rounded(.down) }
        guard let i = (0..<n).first(where: { seam(closed[$0].x) != seam(closed[$0 + 1].x) }) else { return nil }
        let a = closed[i], b = closed[i + 1]
        let line = 180 + 360 * max(seam(a.x), seam(b.x))
        let start = HalfPlaneClipper.cut(a, b, line)
        // closed[n] is point 0 one turn on; after it come points 1...i, one turn on.
        var capped = [start] + closed[(i + 1)...n]
        capped += ring[1..<(i + 1)].map { PlanePoint(x: $0.x + turn, y: $0.y) }
        let end = PlanePoint(x: start.x + turn, y: start.y)
        capped.append(end)
        capped.append(PlanePoint(x: end.x, y: pole))
        capped.append(PlanePoint(x: start.x, y: pole))
        var clean: [PlanePoint] = []
        for p in capped where clean.last != p { clean.append(p) }
        if clean.count > 1, clean.first == clean.last { clean.removeLast() }
        return clean
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
                for i in start..<end { buffer[i].x = onTurnGrid(buffer[i].x) }
                start = end
            }
            count = start
        }
    }

    /// A longitude on the grid of 2⁻⁴² degrees (about 25 nm on the
    /// ground) that every unprojected position is put on. Below 2048° in
    /// magnitude, sums and differences of such numbers and whole turns of
    /// 360° are exact, so a ring moved into another turn and back — a hole
    /// placed in its exterior's turn, then cut at ±180° and shifted home —
    /// keeps the very bits of its copy that never moved (the ring two
    /// bands share): rounded alike, the two copies stay one boundary even
    /// at the 13th decimal. Off the grid, x + 360 drops the low bits of x.
    @inline(__always) static func onTurnGrid(_ longitude: Double) -> Double {
        (longitude * 0x1p42).rounded() * 0x1p-42
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
