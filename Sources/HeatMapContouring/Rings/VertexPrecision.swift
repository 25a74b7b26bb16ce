import Foundation
import HeatMapCore
import HeatMapDensity

/// The decimals each output position is rounded to, shared by every feature
/// of one export.
///
/// Every position starts at the requested decimals; when rounding makes a
/// ring invalid, the positions of that ring get one more decimal. Keeping
/// the choice per position (not per ring or feature) means that a boundary
/// shared by two neighbouring bands, or two neighbouring bins, is rounded
/// the same way in both, so repairs never open gaps or overlaps between them.
///
/// All fixed positions are stored on the finest grid, 10^limit, so rings
/// with positions of different decimals compare exactly; the writer drops
/// the trailing zeros.
///
/// A ring that is invalid with every decimal there is may be so because
/// its [longitude, latitude] chords stray from their plane segments: the
/// segments cut to follow those more closely (``ChordCuts``) are kept here
/// too, and shared and merged alike.
package struct VertexPrecision {
    /// The requested decimals (clamped to the limit).
    package let base: Int
    /// The most decimals the coordinates' size allows (see ``FixedRing/decimalsLimit(forMagnitude:)``).
    package let limit: Int
    /// Positions that carry more than `base` decimals.
    private var raised = PositionTable()
    /// Positions this copy raised since it was taken (kept apart, so that
    /// copies handed to several threads can be merged back in a fixed order).
    private var own = PositionTable()
    private let spread: Int64
    /// 10^base, for the positions at base decimals (nearly all), read here
    /// rather than from the table of powers.
    private let baseScale: Double
    /// One bit per hash of the raised positions (of `raised` and `local`):
    /// a clear bit answers "base decimals" without a dictionary lookup,
    /// which matters once a few positions anywhere are raised. It grows
    /// with the raised positions (at most one bit in ``filterLoad`` set), so
    /// that a field with many repairs still answers most positions here:
    /// a full filter would send every position to two dictionaries.
    private var maybeRaised = [UInt64](repeating: 0, count: VertexPrecision.filterWords)
    /// Bits of `maybeRaised` less one (its size is a power of two).
    private var filterMask = VertexPrecision.filterWords * 64 - 1
    /// Positions marked since the filter was last made.
    private var marked = 0
    private static let filterWords = 1 << 10
    /// The filter grows fourfold once more than one bit in this many is marked.
    private static let filterLoad = 16
    /// The most words the filter grows to (8 MB).
    private static let maximumFilterWords = 1 << 20

    @inline(__always) private func bit(_ p: PlanePoint) -> (word: Int, mask: UInt64) {
        let h = Int(VertexPrecision.positionHash(p)) & filterMask
        return (h >> 6, 1 << UInt64(h & 63))
    }

    private mutating func mark(_ p: PlanePoint) {
        marked += 1
        if marked * VertexPrecision.filterLoad > maybeRaised.count * 64,
            maybeRaised.count < VertexPrecision.maximumFilterWords
        {
            // Made again, larger, from every position it stands for (`p`
            // is among them: it is in `raised` or `local` already).
            let words = maybeRaised.count * 4
            maybeRaised = [UInt64](repeating: 0, count: words)
            filterMask = words * 64 - 1
            marked = raised.count + own.count
            raised.forEach { q, _ in setBit(q) }
            own.forEach { q, _ in setBit(q) }
            return
        }
        setBit(p)
    }

    @inline(__always) private mutating func setBit(_ p: PlanePoint) {
        let (w, m) = bit(p)
        maybeRaised[w] |= m
    }

    /// The segments cut closer to their plane images.
    package private(set) var chords: ChordCuts

    /// Positions at `decimals` (clamped to `limit`); `chordsOf`, the plane
    /// the output is unprojected from, lets rings have their chords cut
    /// where its segments curve in longitude and latitude (``ChordCuts``).
    package init(decimals: Int, limit: Int, chordsOf projection: PlaneProjection? = nil) {
        chords = ChordCuts(projection: projection)
        self.limit = limit
        self.base = min(max(decimals, min(0, limit)), limit)
        self.spread = FixedRing.integerPowers[min(limit - base, FixedRing.maximumDecimals)]
        self.baseScale = FixedRing.scale(base)
    }

    /// Positions this copy raised since it was taken, with their decimals.
    package var local: [PlanePoint: Int] { own.dictionary }

    /// Whether this copy raised any position (or cut any chord) since it
    /// was taken.
    package var hasLocalRaises: Bool { !own.isEmpty || chords.hasOwnCuts }

    /// The decimals of a position.
    @inline(__always) package func decimals(of p: PlanePoint) -> Int {
        if raised.isEmpty, own.isEmpty { return base }
        let (w, m) = bit(p)
        if maybeRaised[w] & m == 0 { return base }
        return own[p] ?? raised[p] ?? base
    }

    /// Whether every position takes the base decimals (none raised) and
    /// those are not negative: ``fixedAtBase(_:)`` then rounds any of them.
    package var isUniform: Bool { raised.isEmpty && own.isEmpty && base >= 0 }

    /// The position rounded to the base decimals, on the 10^limit grid
    /// (base ≥ 0); nil for a non-finite or oversized coordinate.
    @inline(__always) package func fixedAtBase(_ p: PlanePoint) -> FixedPoint? {
        guard let sx = FixedRing.roundedInteger(p.x * baseScale),
            let sy = FixedRing.roundedInteger(p.y * baseScale)
        else { return nil }
        return FixedPoint(x: sx * spread, y: sy * spread)
    }

    /// The position rounded to its decimals, on the 10^limit grid; nil for
    /// a non-finite or oversized coordinate.
    @inline(__always) package func fixed(_ p: PlanePoint) -> FixedPoint? {
        let d = decimals(of: p)
        if d == base, base >= 0 { return fixedAtBase(p) }
        guard let sx = FixedRing.roundedInteger(FixedRing.scaled(p.x, d)),
            let sy = FixedRing.roundedInteger(FixedRing.scaled(p.y, d))
        else { return nil }
        let f = d == base ? spread : FixedRing.integerPowers[limit - d]
        return FixedPoint(x: sx * f, y: sy * f)
    }

    /// Gives every position of `ring` one more decimal (up to the limit).
    /// Returns whether any changed.
    package mutating func raise(_ ring: [PlanePoint]) -> Bool {
        var any = false
        for p in ring {
            let d = decimals(of: p)
            guard d < limit else { continue }
            own.set(p, d + 1)
            mark(p)
            any = true
        }
        return any
    }

    /// Gives each of `points` every decimal there is: the points a chord
    /// is cut at, which join a ring that carries them all.
    package mutating func raiseFully(_ points: [PlanePoint]) {
        for p in points where decimals(of: p) < limit {
            own.set(p, limit)
            mark(p)
        }
    }

    /// Cuts segment a–b's chord one depth closer to its plane image
    /// (``ChordCuts/cut(_:_:)``), its new points at every decimal; whether
    /// it could be cut.
    package mutating func cutChord(_ a: PlanePoint, _ b: PlanePoint) -> Bool {
        guard chords.canCut(a, b) else { return false }
        raiseFully(chords.cut(a, b))
        return true
    }

    /// The polygon with the points of its cut chords in place (itself when
    /// none is cut). A cut segment's ends carry every decimal (it is cut
    /// only once its ring can be raised no further), so a position at
    /// fewer is answered from the filter. O(n + the points added).
    package func cutChords(_ polygon: PlanePolygon) -> PlanePolygon {
        guard !chords.isEmpty else { return polygon }
        let mayBeCut = { (p: PlanePoint) in self.base == self.limit || self.decimals(of: p) == self.limit }
        return PlanePolygon(
            exterior: chords.cutting(polygon.exterior, mayBeCut: mayBeCut),
            holes: polygon.holes.map { chords.cutting($0, mayBeCut: mayBeCut) })
    }

    /// Takes in the positions another copy raised (the higher decimals win)
    /// and the chords it cut (the deeper wins), and returns the positions
    /// whose decimals changed here and the ends of the chords cut deeper.
    package mutating func merge(_ other: VertexPrecision) -> [PlanePoint] {
        var changed: [PlanePoint] = []
        other.own.forEach { p, d in
            guard d > (own[p] ?? raised[p] ?? base) else { return }
            raised.set(p, d)
            mark(p)
            changed.append(p)
        }
        return changed + chords.merge(other.chords)
    }

    /// This copy without its own raises and cuts (a starting point for
    /// threads).
    package var shared: VertexPrecision {
        var copy = self
        own.forEach { p, d in copy.raised.set(p, d) }
        copy.own = PositionTable()
        copy.chords = chords.shared
        return copy
    }

    /// A 32-bit mix of a position's bits (−0 and 0, equal positions, alike).
    @inline(__always) package static func positionHash(_ p: PlanePoint) -> UInt32 {
        let x = (p.x + 0).bitPattern, y = (p.y + 0).bitPattern
        var h = x &* 0x9E37_79B9_7F4A_7C15 ^ (y &+ 0x632B_E59B_D9B4_E019)
        h ^= h >> 29
        h = h &* 0xBF58_476D_1CE4_E5B9
        return UInt32(truncatingIfNeeded: h ^ (h >> 32))
    }
}
