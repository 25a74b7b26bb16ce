import Foundation
import HeatMapCore

/// Output segments cut into pieces that follow the image of their plane
/// segment, for rings that their straight [longitude, latitude] chords
/// would make invalid.
///
/// A ring's positions are unprojected one by one and joined by straight
/// chords in longitude and latitude, but the image of the plane's straight
/// segment between two of them is a curve: it strays from the chord by
/// about L² tan φ / 8R for a segment of length L at latitude φ (tens of
/// metres for the sides of 40 km cells at 65°). The lowest levels of a
/// density's far tail are where the plane keeps rings only metres apart
/// (a cell's linear interpolation packs every threshold far below its
/// nodes' values against one edge), so there two unprojected rings, or
/// two stretches of one, can cross, and no number of decimals repairs
/// that. A segment named here is cut at 2^depth − 1 evenly spaced points
/// of its plane segment, each unprojected; each further depth brings the
/// pieces' chords about four times closer to the image (eight take the
/// 66 m of a 40 km side at 65° to about a millimetre).
///
/// A segment is named by its two ends, in either order, and cut the same
/// way whichever way a ring runs along it, so the boundary two bands share
/// is cut alike in both. Segments with an end on ±180° or on a pole (the
/// edges a cut at the antimeridian or a ring's closure over a pole makes,
/// which are no plane segment's image) are never cut. Like the decimals in
/// ``VertexPrecision``, which holds the cuts, the cuts a copy makes are
/// kept apart from those it was given, so copies handed to several threads
/// merge back in a fixed order.
package struct ChordCuts {
    /// The plane whose segments the chords stand for; nil where a chord
    /// is the segment's image itself (planar output, and the
    /// equirectangular plane, linear in longitude and latitude), and
    /// nothing is cut.
    package let projection: PlaneProjection?
    /// Depths of the segments cut before this copy was taken, and since.
    private var given: [Segment: UInt8] = [:]
    private var own: [Segment: UInt8] = [:]

    /// The deepest cut: 1 024 pieces a segment.
    package static let maximumDepth = 10

    /// A segment's ends, lower (x, then y) first.
    private struct Segment: Hashable {
        let low: PlanePoint, high: PlanePoint

        init(_ a: PlanePoint, _ b: PlanePoint) {
            (low, high) = (a.x, a.y) <= (b.x, b.y) ? (a, b) : (b, a)
        }
    }

    /// Cuts for rings unprojected from `projection` (nil: planar output).
    package init(projection: PlaneProjection?) {
        let curved = projection.map { $0.kind == .equalArea || $0.kind == .webMercator } ?? false
        self.projection = curved ? projection : nil
    }

    /// Whether any segment is cut.
    package var isEmpty: Bool { given.isEmpty && own.isEmpty }

    /// Whether this copy cut any segment since it was taken.
    package var hasOwnCuts: Bool { !own.isEmpty }

    /// How many times segment a–b is halved (0: not cut).
    package func depth(_ a: PlanePoint, _ b: PlanePoint) -> Int {
        let s = Segment(a, b)
        return Int(own[s] ?? given[s] ?? 0)
    }

    /// Whether segment a–b can be cut (one depth more): not beyond the
    /// deepest, not for planar output, not an edge on ±180° or a pole.
    package func canCut(_ a: PlanePoint, _ b: PlanePoint) -> Bool {
        guard projection != nil, a != b, depth(a, b) < Self.maximumDepth else { return false }
        return !(abs(a.x) >= 180 || abs(b.x) >= 180 || abs(a.y) >= 90 || abs(b.y) >= 90)
    }

    /// Cuts segment a–b one depth more; its new points are returned (from a).
    package mutating func cut(_ a: PlanePoint, _ b: PlanePoint) -> [PlanePoint] {
        guard canCut(a, b) else { return [] }
        let d = depth(a, b) + 1
        own[Segment(a, b)] = UInt8(d)
        return points(from: a, to: b, depth: d)
    }

    /// The points segment a–b is cut at, from a toward b: those of its
    /// plane segment at fractions k / 2^depth (taken from its lower end,
    /// whichever way it runs), unprojected, each longitude within a half
    /// turn of the lower end's. O(2^depth).
    package func points(from a: PlanePoint, to b: PlanePoint, depth: Int) -> [PlanePoint] {
        guard let projection, depth > 0 else { return [] }
        let s = Segment(a, b)
        let low = projection.project(latitude: s.low.y, longitude: s.low.x)
        let high = projection.project(latitude: s.high.y, longitude: s.high.x)
        let n = 1 << depth
        var out: [PlanePoint] = []
        out.reserveCapacity(n - 1)
        for k in 1..<n {
            let t = Double(k) / Double(n)
            let c = projection.unproject(PlanePoint(x: low.x + (high.x - low.x) * t, y: low.y + (high.y - low.y) * t))
            out.append(PlanePoint(x: s.low.x + LonLatGeometry.step(c.longitude - s.low.x), y: c.latitude))
        }
        if s.low != a { out.reverse() }
        return out
    }

    /// The ring with its cut segments' points in place (the ring itself
    /// when none of its segments is cut). `mayBeCut(p)` false says no
    /// segment from or to p is cut, which spares looking most of them up.
    /// O(n + the points added).
    package func cutting(_ ring: [PlanePoint], mayBeCut: (PlanePoint) -> Bool) -> [PlanePoint] {
        guard !isEmpty, ring.count >= 2 else { return ring }
        var out: [PlanePoint]?
        for i in ring.indices {
            let a = ring[i], b = ring[i + 1 == ring.count ? 0 : i + 1]
            let d = mayBeCut(a) && mayBeCut(b) ? depth(a, b) : 0
            guard d > 0 else {
                out?.append(a)
                continue
            }
            if out == nil {
                out = Array(ring[..<i])
                out!.reserveCapacity(ring.count + (1 << d))
            }
            out!.append(a)
            out! += points(from: a, to: b, depth: d)
        }
        return out ?? ring
    }

    /// Takes in the cuts another copy made (the deeper wins) and returns
    /// the ends of the segments cut deeper here.
    package mutating func merge(_ other: ChordCuts) -> [PlanePoint] {
        var changed: [PlanePoint] = []
        let order = other.own.keys.sorted {
            ($0.low.x, $0.low.y, $0.high.x, $0.high.y) < ($1.low.x, $1.low.y, $1.high.x, $1.high.y)
        }
        for s in order {
            let d = other.own[s]!
            guard d > (own[s] ?? given[s] ?? 0) else { continue }
            given[s] = d
            changed += [s.low, s.high]
        }
        return changed
    }

    /// This copy with its own cuts taken as given.
    package var shared: ChordCuts {
        var copy = self
        for (s, d) in own { copy.given[s] = d }
        copy.own = [:]
        return copy
    }
}
