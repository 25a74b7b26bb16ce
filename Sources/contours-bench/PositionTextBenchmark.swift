import HeatMap

/// The GeoJSON writers' position text on its own, for `contours-bench
/// format`: positions written a block at a time exactly as a ring's
/// coordinates are (``JSONText/writePositions(_:closing:decimals:_:)``).
struct PositionTextBenchmark {
    private let points: [FixedPoint]
    private let decimals: Int

    /// Positions (x, y) / 10^decimals, `decimals` in 0...18.
    init(_ points: [(x: Int64, y: Int64)], decimals: Int) {
        self.points = points.map { FixedPoint(x: $0.x, y: $0.y) }
        self.decimals = decimals
    }

    /// Writes the positions as the coordinates of one open line and returns
    /// the bytes written. The text itself is thrown away; only the ends of
    /// each block are mixed into `mix`, so that the work cannot be left
    /// out. O(points).
    func write() -> (bytes: Int, mix: UInt64) {
        var bytes = 0, mix: UInt64 = 0
        JSONText.writePositions(points, closing: false, decimals: decimals) { block in
            bytes += block.count
            mix = (mix &* 31) ^ UInt64(block[0]) ^ UInt64(block[block.count - 1]) << 8
        }
        return (bytes, mix)
    }

    /// The FNV-1a hash of the text ``write()`` makes, to check that two
    /// builds write the same bytes. O(points).
    func hash() -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        JSONText.writePositions(points, closing: false, decimals: decimals) { block in
            for b in block { h = (h ^ UInt64(b)) &* 0x0000_0100_0000_01b3 }
        }
        return h
    }
}
