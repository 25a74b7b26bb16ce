import HeatMapCore
import HeatMapDensity

extension HeatMapContours {
    /// Contours of `grid` at exactly `thresholds` (ascending), every one
    /// kept even where the grid does not reach it — so that frames of a
    /// time series number and colour their levels alike. Otherwise as
    /// ``compute(from:configuration:control:summary:kinds:)``.
    /// - Throws: `CancellationError`; ``HeatMapError/outOfMemory(needed:available:what:)``.
    package static func compute(
        from grid: DensityGrid, thresholds: [Double], configuration: HeatMapConfiguration,
        control: ComputeControl = .none, kinds: ContourKinds = .all
    ) throws -> HeatMapContours {
        try control.begin(.levels)
        let g = grid.geometry
        try MemoryBudget.reserve(
            ContourBuilder.bytesNeeded(cells: grid.values.count),
            for: "contouring the grid of \(g.columns) × \(g.rows) nodes")
        let pieces = try ContourBuilder.pieces(
            grid: grid, thresholds: thresholds,
            smoother: configuration.smoother, control: control)
        if control.isCancelled {
            DeferredRelease.release(pieces)
            throw CancellationError()
        }
        return try HeatMapContours(
            grid: grid, contours: .pieces(pieces), kinds: kinds, configuration: configuration,
            summary: InputSummary(), control: control)
    }
}
