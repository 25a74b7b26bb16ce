import Foundation
import HeatMapContouring
import HeatMapCore
import HeatMapDensity

extension HeatMapBinning {
    /// Bins points into H3 cells at `configuration.h3Resolution` (shape and
    /// size are not used). Each point's value is its measured `value` when it
    /// is ``HeatMapMeasurable``, else its weight. O(N · resolution + cells log cells).
    ///
    /// ```swift
    /// var configuration = BinningConfiguration(shape: .h3, size: 1)
    /// configuration.h3Resolution = 4
    /// let cells = try HeatMapBinning.binH3(quakes, configuration: configuration)
    /// for bin in cells.bins { print(bin.cell, bin.statistics.count, bin.density) }
    /// ```
    /// - Parameters:
    ///   - points: the points to bin.
    ///   - configuration: the H3 resolution (`h3Resolution`).
    ///   - strict: when true, the first bad point throws
    ///     ``HeatMapError/invalidPoint(index:reason:)``; otherwise bad points
    ///     are left out and counted in the result's summary.
    ///   - control: cancellation and progress (stage `.bin`).
    public static func binH3<P: HeatMapable>(
        _ points: [P], configuration: BinningConfiguration,
        strict: Bool = false,
        control: ComputeControl = .none
    ) throws -> H3BinningResult {
        control.report(.bin, 0)
        var binner = try H3Binner(resolution: configuration.h3Resolution, strict: strict)
        try binner.add(
            latitudes: points.map(\.coordinate.latitude), longitudes: points.map(\.coordinate.longitude),
            values: points.map { ($0 as? any HeatMapMeasurable)?.value ?? $0.weight }, control: control)
        let result = try binner.result(
            includeEmpty: configuration.includeEmpty,
            maximumCells: configuration.maximumCells, control: control)
        control.report(.bin, 1)
        return result
    }
}
