import Foundation

/// A spatial index over contour polygons for point queries (§7): the
/// polygons are split into parts of about equal vertex counts, each a
/// ``RasterIndex`` built on its own core; a query asks every part.
struct PolygonIndex: Sendable {
    private let parts: [RasterIndex]

    /// Indexes the polygons of every level, flattened level by level (the
    /// order of `HeatMapContours.contours`). O(V + cells), on every core.
    /// `parts` overrides how many parts (by default one per core for
    /// large inputs, one for small ones).
    init(bands: [[PlanePolygon]], parts requested: Int? = nil) {
        let polygons = Array(bands.joined())
        let sizes = polygons.map { $0.holes.reduce($0.exterior.count) { $0 + $1.count } }
        let total = sizes.reduce(0, +)
        let count = max(1, requested ?? (total < 200_000 ? 1 : min(ProcessInfo.processInfo.activeProcessorCount, 8)))
        // Contiguous ranges of polygons holding about total / count vertices each.
        var ranges: [Range<Int>] = []
        var start = 0, acc = 0
        for (i, n) in sizes.enumerated() {
            acc += n
            if acc * count >= total * (ranges.count + 1), ranges.count < count - 1 {
                ranges.append(start..<(i + 1))
                start = i + 1
            }
        }
        ranges.append(start..<polygons.count)
        let parts = ranges
        let built = LockedBox(Array<RasterIndex?>(repeating: nil, count: ranges.count))
        DispatchQueue.concurrentPerform(iterations: parts.count) { k in
            let index = RasterIndex(polygons, range: parts[k])
            built.lock.withLock { built.value[k] = index }
        }
        self.parts = built.value.map { $0! }
    }

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
}

/// A value shared by worker threads under a lock.
final class LockedBox<T>: @unchecked Sendable {
    var value: T
    let lock = NSLock()
    init(_ value: T) { self.value = value }
}

/// One part of a ``PolygonIndex``.
///
/// A fine uniform raster covers the polygons. Each raster cell stores the
/// edges that meet it and the polygons that contain its centre (found
/// once, for all cells, by a sweep of horizontal lines through the
/// centres). A query then looks only inside its own cell: starting from
/// the centre's answer, each edge that the segment centre → query crosses
/// toggles its polygon. With about one cell per four vertices a cell holds a
/// few edges, so a query costs O(1) whatever the vertex count; building
/// costs O(V + cells).
///
/// Boundary rule: a point on an exterior ring is inside, a point on a hole
/// is outside, so a point on the ring shared by two bands belongs to the
/// upper band only.
struct RasterIndex: Sendable {
    // Vertices of all rings, flattened; ring k spans ringStart[k]..<ringStart[k+1].
    private let xs: [Double]
    private let ys: [Double]
    private let ringStart: [Int32]
    private let ringPolygon: [Int32]
    private let ringIsHole: [Bool]
    /// The ring of each edge; edge i runs from vertex i to the next vertex of its ring.
    private let edgeRing: [Int32]
    private let edgeNext: [Int32]

    private let frame: CellFrame
    private let cellEdgeStart: [Int32], cellEdges: [Int32]
    private let cellInsideStart: [Int32], cellInside: [Int32]

    /// Indexes `polygons[range]`, numbering each by its position in `polygons`.
    init(_ polygons: [PlanePolygon], range: Range<Int>) {
        var xs: [Double] = [], ys: [Double] = []
        var ringStart: [Int32] = [0], ringPolygon: [Int32] = [], ringIsHole: [Bool] = []
        var box = PlaneBox.empty
        // Sized once: growing would copy, and fresh pages are not free.
        let vertices = range.reduce(0) { n, i in polygons[i].holes.reduce(n + polygons[i].exterior.count) { $0 + $1.count } }
        xs.reserveCapacity(vertices); ys.reserveCapacity(vertices)
        for polygon in range {
            let p = polygons[polygon]
            for k in 0...p.holes.count {
                let ring = k == 0 ? p.exterior : p.holes[k - 1]
                guard ring.count >= 3 else { continue }
                for q in ring { xs.append(q.x); ys.append(q.y); box.formUnion(q) }
                ringStart.append(Int32(xs.count))
                ringPolygon.append(Int32(polygon))
                ringIsHole.append(k > 0)
            }
        }
        var edgeRing = [Int32](repeating: 0, count: xs.count), edgeNext = [Int32](repeating: 0, count: xs.count)
        for k in 0..<ringPolygon.count {
            let a = Int(ringStart[k]), b = Int(ringStart[k + 1])
            for i in a..<b {
                edgeRing[i] = Int32(k)
                edgeNext[i] = Int32(i + 1 < b ? i + 1 : a)
            }
        }
        // About one cell per four vertices, square-ish cells; the origin is
        // nudged by an odd fraction of a cell so that cell centres do not
        // fall exactly on grid-aligned contour vertices.
        let cells = Double(min(max(xs.count / 4, 64), 16_000_000))
        let w = max(box.width, 1e-300), h = max(box.height, 1e-300)
        let side = (w * h / cells).squareRoot()
        let columns = box.isEmpty ? 1 : max(1, min(Int(w / side) + 1, 8192))
        let rows = box.isEmpty ? 1 : max(1, min(Int(h / side) + 1, 8192))
        let cellW = w / Double(columns) * 1.000_001, cellH = h / Double(rows) * 1.000_001
        let minX = box.minX - cellW * 0.000_000_5 * 0.618, minY = box.minY - cellH * 0.000_000_5 * 0.382
        let frame = CellFrame(minX: minX, minY: minY, cellW: cellW, cellH: cellH, columns: columns, rows: rows)
        let vertexCount = xs.count

        // Edges per cell: every cell the edge's box meets (edges are short). Count, then fill.
        var edgeStart = [Int32](repeating: 0, count: columns * rows + 1)
        var cellEdges: [Int32] = []
        xs.withUnsafeBufferPointer { xs in
            ys.withUnsafeBufferPointer { ys in
                edgeNext.withUnsafeBufferPointer { edgeNext in
                    edgeStart.withUnsafeMutableBufferPointer { edgeStart in
                        for i in 0..<vertexCount {
                            let j = Int(edgeNext[i])
                            let (c0, c1) = frame.columns(xs[i], xs[j]), (r0, r1) = frame.rows(ys[i], ys[j])
                            for r in r0...r1 { for c in c0...c1 { edgeStart[r &* columns &+ c &+ 1] &+= 1 } }
                        }
                        for k in 0..<(columns * rows) { edgeStart[k + 1] &+= edgeStart[k] }
                        var fill = Array(edgeStart)
                        cellEdges = [Int32](repeating: 0, count: Int(edgeStart[columns * rows]))
                        fill.withUnsafeMutableBufferPointer { fill in
                            cellEdges.withUnsafeMutableBufferPointer { cellEdges in
                                for i in 0..<vertexCount {
                                    let j = Int(edgeNext[i])
                                    let (c0, c1) = frame.columns(xs[i], xs[j]), (r0, r1) = frame.rows(ys[i], ys[j])
                                    for r in r0...r1 {
                                        for c in c0...c1 {
                                            let k = r &* columns &+ c
                                            cellEdges[Int(fill[k])] = Int32(i)
                                            fill[k] &+= 1
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }

        // Polygons holding each cell centre: sweep the horizontal line
        // through each row's centres, toggling a polygon at each crossing.
        // Each crossing of a centre line toggles its polygon from the first
        // centre to its right onward. Toggles commute, so a row needs its
        // crossings grouped by that column only: one integer sort per row.
        var crossingStart = [Int32](repeating: 0, count: rows + 1)
        var crossColumn: [Int32] = [], crossPolygon: [Int32] = []
        var crossFill: [Int32] = []
        xs.withUnsafeBufferPointer { xs in
            ys.withUnsafeBufferPointer { ys in
                edgeNext.withUnsafeBufferPointer { edgeNext in
                    crossingStart.withUnsafeMutableBufferPointer { crossingStart in
                        for i in 0..<vertexCount {
                            let j = Int(edgeNext[i])
                            if let (r0, r1) = frame.centreRows(ys[i], ys[j]) {
                                for r in r0...r1 { crossingStart[r + 1] &+= 1 }
                            }
                        }
                        for r in 0..<rows { crossingStart[r + 1] &+= crossingStart[r] }
                    }
                    crossFill = crossingStart
                    // Each crossing: the first column whose centre lies right of it, and its polygon.
                    crossColumn = [Int32](repeating: 0, count: Int(crossingStart[rows]))
                    crossPolygon = crossColumn
                    crossColumn.withUnsafeMutableBufferPointer { crossColumn in
                    crossPolygon.withUnsafeMutableBufferPointer { crossPolygon in
                        crossFill.withUnsafeMutableBufferPointer { crossFill in
                            for i in 0..<vertexCount {
                                let j = Int(edgeNext[i])
                                guard let (r0, r1) = frame.centreRows(ys[i], ys[j]) else { continue }
                                let polygon = ringPolygon[Int(edgeRing[i])]
                                let ax = xs[i], ay = ys[i], bx = xs[j], by = ys[j]
                                for r in r0...r1 {
                                    let yc = frame.centreY(r)
                                    // The exact rule of the query: the edge crosses y = yc when its ends lie on opposite sides.
                                    guard (ay > yc) != (by > yc) else { continue }
                                    let x = ax + (yc - ay) * (bx - ax) / (by - ay)
                                    crossColumn[Int(crossFill[r])] = Int32(frame.firstColumn(rightOf: x))
                                    crossPolygon[Int(crossFill[r])] = polygon
                                    crossFill[r] &+= 1
                                }
                            }
                        }
                    }
                    }
                }
            }
        }
        // Each row's crossings grouped by column with a counting sort (the
        // toggles of one column commute, so no finer order is needed), then
        // swept left to right, the odd set written out at every centre.
        var insideStart = [Int32](repeating: 0, count: columns * rows + 1)
        var inside: [Int32] = []
        inside.reserveCapacity(columns * rows)
        var odd: [Int32] = []
        var perColumn = [Int32](repeating: 0, count: columns + 2)
        var grouped = [Int32](repeating: 0, count: Int(crossingStart.last ?? 0))
        insideStart.withUnsafeMutableBufferPointer { insideStart in
            perColumn.withUnsafeMutableBufferPointer { perColumn in
                grouped.withUnsafeMutableBufferPointer { grouped in
                    for r in 0..<rows {
                        let lo = Int(crossingStart[r]), hi = Int(crossFill[r])
                        for k in lo..<hi { perColumn[Int(crossColumn[k]) + 1] &+= 1 }
                        for c in 0...columns { perColumn[c + 1] &+= perColumn[c] }
                        for k in lo..<hi {
                            let c = Int(crossColumn[k])
                            grouped[Int(perColumn[c])] = crossPolygon[k]
                            perColumn[c] &+= 1
                        }
                        // perColumn[c] now ends column c's group; it starts where c − 1's ended.
                        odd.removeAll(keepingCapacity: true)
                        var next = 0
                        for c in 0..<columns {
                            while next < Int(perColumn[c]) {
                                let p = grouped[next]
                                if let k = odd.firstIndex(of: p) { odd.swapAt(k, odd.count - 1); odd.removeLast() } else { odd.append(p) }
                                next += 1
                            }
                            for p in odd { inside.append(p) }
                            insideStart[r &* columns &+ c &+ 1] = Int32(inside.count)
                        }
                        for c in 0...(columns + 1) { perColumn[c] = 0 }
                    }
                }
            }
        }

        self.xs = xs; self.ys = ys
        self.ringStart = ringStart; self.ringPolygon = ringPolygon; self.ringIsHole = ringIsHole
        self.edgeRing = edgeRing; self.edgeNext = edgeNext
        self.frame = frame
        self.cellEdgeStart = edgeStart; self.cellEdges = cellEdges
        self.cellInsideStart = insideStart; self.cellInside = inside
    }

    /// Calls `body` once for each polygon containing `p`. The working sets
    /// are bounded by the cell's own entries and edges, so they fit one
    /// temporary buffer (on the stack for ordinary cells).
    func visit(_ p: PlanePoint, _ body: (Int32) -> Void) {
        guard !xs.isEmpty, let (column, row) = frame.cell(of: p) else { return }
        let k = row * frame.columns + column
        let cx = frame.centreX(column), cy = frame.centreY(row)
        // The odd set never holds more than the centre's polygons plus one
        // per edge, and each boundary list at most one per edge.
        let capacity = Int(cellInsideStart[k + 1] - cellInsideStart[k]) + Int(cellEdgeStart[k + 1] - cellEdgeStart[k]) + 1
        withUnsafeTemporaryAllocation(of: Int32.self, capacity: 3 * capacity) { buffer in
            // [0, n): the odd set; [capacity, …): on an exterior; [2 capacity, …): on a hole.
            var n = 0, nExterior = 0, nHole = 0
            func toggle(_ polygon: Int32) {
                for i in 0..<n where buffer[i] == polygon {
                    buffer[i] = buffer[n - 1]
                    n -= 1
                    return
                }
                buffer[n] = polygon
                n += 1
            }
            for j in Int(cellInsideStart[k])..<Int(cellInsideStart[k + 1]) { toggle(cellInside[j]) }
            for e in Int(cellEdgeStart[k])..<Int(cellEdgeStart[k + 1]) {
                let i = Int(cellEdges[e]), j = Int(edgeNext[i])
                let ax = xs[i], ay = ys[i], bx = xs[j], by = ys[j]
                let ring = Int(edgeRing[i])
                // Query on this edge: the boundary rule decides.
                let onLine = (bx - ax) * (p.y - ay) - (by - ay) * (p.x - ax)
                if onLine == 0, p.x >= min(ax, bx), p.x <= max(ax, bx), p.y >= min(ay, by), p.y <= max(ay, by) {
                    if ringIsHole[ring] {
                        buffer[2 * capacity + nHole] = ringPolygon[ring]
                        nHole += 1
                    } else {
                        buffer[capacity + nExterior] = ringPolygon[ring]
                        nExterior += 1
                    }
                    continue
                }
                // Does the segment centre → query cross this edge? A vertex on
                // the segment's line counts as lying on its positive side, so a
                // path through a vertex is counted once, consistently.
                let sa = (p.x - cx) * (ay - cy) - (p.y - cy) * (ax - cx)
                let sb = (p.x - cx) * (by - cy) - (p.y - cy) * (bx - cx)
                guard (sa >= 0) != (sb >= 0) else { continue }
                let sc = (bx - ax) * (cy - ay) - (by - ay) * (cx - ax)
                guard (sc > 0 && onLine < 0) || (sc < 0 && onLine > 0) else { continue }
                toggle(ringPolygon[ring])
            }
            func onHole(_ q: Int32) -> Bool { (0..<nHole).contains { buffer[2 * capacity + $0] == q } }
            for i in 0..<n where !onHole(buffer[i]) { body(buffer[i]) }
            for i in 0..<nExterior {
                let q = buffer[capacity + i]
                if !onHole(q), !(0..<n).contains(where: { buffer[$0] == q }),
                   !(0..<i).contains(where: { buffer[capacity + $0] == q }) {
                    body(q)
                }
            }
        }
    }
}

/// The raster of a ``RasterIndex``: which cell a point falls in, where
/// the cell centres are. Build and query share these functions, so a
/// point and the edges near it always agree on their cells.
struct CellFrame: Sendable {
    let minX: Double, minY: Double, cellW: Double, cellH: Double
    let columns: Int, rows: Int
    // Reciprocals: a multiply instead of a divide in the hot loops.
    private let perW: Double, perH: Double

    init(minX: Double, minY: Double, cellW: Double, cellH: Double, columns: Int, rows: Int) {
        self.minX = minX; self.minY = minY; self.cellW = cellW; self.cellH = cellH
        self.columns = columns; self.rows = rows
        perW = 1 / cellW
        perH = 1 / cellH
    }

    @inline(__always) private func column(_ x: Double) -> Int {
        let f = (x - minX) * perW
        return f <= 0 ? 0 : min(Int(f), columns - 1)
    }

    @inline(__always) private func row(_ y: Double) -> Int {
        let f = (y - minY) * perH
        return f <= 0 ? 0 : min(Int(f), rows - 1)
    }

    /// The columns a segment's x-range meets.
    @inline(__always) func columns(_ a: Double, _ b: Double) -> (Int, Int) { (column(min(a, b)), column(max(a, b))) }
    /// The rows a segment's y-range meets.
    @inline(__always) func rows(_ a: Double, _ b: Double) -> (Int, Int) { (row(min(a, b)), row(max(a, b))) }

    /// The cell of a point, nil outside the raster (or NaN).
    @inline(__always) func cell(of p: PlanePoint) -> (column: Int, row: Int)? {
        let fc = (p.x - minX) * perW, fr = (p.y - minY) * perH
        guard fc >= 0, fr >= 0, fc < Double(columns), fr < Double(rows) else { return nil }
        return (Int(fc), Int(fr))
    }

    @inline(__always) func centreX(_ column: Int) -> Double { minX + (Double(column) + 0.5) * cellW }
    @inline(__always) func centreY(_ row: Int) -> Double { minY + (Double(row) + 0.5) * cellH }

    /// Rows whose centre line a segment from y = a to y = b may cross (a
    /// row more on each side: the caller tests each exactly), nil if none.
    @inline(__always) func centreRows(_ a: Double, _ b: Double) -> (Int, Int)? {
        let lo = (min(a, b) - minY) * perH - 0.5, hi = (max(a, b) - minY) * perH - 0.5
        guard hi >= -1, lo < Double(rows) else { return nil }
        let r0 = max(GaussianAxis.floor(max(lo, -1)), 0), r1 = min(GaussianAxis.floor(hi) + 1, rows - 1)
        return r0 <= r1 ? (r0, r1) : nil
    }

    /// The first column whose centre lies strictly right of x (columns if none).
    @inline(__always) func firstColumn(rightOf x: Double) -> Int {
        let f = (x - minX) * perW - 0.5
        var c = f < 0 ? 0 : min(GaussianAxis.floor(f) + 1, columns)
        // The estimate may be a column off where x is within rounding of a centre.
        while c > 0, centreX(c - 1) > x { c -= 1 }
        while c < columns, centreX(c) <= x { c += 1 }
        return c
    }
}
