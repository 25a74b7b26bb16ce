import Foundation
import HeatMapCore
import HeatMapDensity

/// The pieces of ``MonotonePieces`` as the items of ``BoxPairs``, the
/// pieces of a small ring together: a ring of at most ``groupLimit``
/// pieces is one item with the box of its pieces, and a larger ring's
/// pieces are items of their own (as ``MonotonePieces`` makes them).
///
/// A closed ring has at least four monotone runs, so a field of many small
/// rings (hundreds of thousands of rings a few cells across, where the
/// kernel is about a cell wide) gives the grid four or more entries a
/// ring, and the pieces of one small ring nearly all overlap: the grid
/// then spends most of its work on pairs a ring makes with itself. As one
/// item, the ring costs the grid one entry; two rings whose boxes overlap
/// compare their few pieces' boxes directly, and a ring's own pieces are
/// paired here once (``forEachInnerPair(_:)``).
///
/// The pairs of pieces handed out are those ``BoxPairs`` would hand out
/// for the pieces themselves: every pair of pieces of different rings
/// whose boxes overlap, and every pair of one ring's pieces that lie in
/// different runs and are not next to each other (those are
/// ``MonotonePieces/forEachNeighbourPair(_:)``'s) whose boxes overlap.
struct PieceGroups: BoxedItems {
    /// A ring of at most this many pieces is one item. Its own pieces are
    /// then paired by testing every two boxes, which up to 64 pieces still
    /// costs less than the grid's entries and cells for them
    /// (docs/performance.md).
    static let groupLimit = 64

    /// Pieces `first ..< first + count` of one ring; a group when count > 1.
    /// 12 bytes: a large ring's pieces are items one by one, and their
    /// boxes are read from the pieces.
    private struct Item {
        var first: Int32
        /// The group's box in ``groupBoxes``, or −1 for a piece of its own.
        var group: Int32
        var count: UInt8
        /// For a piece of its own: whether it continues the run of the
        /// piece before it, and whether that piece is of its ring.
        var joins: Bool
        var follows: Bool

        var pieces: Range<Int> { Int(first)..<(Int(first) + Int(count)) }
    }

    private let pieces: MonotonePieces
    private var items: [Item] = []
    private var groupBoxes: [FixedBox] = []

    /// Reads every piece's ring and box once. O(pieces).
    init(_ pieces: MonotonePieces) {
        self.pieces = pieces
        let n = pieces.count
        items.reserveCapacity(n / 4 + 1)
        var k = 0
        while k < n {
            let ring = pieces.ring(k)
            var end = k + 1
            while end < n, end - k <= Self.groupLimit, pieces.ring(end) == ring { end += 1 }
            if end - k > 1, end - k <= Self.groupLimit, end == n || pieces.ring(end) != ring {
                var box = pieces.box(k)
                for p in k + 1..<end {
                    let b = pieces.box(p)
                    box = FixedBox(
                        minX: min(box.minX, b.minX), maxX: max(box.maxX, b.maxX), minY: min(box.minY, b.minY),
                        maxY: max(box.maxY, b.maxY))
                }
                items.append(
                    Item(
                        first: Int32(k), group: Int32(groupBoxes.count), count: UInt8(end - k), joins: false,
                        follows: false))
                groupBoxes.append(box)
                k = end
                continue
            }
            // A large ring (or a ring of one piece): its pieces one by one.
            while k < n, pieces.ring(k) == ring {
                let inRing = k > 0 && pieces.ring(k - 1) == ring
                items.append(
                    Item(
                        first: Int32(k), group: -1, count: 1, joins: inRing && pieces.joinsPrevious(k),
                        follows: inRing && pieces.followsPrevious(k)))
                k += 1
            }
        }
    }

    var count: Int { items.count }

    @inline(__always) func box(_ i: Int) -> FixedBox {
        let item = items[i]
        return item.group < 0 ? pieces.box(Int(item.first)) : groupBoxes[Int(item.group)]
    }

    // A group is a whole ring and the item before it another ring's: it
    // neither joins nor follows it.
    @inline(__always) func joinsPrevious(_ i: Int) -> Bool { items[i].joins }

    @inline(__always) func followsPrevious(_ i: Int) -> Bool { items[i].follows }

    /// Calls `body(u, v)`, u < v, for the pieces of items i < j whose boxes
    /// overlap (for two pieces of their own, the pair itself). O(pieces of
    /// both items, and their pairs).
    @inline(__always) func forEachPiecePair(_ i: Int, _ j: Int, _ body: (Int, Int) -> Void) {
        let a = items[i], b = items[j]
        if a.count == 1, b.count == 1 {
            body(Int(a.first), Int(b.first))
            return
        }
        let boxB = box(j)
        for u in a.pieces {
            let boxU = pieces.box(u)
            guard boxU.overlaps(boxB) else { continue }
            for v in b.pieces where boxU.overlaps(pieces.box(v)) { body(u, v) }
        }
    }

    /// Calls `body(u, v)`, u < v, for every two pieces of one group that
    /// lie in different runs and are not next to each other, whose boxes
    /// overlap: the pairs the grid would have found between a small ring's
    /// own pieces. O(groups × groupLimit²).
    func forEachInnerPair(_ body: (Int, Int) -> Void) {
        var runStart = [Int](repeating: 0, count: Self.groupLimit)
        for item in items where item.count > 2 {
            let first = Int(item.first)
            for v in item.pieces {
                runStart[v - first] = v > first && pieces.joinsPrevious(v) ? runStart[v - first - 1] : v
            }
            for v in first + 2..<first + Int(item.count) {
                let boxV = pieces.box(v)
                for u in first..<v - 1
                where runStart[u - first] != runStart[v - first] && pieces.box(u).overlaps(boxV) {
                    body(u, v)
                }
            }
        }
    }
}
