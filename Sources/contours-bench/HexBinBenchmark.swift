import HeatMap

/// The hexbin stage: the library's binning of the planar points into
/// pointy hexagons of size H (counts, as peers.py computes them).
enum HexBinBenchmark {
    /// The number of non-empty cells.
    static func count(_ points: PlanePoints, size: Double) throws -> Int {
        let configuration = BinningConfiguration(
            shape: .hexagon, size: size, orientation: .pointy,
            projection: .planar)
        return try HeatMapBinning.bin(points, configuration: configuration).bins.count
    }
}
