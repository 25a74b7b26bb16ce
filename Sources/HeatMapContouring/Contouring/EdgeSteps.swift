import HeatMapCore
import HeatMapDensity

/// A grid edge as a place: horizontal from node (column, row) to
/// (column + 1, row), or vertical from (column, row) to (column, row + 1).
package struct EdgeSpot: Hashable, Sendable {
    package var vertical: Bool
    package var column: Int
    package var row: Int
}

/// The edges of traced vertices, half a byte each: consecutive vertices of
/// a piece lie on two sides of one cell, so each edge is one of the six
/// other sides of the two cells beside the edge before it (a step code
/// 0–5). A piece's first vertex is a restart (code 15) whose edge is kept
/// on the side, and every 8th vertex's edge is kept too (unpacked with
/// shifts, not divided out of an id), so any vertex's edge is at most 7
/// steps away.
///
/// Step codes from a horizontal edge (c, r): 0–2 in the cell above
/// (c, r): its top, left and right sides; 3–5 in the cell below (c, r − 1):
/// its bottom, left and right. From a vertical edge (c, r): 0–2 in the cell
/// to the right (c, r): its bottom, top and right; 3–5 in the cell to the
/// left (c − 1, r): its bottom, top and left.
struct EdgeSteps: Sendable {
    package let columns: Int
    package let rows: Int
    /// Two codes a byte, vertex v in the low half of byte v / 2 when v is even.
    private var codes: [UInt8] = []
    /// The edge of vertex 8 k, packed (``packed(_:)``).
    private var marks: [UInt64] = []
    /// Restarts: the vertex, ascending, and its edge id.
    private var restartVertices: [Int32] = []
    private var restartEdges: [Int32] = []
    package private(set) var count = 0
    /// How many vertices are restarts: one a piece, unless a vertex was
    /// appended that does not touch the last one's cell.
    var restartCount: Int { restartVertices.count }
    private var last = EdgeSpot(vertical: false, column: 0, row: 0)
    private var restartNext = true

    private static let restart: UInt8 = 15
    private static let markShift = 3

    package init(columns: Int, rows: Int) {
        self.columns = columns
        self.rows = rows
    }

    package mutating func reserveCapacity(_ n: Int) {
        codes.reserveCapacity((n + 1) / 2)
        marks.reserveCapacity(n >> Self.markShift + 1)
    }

    /// The next vertex starts a piece.
    mutating func beginPiece() { restartNext = true }

    /// Appends the edge of the next vertex: a side of the cell shared with
    /// the previous vertex's edge, unless it starts a piece.
    @inline(__always) package mutating func append(_ spot: EdgeSpot) {
        var code = Self.restart
        if !restartNext {
            let k = Self.code(from: last, to: spot)
            if Self.step(last, k) == spot { code = k }
        }
        if code == Self.restart {
            restartVertices.append(Int32(truncatingIfNeeded: count))
            restartEdges.append(id(spot))
        }
        if count & 1 == 0 { codes.append(code) } else { codes[count >> 1] |= code << 4 }
        if count & (1 << Self.markShift - 1) == 0 { marks.append(Self.packed(spot)) }
        count += 1
        last = spot
        restartNext = false
    }

    /// The edge of vertex `v` (at most 7 steps from a kept one).
    @inline(__always) func spot(_ v: Int) -> EdgeSpot {
        if code(v) == Self.restart { return spot(id: Int(restartEdge(v))) }
        let first = (v >> Self.markShift) << Self.markShift
        var s = Self.unpacked(marks[v >> Self.markShift])
        var u = first + 1
        while u <= v {
            s = next(s, at: u)
            u += 1
        }
        return s
    }

    /// Calls `body(v, edge)` for each vertex of `range`, in order.
    @inline(__always) package func forEach(_ range: Range<Int>, _ body: (Int, EdgeSpot) -> Void) {
        guard !range.isEmpty else { return }
        var s = spot(range.lowerBound)
        body(range.lowerBound, s)
        codes.withUnsafeBufferPointer { packed in
            for u in (range.lowerBound + 1)..<range.upperBound {
                let code = (packed[u >> 1] >> UInt8((u & 1) << 2)) & 0x0f
                s = code == Self.restart ? spot(id: Int(restartEdge(u))) : Self.step(s, code)
                body(u, s)
            }
        }
    }

    /// Removes the vertices from `start` on; the next vertex starts a piece.
    package mutating func removeLast(from start: Int) {
        codes.removeSubrange(((start + 1) >> 1)...)
        if start & 1 == 1 { codes[start >> 1] &= 0x0f }
        marks.removeSubrange(((start + (1 << Self.markShift) - 1) >> Self.markShift)...)
        while let v = restartVertices.last, Int(v) >= start {
            restartVertices.removeLast()
            restartEdges.removeLast()
        }
        count = start
        restartNext = true
    }

    /// The edge id of `spot`: see ``EdgeVertices``.
    @inline(__always) package func id(_ spot: EdgeSpot) -> Int32 {
        Int32(
            truncatingIfNeeded: spot.vertical
                ? rows * (columns - 1) + spot.row * columns + spot.column
                : spot.row * (columns - 1) + spot.column)
    }

    /// `spot` in one word: vertical in bit 0, the column in bits 1–31, the
    /// row above (a grid contoured has fewer than 2^31 nodes a side).
    @inline(__always) private static func packed(_ spot: EdgeSpot) -> UInt64 {
        (spot.vertical ? 1 : 0) | UInt64(truncatingIfNeeded: spot.column) << 1
            | UInt64(truncatingIfNeeded: spot.row) << 32
    }

    @inline(__always) private static func unpacked(_ word: UInt64) -> EdgeSpot {
        EdgeSpot(
            vertical: word & 1 == 1, column: Int(truncatingIfNeeded: (word >> 1) & 0x7fff_ffff),
            row: Int(truncatingIfNeeded: word >> 32))
    }

    /// The edge of id `e`.
    @inline(__always) func spot(id e: Int) -> EdgeSpot {
        let h = rows * (columns - 1)
        if e < h { return EdgeSpot(vertical: false, column: e % (columns - 1), row: e / (columns - 1)) }
        return EdgeSpot(vertical: true, column: (e - h) % columns, row: (e - h) / columns)
    }

    /// The edge of vertex `u`, given the edge `s` of vertex u − 1.
    @inline(__always) package func next(_ s: EdgeSpot, at u: Int) -> EdgeSpot {
        let code = code(u)
        return code == Self.restart ? spot(id: Int(restartEdge(u))) : Self.step(s, code)
    }

    /// The code of the step from `a` to `b` if they are sides of one cell
    /// (anything else gives a code that does not step to `b`).
    @inline(__always) private static func code(from a: EdgeSpot, to b: EdgeSpot) -> UInt8 {
        if a.vertical {
            if b.vertical { return b.column > a.column ? 2 : 5 }
            return (b.column == a.column ? 0 : 3) + (b.row > a.row ? 1 : 0)
        }
        if b.vertical { return (b.row == a.row ? 1 : 4) + (b.column > a.column ? 1 : 0) }
        return b.row > a.row ? 0 : 3
    }

    /// The step code of vertex `u`.
    @inline(__always) private func code(_ u: Int) -> UInt8 {
        (codes[u >> 1] >> UInt8((u & 1) << 2)) & 0x0f
    }

    /// The steps of the type's notes, 5 bits each, horizontal codes 0–5 then
    /// vertical ones: bit 0 whether the new edge is vertical, bits 1–2 its
    /// column change + 1, bits 3–4 its row change + 1. As (vertical, Δc, Δr):
    /// from horizontal (F, 0, 1) (T, 0, 0) (T, 1, 0) (F, 0, −1) (T, 0, −1) (T, 1, −1),
    /// from vertical (F, 0, 0) (F, 0, 1) (T, 1, 0) (F, −1, 0) (F, −1, 1) (T, −1, 0).
    private static let steps: UInt64 = 0x04c1_0d92_8a31_3572

    /// The edge `code` steps to from `s` (see the type's notes).
    @inline(__always) package static func step(_ s: EdgeSpot, _ code: UInt8) -> EdgeSpot {
        let entry = Int(truncatingIfNeeded: steps >> UInt64(5 * ((s.vertical ? 6 : 0) + Int(code))))
        return EdgeSpot(
            vertical: entry & 1 != 0, column: s.column + (entry >> 1 & 3) - 1, row: s.row + (entry >> 3 & 3) - 1)
    }

    /// The edge id of restart vertex `u`: a binary search, as restarts are one a piece.
    private func restartEdge(_ u: Int) -> Int32 {
        restartEdges[restartVertices.firstPosition(notBelow: u)]
    }
}
