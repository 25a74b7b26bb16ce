/// Contours of a grid for a writer that streams them feature by feature
/// (the tool's GeoJSON export): the thresholds and smoothing are settled
/// as ``HeatMapContours/compute(from:configuration:control:summary:kinds:)``
/// settles them, but each feature's polygons are assembled only when it is
/// rounded or written, so memory holds the grid, the traced pieces and the
/// features in flight — not every band at once.
///
/// The text written is byte for byte what ``GeoJSONExport`` writes for
/// the computed contours of the same grid and configuration.
package struct StreamedContours: Sendable {
    /// The thresholds used, ascending (the grid's units).
    package let thresholds: [Double]
    /// The density grid behind the contours.
    package let grid: DensityGrid
    /// The configuration the contours follow.
    package let configuration: HeatMapConfiguration
    private let pieces: ContourPieces

    /// Traces `grid` at the thresholds of `configuration` and settles the
    /// smoothing of every piece (stages `.levels`, `.contour`, `.smooth`).
    /// - Throws: `CancellationError`, or the errors of contouring.
    /// - Precondition: `configuration.simplification` is 0 (simplifying
    ///   needs every band at once; use ``HeatMapContours`` for it).
    package init(grid: DensityGrid, configuration: HeatMapConfiguration, control: ComputeControl = .none) throws {
        precondition(configuration.simplification == 0, "streamed contours are not simplified")
        let thresholds = try HeatMapContours.thresholds(for: grid, configuration: configuration, control: control)
        self.pieces = try ContourBuilder.pieces(grid: grid, thresholds: thresholds,
                                                smoother: configuration.smoother, control: control)
        self.thresholds = thresholds
        self.grid = grid
        self.configuration = configuration
    }

    /// Writes the contours of `mode` as GeoJSON to `sink`, as
    /// ``GeoJSONExport/write(_:mode:options:to:control:)`` does for
    /// computed contours. O(vertices); memory O(features in flight).
    package func writeGeoJSON(mode: ContourMode, options: GeoJSONOptions, to sink: ByteSink,
                              control: ComputeControl = .none) throws {
        try GeoJSONExport.write(pieces, projection: grid.projection, units: grid.units, mode: mode,
                                gradient: options.gradient ?? configuration.gradient,
                                fillOpacity: options.fillOpacity ?? configuration.fillOpacity,
                                options: options, to: sink, control: control)
    }
}
