import Foundation
import HeatMapContouring
import HeatMapCore
import HeatMapDensity

/// One-call binning of points into hexagons or squares (docs/binning.md).
///
/// ```swift
/// let bins = try HeatMapBinning.bin(quakes, configuration: BinningConfiguration(size: 20))  // 20 km hexagons
/// for bin in bins.bins { print(bin.id, bin.statistics.count) }
/// ```
public enum HeatMapBinning {
    /// Bins points. Each point's value is its measured `value` when it is
    /// ``HeatMapMeasurable``, else its weight. Geographic points are binned
    /// in `configuration.projection` fitted to them (equal-area by default,
    /// size in km). O(N + cells log cells).
    /// - Parameters:
    ///   - points: the points to bin.
    ///   - configuration: shape, size, plane and aggregates.
    ///   - strict: when true, the first bad point throws
    ///     ``HeatMapError/invalidPoint(index:reason:)``; otherwise bad points
    ///     are left out and counted in the result's summary.
    ///   - control: cancellation and progress (stage `.bin`).
    public static func bin<P: HeatMapable>(
        _ points: [P], configuration: BinningConfiguration,
        strict: Bool = false,
        control: ComputeControl = .none
    ) throws -> BinningResult {
        control.report(.bin, 0)
        let geographic = configuration.projection != .planar
        var latitudes = [Double](), longitudes = [Double](), values = [Double]()
        latitudes.reserveCapacity(points.count); longitudes.reserveCapacity(points.count)
        values.reserveCapacity(points.count)
        var fitter = ProjectionFitter()
        for p in points {
            let c = p.coordinate
            latitudes.append(c.latitude); longitudes.append(c.longitude)
            values.append((p as? any HeatMapMeasurable)?.value ?? p.weight)
            if geographic,
                PointRule.problem(
                    latitude: c.latitude, longitude: c.longitude, weight: 0,
                    value: nil, geographic: true) == nil
            {
                fitter.add(latitude: c.latitude, longitude: c.longitude)
            }
        }
        let projection = geographic ? fitter.projection(configuration.projection) : PlaneProjection(kind: .planar)
        var binner = try Binner(configuration: configuration, projection: projection, strict: strict)
        if geographic {
            try binner.add(latitudes: latitudes, longitudes: longitudes, values: values, control: control)
        } else {
            try binner.add(x: longitudes, y: latitudes, values: values, control: control)
        }
        let result = try binner.result(control: control)
        control.report(.bin, 1)
        return result
    }

    /// Bins points already in a plane (`projection` says how they got
    /// there; `.planar` for x/y data). Values are `points.value` when
    /// present, else the weights. O(N + cells log cells).
    ///
    /// - Throws: ``HeatMapError/invalidConfiguration(_:)`` for arrays of
    ///   different lengths; what binning any points throws.
    public static func bin(
        _ points: PlanePoints, projection: PlaneProjection = PlaneProjection(kind: .planar),
        configuration: BinningConfiguration,
        control: ComputeControl = .none
    ) throws -> BinningResult {
        try points.checkLengths()
        var binner = try Binner(configuration: configuration, projection: projection)
        try binner.add(x: points.x, y: points.y, values: points.value ?? points.weight, control: control)
        return try binner.result(control: control)
    }
}
