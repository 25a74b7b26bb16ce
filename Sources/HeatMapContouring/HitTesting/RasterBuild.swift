import Foundation
import HeatMapCore
import HeatMapDensity

/// The passes that build a ``RasterIndex``, each over raw buffers (no
/// array bookkeeping in the loops, which run once or twice per vertex).
/// Lists are CSR: bucket k holds `items[start[k] ..< start[k + 1]]`.
/// Each pass counts its edges (and cells) on a `PollCounter` that polls
/// every ``pollInterval`` of them, so a cancel is honoured within
/// milliseconds however large the index.
enum RasterBuild {
    /// Edges (or vertices, or cells) handled between cancellation polls.
    static let pollInterval = 1 << 14

    /// The edges of all rings: edge i runs from vertex i to vertex
    /// links[i].next and belongs to links[i].polygon.
    struct Edges {
        package let vertices: UnsafeBufferPointer<PlanePoint>
        let links: UnsafeBufferPointer<EdgeLink>
        package var count: Int { vertices.count }
        @inline(__always) func ends(_ i: Int) -> (PlanePoint, PlanePoint) {
            (vertices[i], vertices[Int(links[i].next)])
        }
    }

    /// The edges meeting each cell: every cell of the edge's box (edges
    /// are short). A count pass, then a fill pass. O(V + cells).
    static func edgesByCell(
        _ edges: Edges, _ frame: CellFrame,
        poll: inout PollCounter
    ) throws -> (start: [Int32], edges: [Int32]) {
        let columns = frame.columns, cells = frame.columns * frame.rows
        // Calls body(edge, cell) for each cell of each edge's box, in edge order.
        func eachCell(_ body: (Int, Int) -> Void) throws {
            for i in 0..<edges.count {
                try poll.advance()
                let (a, b) = edges.ends(i)
                let (c0, c1) = frame.columns(a.x, b.x), (r0, r1) = frame.rows(a.y, b.y)
                for r in r0...r1 { for c in c0...c1 { body(i, r &* columns &+ c) } }
            }
        }
        var start = [Int32](repeating: 0, count: cells + 1)
        var list: [Int32] = []
        try start.withUnsafeMutableBufferPointer { start in
            try eachCell { _, k in start[k &+ 1] &+= 1 }
            for k in 0..<cells { start[k + 1] &+= start[k] }
            try poll.advance(by: cells)
            // Every slot is written by the fill pass: no zeroing first.
            list = [Int32](unsafeUninitializedCapacity: Int(start[cells])) { _, n in n = Int(start[cells]) }
            var fill = Array(start)
            try fill.withUnsafeMutableBufferPointer { fill in
                try list.withUnsafeMutableBufferPointer { list in
                    try eachCell { i, k in
                        list[Int(fill[k])] = Int32(i)
                        fill[k] &+= 1
                    }
                }
            }
        }
        return (start, list)
    }

    /// Where edges cross the horizontal lines through the cell centres,
    /// by row: the first column whose centre lies right of the crossing,
    /// and the edge's polygon. Row r's crossings are
    /// `start[r] ..< end[r]` (a count of candidate rows, then the exact
    /// test, so a row's slice may end early). O(V + rows).
    struct Crossings {
        package var start: [Int32]
        package var end: [Int32]
        package var column: [Int32]
        package var polygon: [Int32]
    }

    static func centreCrossings(_ edges: Edges, _ frame: CellFrame, poll: inout PollCounter) throws -> Crossings {
        let rows = frame.rows
        var start = [Int32](repeating: 0, count: rows + 1)
        try start.withUnsafeMutableBufferPointer { start in
            for i in 0..<edges.count {
                try poll.advance()
                let (a, b) = edges.ends(i)
                guard let (r0, r1) = frame.centreRows(a.y, b.y) else { continue }
                // A shared edge crosses for both its owners.
                let owners: Int32 = edges.links[i].twin >= 0 ? 2 : 1
                for r in r0...r1 { start[r + 1] &+= owners }
            }
            for r in 0..<rows { start[r + 1] &+= start[r] }
        }
        var end = start
        var column = [Int32](repeating: 0, count: Int(start[rows]))
        var polygon = column
        try end.withUnsafeMutableBufferPointer { end in
            try column.withUnsafeMutableBufferPointer { column in
                try polygon.withUnsafeMutableBufferPointer { polygon in
                    for i in 0..<edges.count {
                        try poll.advance()
                        let (a, b) = edges.ends(i)
                        let ax = a.x, ay = a.y, bx = b.x, by = b.y
                        guard let (r0, r1) = frame.centreRows(ay, by) else { continue }
                        for r in r0...r1 {
                            let yc = frame.centreY(r)
                            // The exact rule of the query: the edge crosses y = yc when its ends lie on opposite sides.
                            guard (ay > yc) != (by > yc) else { continue }
                            let x = ax + (yc - ay) * (bx - ax) / (by - ay)
                            let first = Int32(frame.firstColumn(rightOf: x))
                            let link = edges.links[i]
                            column[Int(end[r])] = first
                            polygon[Int(end[r])] = link.polygon
                            end[r] &+= 1
                            if link.twin >= 0 {
                                column[Int(end[r])] = first
                                polygon[Int(end[r])] = link.twin
                                end[r] &+= 1
                            }
                        }
                    }
                }
            }
        }
        return Crossings(start: start, end: end, column: column, polygon: polygon)
    }

    /// The polygons holding each cell centre: each row's crossings grouped
    /// by column with a counting sort (the toggles of one column commute,
    /// so no finer order is needed), then swept left to right, the set of
    /// polygons crossed an odd number of times written out at every
    /// centre. O(cells + crossings + output).
    static func insideSets(
        _ crossings: Crossings, _ frame: CellFrame,
        poll: inout PollCounter
    ) throws -> (start: [Int32], inside: [Int32]) {
        let columns = frame.columns, rows = frame.rows
        var start = [Int32](repeating: 0, count: columns * rows + 1)
        var inside: [Int32] = []
        inside.reserveCapacity(columns * rows)
        var odd: [Int32] = []
        var perColumn = [Int32](repeating: 0, count: columns + 2)
        var grouped = [Int32](repeating: 0, count: crossings.column.count)
        try start.withUnsafeMutableBufferPointer { start in
            try perColumn.withUnsafeMutableBufferPointer { perColumn in
                try grouped.withUnsafeMutableBufferPointer { grouped in
                    for r in 0..<rows {
                        let lo = Int(crossings.start[r]), hi = Int(crossings.end[r])
                        // A row holds about √cells cells and its crossings.
                        try poll.advance(by: columns + hi - lo)
                        for k in lo..<hi { perColumn[Int(crossings.column[k]) + 1] &+= 1 }
                        for c in 0...columns { perColumn[c + 1] &+= perColumn[c] }
                        for k in lo..<hi {
                            let c = Int(crossings.column[k])
                            grouped[Int(perColumn[c])] = crossings.polygon[k]
                            perColumn[c] &+= 1
                        }
                        // perColumn[c] now ends column c's group; it starts where c − 1's ended.
                        odd.removeAll(keepingCapacity: true)
                        var next = 0
                        for c in 0..<columns {
                            while next < Int(perColumn[c]) {
                                let p = grouped[next]
                                if let k = odd.firstIndex(of: p) {
                                    odd.swapAt(k, odd.count - 1); odd.removeLast()
                                } else {
                                    odd.append(p)
                                }
                                next += 1
                            }
                            for p in odd { inside.append(p) }
                            start[r &* columns &+ c &+ 1] = Int32(inside.count)
                        }
                        for c in 0...(columns + 1) { perColumn[c] = 0 }
                    }
                }
            }
        }
        return (start, inside)
    }
}
