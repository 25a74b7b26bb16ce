import HeatMap

/// The hexbin stage: pointy hexagons of size H over the planar points.
enum HexBinBenchmark {
    /// The number of non-empty cells.
    static func count(_ points: PlanePoints, size: Double) -> Int {
        // Replaced by the library's binning once Binning/ lands.
        0
    }
}
