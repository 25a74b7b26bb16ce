import HeatMapCore

/// Points put in the order of the square tiles of their box they fall in
/// (tiles row by row, each tile's points in input order): a stable
/// counting sort.
///
/// The adaptive bandwidth's passes run over every point several times
/// (the pilot's reading, its exact sums, the radii, the split into radius
/// classes, their binning). In input order, neighbours in the arrays lie
/// anywhere: each reading of a grid misses the cache, and each branch on a
/// point's density (sparse or dense, narrow or wide) is a coin toss. In
/// tiles a few kernel radii wide, the points that follow one another share
/// their grid's cache lines and mostly take the same branches: on 10⁶
/// clustered points those passes take about a fifth less time, for a
/// sort of a few milliseconds (docs/performance.md).
///
/// Cost O(n + tiles × blocks) on all cores; memory until the points are
/// sorted a tile index per point, and for each block of 65 536 points a
/// count and a start per tile (at most ``tileLimit`` tiles: 4 bytes a
/// point at most).
struct TileOrder: Sendable {
    /// The tile of each point, in input order.
    private let tileOf: [Int32]
    /// Where each block's first point of each tile goes (tile-major,
    /// blocks in order), by ``Parallel/blocks(of:size:)``'s blocks.
    private let starts: [[Int]]

    /// The most tiles: wider boxes take wider tiles.
    static let tileLimit = 1 << 14

    /// The order of `points` within `box` (points outside it take the
    /// tiles at its edge) by tiles `tile` wide (widened as ``tileLimit``
    /// requires).
    init(of points: PlanePoints, box: PlaneBox, tile: Double, control: ComputeControl) throws {
        let n = points.count
        var side = max(tile, (max(box.width, box.height) / 1e6).nextUp, .leastNormalMagnitude)
        while (box.width / side + 1) * (box.height / side + 1) > Double(TileOrder.tileLimit) { side *= 2 }
        let columns = Int(box.width / side) + 1, rows = Int(box.height / side) + 1
        let tiles = columns * rows
        let (x0, y0, inverse) = (box.minX, box.minY, 1 / side)
        // Each point's tile and each block's count per tile, on all cores.
        let blocks = Parallel.blocks(of: n)
        var tileOf = [Int32](unsafeUninitializedCapacity: n) { _, count in count = n }
        let counts = try tileOf.withUnsafeMutableBufferPointer { tileOf in
            let tileOf = UncheckedSendable(tileOf)
            return try Parallel.map(blocks.count, control: control) { b -> [Int] in
                var counts = [Int](repeating: 0, count: tiles)
                counts.withUnsafeMutableBufferPointer { counts in
                    for i in blocks[b] {
                        let c = min(max(Int((points.x[i] - x0) * inverse), 0), columns - 1)
                        let r = min(max(Int((points.y[i] - y0) * inverse), 0), rows - 1)
                        let t = r * columns + c
                        tileOf.value[i] = Int32(truncatingIfNeeded: t)
                        counts[t] += 1
                    }
                }
                return counts
            }
        }
        var starts = counts
        var total = 0
        for t in 0..<tiles {
            for b in 0..<blocks.count {
                starts[b][t] = total
                total += counts[b][t]
            }
        }
        (self.tileOf, self.starts) = (tileOf, starts)
    }

    /// `points` in this order: coordinates, weights, and values and radii
    /// where they have them. On all cores: one pass for the coordinates
    /// and weights, one for the values and one for the radii.
    func apply(to points: PlanePoints, control: ComputeControl) throws -> PlanePoints {
        let (x, y, weight) = try scatter(points.x, points.y, points.weight, control: control)
        var sorted = PlanePoints(
            x: x, y: y, weight: weight, value: try points.value.map { try scatter($0, control: control) })
        sorted.radius = try points.radius.map { try scatter($0, control: control) }
        return sorted
    }

    /// Three arrays of one value per point in this order, in one pass
    /// (``scatter(_:control:)``).
    private func scatter(
        _ a: [Double], _ b: [Double], _ c: [Double], control: ComputeControl
    ) throws -> ([Double], [Double], [Double]) {
        try Parallel.threeArrays(count: tileOf.count, control: control) { k, block, outA, outB, outC in
            // Each block of the points writes at its tiles' places.
            var next = starts[k]
            next.withUnsafeMutableBufferPointer { next in
                for i in block {
                    let t = Int(tileOf[i]), place = next[t]
                    outA[place] = a[i]
                    outB[place] = b[i]
                    outC[place] = c[i]
                    next[t] = place + 1
                }
            }
        }
    }

    /// `values` (one per point, in input order) in this order: each block's
    /// points written at its tiles' places, on all cores.
    private func scatter(_ values: [Double], control: ComputeControl) throws -> [Double] {
        let n = tileOf.count, blocks = Parallel.blocks(of: n)
        return try values.withUnsafeBufferPointer { values in
            try tileOf.withUnsafeBufferPointer { tileOf in
                let (values, tileOf) = (UncheckedSendable(values.baseAddress!), UncheckedSendable(tileOf.baseAddress!))
                return try [Double](unsafeUninitializedCapacity: n) { out, count in
                    let out = UncheckedSendable(out.baseAddress!)
                    try Parallel.forEach(blocks.count, control: control) { b in
                        var next = starts[b]
                        next.withUnsafeMutableBufferPointer { next in
                            for i in blocks[b] {
                                let t = Int(tileOf.value[i])
                                out.value[next[t]] = values.value[i]
                                next[t] += 1
                            }
                        }
                    }
                    count = n
                }
            }
        }
    }

    /// `values` (one per point, in this order) back in input order: each
    /// block's points read from its tiles' places, on all cores.
    func restore(_ values: [Double], control: ComputeControl) throws -> [Double] {
        let n = tileOf.count, blocks = Parallel.blocks(of: n)
        var out = [Double](unsafeUninitializedCapacity: n) { _, count in count = n }
        try out.withUnsafeMutableBufferPointer { out in
            let out = UncheckedSendable(out.baseAddress!)
            try Parallel.forEach(blocks.count, control: control) { b in
                var next = starts[b]
                next.withUnsafeMutableBufferPointer { next in
                    for i in blocks[b] {
                        let t = Int(tileOf[i])
                        out.value[i] = values[next[t]]
                        next[t] += 1
                    }
                }
            }
        }
        return out
    }
}
