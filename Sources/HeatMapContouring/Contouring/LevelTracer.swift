import HeatMapCore
import HeatMapDensity

/// Marching squares for one level: classifies every cell, then traces the
/// isolines cell to cell, stitching by grid edge (integer) identity.
///
/// - Count pass: one byte per cell (the corner code, saddles resolved by the
///   mean of the four corners, the same way at every level so levels nest)
///   and the number of segments, to size the vertex arrays once.
/// - Fill pass: chains first, from the frame edges in counter-clockwise
///   order, then closed rings in row-major cell order. Following a segment
///   consumes it in the cell byte, so no visited set and no map from
///   positions is needed; the next cell is the neighbour across the exit side.
///
/// Degenerate rings — those whose mean width 2·area/perimeter is below 4ε
/// of a cell, which only the ε clamp of ``CrossingRule`` can produce (a node,
/// a line of nodes, exactly at the threshold with everything around below) —
/// are dropped: the set they stand for has no area.
///
/// Cost: O(cells) for the count pass, O(vertices) for the fill pass; memory
/// one byte per cell plus the vertices.
struct LevelTracer {
    package let values: UnsafeBufferPointer<Double>
    /// The values' bands among all levels' thresholds, and this level's
    /// index there: which nodes are inside, a byte a node.
    package let bands: NodeBands
    package let level: Int
    package let geometry: GridGeometry
    package let frame: GridFrame
    package let threshold: Double
    package let control: ComputeControl

    private var columns: Int { geometry.columns }
    private var rows: Int { geometry.rows }

    /// Traces the level. Throws `CancellationError` when the control says stop.
    func trace() throws -> LevelTrace {
        var codes = [UInt8](repeating: 0, count: (columns - 1) * (rows - 1))
        let segments = try codes.withUnsafeMutableBufferPointer { try classify(into: $0) }
        var (out, crossings) = try codes.withUnsafeMutableBufferPointer { cb in
            var builder = Builder(
                values: values, geometry: geometry, frame: frame, t: threshold,
                codes: cb, control: control, capacity: segments + frame.count)
            try builder.traceAll()
            return (builder.out, builder.crossings)
        }
        out.frameInside = !out.isChain.contains(true) && values[0] >= threshold
        dropDegenerateFrameRings(&out)
        try keepCrossings(&crossings, of: &out)
        return out
    }

    /// Count pass: writes the codes of cells that hold segments (the others
    /// stay 0), returns the number of segments.
    ///
    /// Each row's inside/outside bits are packed 64 to a word, once per node;
    /// a cell can only hold a segment where its four bits differ, which whole
    /// words of uniform cells rule out at once.
    private func classify(into codes: UnsafeMutableBufferPointer<UInt8>) throws -> Int {
        let t = threshold, c1 = columns - 1
        let words = (columns + 63) / 64
        var segments = 0
        let counts = CellCases.segmentCount
        var lowerBits = [UInt64](repeating: 0, count: words + 1)
        var upperBits = [UInt64](repeating: 0, count: words + 1)
        try lowerBits.withUnsafeMutableBufferPointer { lowerBuffer in
            try upperBits.withUnsafeMutableBufferPointer { upperBuffer in
                var lo = lowerBuffer.baseAddress!, hi = upperBuffer.baseAddress!
                pack(row: 0, into: lo, words: words)
                for r in 0..<(rows - 1) {
                    if r & 63 == 0 { try control.checkCancellation() }
                    pack(row: r + 1, into: hi, words: words)
                    let base = r * columns, outRow = r * c1
                    for w in 0..<words {
                        let l = lo[w], h = hi[w]
                        // Bit c: node c differs from node c + 1 in either row, or the rows differ.
                        let lNext = (l >> 1) | (lo[w + 1] << 63), hNext = (h >> 1) | (hi[w + 1] << 63)
                        var mixed = (l ^ lNext) | (h ^ hNext) | (l ^ h)
                        while mixed != 0 {
                            let c = w * 64 + mixed.trailingZeroBitCount
                            mixed &= mixed - 1
                            if c >= c1 { break }
                            let b = c & 63
                            let bl = Int((l >> b) & 1), tl = Int((h >> b) & 1)
                            let br = Int((b == 63 ? lo[w + 1] : l >> (b + 1)) & 1)
                            let tr = Int((b == 63 ? hi[w + 1] : h >> (b + 1)) & 1)
                            var code = bl | br << 1 | tr << 2 | tl << 3
                            if code == 5 || code == 10 {
                                // The same expression for every level, so the
                                // choice is monotone in t and levels nest.
                                let a = base + c
                                if ((values[a] + values[a + 1]) + (values[a + columns + 1] + values[a + columns]))
                                    * 0.25 >= t
                                {
                                    code |= 16
                                }
                            }
                            codes[outRow + c] = UInt8(code)
                            segments += Int(counts[code])
                        }
                    }
                    swap(&lo, &hi)
                }
            }
        }
        return segments
    }

    /// Packs the inside bits (value ≥ threshold) of `row` into `words` words
    /// (bits past the last column are 0; the spare word after them too).
    @inline(__always) private func pack(row: Int, into bits: UnsafeMutablePointer<UInt64>, words: Int) {
        let base = row * columns
        for w in 0..<words {
            let first = w * 64
            bits[w] = bands.bits(from: base + first, count: min(64, columns - first), atOrAbove: level)
        }
        bits[words] = 0
    }

    /// Finds the level's frame-closed rings and drops the degenerate ones.
    private func dropDegenerateFrameRings(_ out: inout LevelTrace) {
        // One level: the walk never has two levels' crossings to order.
        let walk = FrameWalk(frame: frame, geometry: geometry, bands: NodeBands())
        let rings = walk.rings(lower: out, upper: nil)
        for ring in rings {
            var points: [PlanePoint] = []
            for (i, part) in ring.enumerated() {
                out.vertices.forEachPoint(out.range(Int(part.piece))) { _, point in points.append(point) }
                let next = ring[(i + 1) % ring.count]
                for j in walk.cornersPassed(from: out.endKey[Int(part.piece)], to: out.startKey[Int(next.piece)]) {
                    points.append(walk.position(ofPerimeterNode: j))
                }
            }
            if RingMeasure.isDegenerate(points, geometry: geometry) {
                for part in ring { out.isRemoved[Int(part.piece)] = true }
            }
        }
    }

    /// Keeps the row crossings (`keys`: edge << 32 | piece) of kept pieces,
    /// sorted by edge, as the trace's `hEdges` and `hPieces`.
    private func keepCrossings(_ keys: inout [UInt64], of out: inout LevelTrace) throws {
        keys.removeAll { out.isRemoved[Int($0 & 0xffff_ffff)] }
        try control.checkCancellation()
        let edgesPerRow = UInt64(columns - 1)
        try BlockSort.sort(&keys, blocks: rows, control: control) { Int(($0 >> 32) / edgesPerRow) }
        out.hEdges = keys.map { Int32(truncatingIfNeeded: $0 >> 32) }
        out.hPieces = keys.map { Int32(truncatingIfNeeded: $0 & 0xffff_ffff) }
        keys = []
    }
}

/// The fill pass's state: walks segments and appends vertices.
private struct Builder {
    package let values: UnsafeBufferPointer<Double>
    package let geometry: GridGeometry
    package let frame: GridFrame
    package let t: Double
    package let codes: UnsafeMutableBufferPointer<UInt8>
    package let control: ComputeControl
    package var out: LevelTrace
    /// Crossings on horizontal edges of interior rows: edge << 32 | piece.
    package var crossings: [UInt64] = []
    /// The crossings of the piece being traced, in order.
    private var path: [Crossing] = []
    /// The positions of the closed piece being traced, to measure it.
    private var ring: [PlanePoint] = []
    private var sinceCheck = 0

    /// A builder whose vertex arrays have room for `capacity` vertices.
    package init(
        values: UnsafeBufferPointer<Double>, geometry: GridGeometry, frame: GridFrame, t: Double,
        codes: UnsafeMutableBufferPointer<UInt8>, control: ComputeControl, capacity: Int
    ) {
        self.values = values
        self.geometry = geometry
        self.frame = frame
        self.t = t
        self.codes = codes
        self.control = control
        out = LevelTrace(threshold: t, geometry: geometry)
        out.vertices.reserveCapacity(capacity)
    }

    private var columns: Int { geometry.columns }
    private var rows: Int { geometry.rows }

    mutating func traceAll() throws {
        let exit = CellCases.exit
        // Chains start on frame edges that are entry sides of their cell.
        for k in 0..<frame.count {
            let (c, r, side) = frame.cellSide(ofPerimeterEdge: k)
            let code = Int(codes[r * (columns - 1) + c])
            if exit[code * 4 + side] >= 0 {
                try tracePiece(column: c, row: r, side: side, closed: false)
            }
        }
        // Whatever is left are closed rings. Traced cells are back to 0, so
        // whole words of zero codes are skipped eight cells at a time.
        let c1 = columns - 1
        let counts = CellCases.segmentCount
        let total = c1 * (rows - 1)
        let raw = UnsafeRawPointer(codes.baseAddress!)
        var i = 0, nextCheck = 0
        while i < total {
            if i >= nextCheck {
                nextCheck = i + 65_536
                try control.checkCancellation()
            }
            if i + 8 <= total && raw.loadUnaligned(fromByteOffset: i, as: UInt64.self) == 0 {
                i += 8
                continue
            }
            while counts[Int(codes[i])] != 0 {
                let code = Int(codes[i])
                let side = (0..<4).first { exit[code * 4 + $0] >= 0 }!
                try tracePiece(column: i % c1, row: i / c1, side: side, closed: true)
            }
            i += 1
        }
    }

    /// Follows segments from the crossing on `side` of cell (column, row)
    /// until the ring closes or the path leaves the grid.
    ///
    /// The walk reads only the cell codes and gathers the crossings'
    /// edges (``Crossing``); their values are read after it, in a loop of
    /// their own (``gatherValues()``), and their positions placed last.
    private mutating func tracePiece(column c0: Int, row r0: Int, side s0: Int, closed: Bool) throws {
        let exit = CellCases.exit, afterUse = CellCases.afterUse
        let c1 = columns - 1
        let start = out.vertices.count, crossingStart = crossings.count
        path.removeAll(keepingCapacity: true)
        path.append(crossing(column: c0, row: r0, side: s0))
        var c = c0, r = r0, s = s0
        var endEdge = -1
        while true {
            let cell = r * c1 + c
            let code = Int(codes[cell])
            let e = Int(exit[code * 4 + s])
            // A missing segment would mean a broken table; stop rather than loop.
            guard e >= 0 else { break }
            codes[cell] = afterUse[code * 4 + s]
            var nc = c, nr = r
            switch e {
            case 0: nr -= 1
            case 1: nc += 1
            case 2: nr += 1
            default: nc -= 1
            }
            let ns = CellCases.opposite(e)
            if closed && nc == c0 && nr == r0 && ns == s0 { break }
            path.append(crossing(column: c, row: r, side: e))
            if nc < 0 || nr < 0 || nc >= c1 || nr >= rows - 1 {
                endEdge = frame.perimeterEdge(cellColumn: c, cellRow: r, side: e) ?? 0
                break
            }
            c = nc; r = nr; s = ns
            sinceCheck += 1
            if sinceCheck >= 8192 {
                sinceCheck = 0
                try control.checkCancellation()
            }
        }
        gatherValues()
        out.vertices.beginPiece()
        ring.removeAll(keepingCapacity: true)
        var first = PlanePoint(x: 0, y: 0), last = first
        for k in path.indices {
            last = record(path[k])
            if k == 0 { first = last }
            if closed { ring.append(last) }
        }
        var endKey = FrameKey(edge: -1, along: 0)
        if endEdge >= 0 {
            endKey = FrameKey(edge: Int32(endEdge), along: frame.along(perimeterEdge: endEdge, x: last.x, y: last.y))
        }
        if closed {
            let measure = RingMeasure(ring, geometry: geometry)
            if measure.isDegenerate {
                // Roll back: the cells are consumed, the piece never existed.
                out.vertices.removeLast(from: start)
                crossings.removeSubrange(crossingStart...)
                return
            }
            out.area.append(measure.signedArea)
            out.startKey.append(FrameKey(edge: -1, along: 0))
            out.endKey.append(FrameKey(edge: -1, along: 0))
        } else {
            let k = frame.perimeterEdge(cellColumn: c0, cellRow: r0, side: s0) ?? 0
            out.area.append(0)
            out.startKey.append(FrameKey(edge: Int32(k), along: frame.along(perimeterEdge: k, x: first.x, y: first.y)))
            out.endKey.append(endKey)
        }
        out.isChain.append(!closed)
        out.isRemoved.append(false)
        out.pieceStart.append(Int32(out.vertices.count))
    }

    /// The crossing on `side` of cell (column, row): its edge, its values
    /// not read yet (``gatherValues()``).
    @inline(__always) private func crossing(column c: Int, row r: Int, side: Int) -> Crossing {
        switch side {
        case 0, 2:
            return Crossing(column: Int32(c), row: Int32(side == 0 ? r : r + 1), vertical: false)
        default:
            return Crossing(column: Int32(side == 3 ? c : c + 1), row: Int32(r), vertical: true)
        }
    }

    /// Reads the values at the two nodes of each crossing of ``path``.
    /// Nothing in this loop waits on a load, so the loads of many
    /// crossings are in flight at once: the grid read along a contour
    /// misses the cache at each step up or down (a row apart in memory).
    private mutating func gatherValues() {
        let values = values, columns = columns
        path.withUnsafeMutableBufferPointer { path in
            for k in path.indices {
                let a = Int(path[k].row) &* columns &+ Int(path[k].column)
                path[k].from = values[a]
                path[k].to = values[a &+ (path[k].vertical ? columns : 1)]
            }
        }
    }

    /// Appends crossing `x` and gives its position (placed by
    /// ``EdgeVertices``).
    @inline(__always) private mutating func record(_ x: Crossing) -> PlanePoint {
        let row = Int(x.row), c = Int(x.column)
        let f = CrossingRule.fraction(x.from, x.to, t)
        if x.vertical { return out.vertices.append(row: row, column: c, fractionAlongY: f) }
        if row > 0 && row < rows - 1 {
            crossings.append(UInt64(row * (columns - 1) + c) << 32 | UInt64(out.isChain.count))
        }
        return out.vertices.append(row: row, column: c, fractionAlongX: f)
    }
}

/// A crossing gathered by the walk: the grid edge from node (column, row)
/// to the next node along x (or along y when `vertical`), and the values
/// at the two nodes. 32 bytes.
private struct Crossing {
    var column: Int32
    var row: Int32
    var vertical: Bool
    var from = 0.0
    var to = 0.0
}
