import HeatMapCore
import HeatMapDensity

/// A chain used by a frame-closed ring: a chain of the lower level, forward,
/// or a chain of the upper level, reversed (so the band lies on its left).
struct FramePart: Sendable, Hashable {
    /// Whether the chain belongs to the upper level (and is walked backwards).
    package var upper: Bool
    /// The chain's piece index in its level.
    package var piece: Int32
}

/// Closes chains into rings along the frame (docs/contour-rules.md: nodes outside the grid
/// count as below every threshold).
///
/// For a band t_lo ≤ v < t_hi, walking the frame counter-clockwise, the
/// value enters the band at a lower-level chain's end or an upper-level
/// chain's start and leaves it at a lower-level chain's start or an upper
/// chain's end; so after a part ends, the next crossing along the frame is
/// where the next part of the same ring begins, and the frame between them
/// (boundary nodes all in the band) is the run that joins them. A level is
/// the band with no upper bound. Cost: O(c log c) for c frame crossings,
/// plus O(frame nodes) to mark run owners.
struct FrameWalk {
    package let frame: GridFrame
    package let geometry: GridGeometry
    /// The nodes' bands, to order two levels met at one point (a walk of
    /// one level never compares nodes, and may be given none).
    package let bands: NodeBands

    private struct Event {
        package var key: FrameKey
        var isStart: Bool
        package var part: FramePart
    }

    /// The start and end of a part on the frame.
    @inline(__always) package static func keys(of part: FramePart, lower: LevelTrace, upper: LevelTrace?)
        -> (start: FrameKey, end: FrameKey)
    {
        let p = Int(part.piece)
        if part.upper, let upper { return (upper.endKey[p], upper.startKey[p]) }
        return (lower.startKey[p], lower.endKey[p])
    }

    /// The frame-closed rings of the band between `lower` and `upper` (the
    /// level of `lower` when `upper` is nil), each a cycle of parts.
    /// Removed (degenerate) chains are ignored.
    package func rings(lower: LevelTrace, upper: LevelTrace?) -> [[FramePart]] {
        var events: [Event] = []
        for p in 0..<lower.pieceCount where lower.isChain[p] && !lower.isRemoved[p] {
            let part = FramePart(upper: false, piece: Int32(p))
            events.append(Event(key: lower.startKey[p], isStart: true, part: part))
            events.append(Event(key: lower.endKey[p], isStart: false, part: part))
        }
        if let upper {
            for p in 0..<upper.pieceCount where upper.isChain[p] && !upper.isRemoved[p] {
                let part = FramePart(upper: true, piece: Int32(p))
                events.append(Event(key: upper.endKey[p], isStart: true, part: part))
                events.append(Event(key: upper.startKey[p], isStart: false, part: part))
            }
        }
        guard !events.isEmpty else { return [] }
        events.sort { a, b in
            if a.key.edge != b.key.edge { return a.key.edge < b.key.edge }
            if a.key.along != b.key.along { return a.key.along < b.key.along }
            // Two levels at one point (only by rounding): the upper level's
            // crossing lies nearer the edge's higher node.
            if a.part.upper == b.part.upper { return false }
            let (n0, n1) = (frame.node(Int(a.key.edge)), frame.node((Int(a.key.edge) + 1) % frame.count))
            let startHigher = bands[n0.row * frame.columns + n0.column] > bands[n1.row * frame.columns + n1.column]
            return startHigher ? a.part.upper : b.part.upper
        }
        // Where each part ends, to jump from a part's start to its end.
        var lowerEnd = [Int](repeating: -1, count: lower.pieceCount)
        var upperEnd = [Int](repeating: -1, count: upper?.pieceCount ?? 0)
        for (i, e) in events.enumerated() where !e.isStart {
            if e.part.upper { upperEnd[Int(e.part.piece)] = i } else { lowerEnd[Int(e.part.piece)] = i }
        }
        var used = [Bool](repeating: false, count: events.count)
        var rings: [[FramePart]] = []
        let m = events.count
        for a0 in 0..<m where events[a0].isStart && !used[a0] {
            var ring: [FramePart] = []
            var a = a0
            while true {
                used[a] = true
                ring.append(events[a].part)
                let part = events[a].part
                let b = part.upper ? upperEnd[Int(part.piece)] : lowerEnd[Int(part.piece)]
                if b < 0 { break }
                let next = (b + 1) % m
                // The next crossing must start a part; anything else would be
                // a broken alternation, so the ring is closed where it stands.
                if next == a0 || !events[next].isStart || used[next] { break }
                a = next
            }
            rings.append(ring)
        }
        return rings
    }

    /// The perimeter nodes passed walking counter-clockwise from `a` to `b`:
    /// the first node index and how many (the whole frame when `b` lies
    /// just before `a` on the same edge).
    func nodesPassed(from a: FrameKey, to b: FrameKey) -> (first: Int, count: Int) {
        let n = frame.count
        var steps = ((Int(b.edge) - Int(a.edge)) % n + n) % n
        if steps == 0 && b.along < a.along { steps = n }
        return ((Int(a.edge) + 1) % n, steps)
    }

    /// The box corners passed walking counter-clockwise from `a` to `b`, in order.
    func cornersPassed(from a: FrameKey, to b: FrameKey) -> [Int] {
        let (first, count) = nodesPassed(from: a, to: b)
        guard count > 0 else { return [] }
        let n = frame.count
        let (c0, c1, c2, c3) = frame.corners
        return [c0, c1, c2, c3]
            .map { (j: $0, d: (($0 - first) % n + n) % n) }
            .filter { $0.d < count }
            .sorted { $0.d < $1.d }
            .map(\.j)
    }

    /// The position of perimeter node `j`.
    package func position(ofPerimeterNode j: Int) -> PlanePoint {
        let (c, r) = frame.node(j)
        return geometry.node(column: c, row: r)
    }
}
