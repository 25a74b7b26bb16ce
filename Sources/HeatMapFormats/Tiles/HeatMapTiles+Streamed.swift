import HeatMapContouring
import HeatMapCore
import HeatMapDensity

extension HeatMapTiles {
    /// Tiles of streamed points whose grid the planner made (the tool's
    /// path): that grid's radius, and the thresholds `configuration` gives
    /// on it, as an export of the same points and options has. The points
    /// are read once more into memory (7 numbers each).
    ///
    /// - Parameter valuesAreRadii: the points' values are their own kernel
    ///   radii (the tool's radius column), not measured values.
    package static func make(
        points: StreamedPoints, grid: DensityGrid, configuration: HeatMapConfiguration,
        valuesAreRadii: Bool = false, zooms: ClosedRange<Int>?, bins: BinShape? = nil,
        control: ComputeControl
    ) throws -> HeatMapTiles {
        guard grid.projection.isGeographic else { throw planarRefusal }
        let thresholds = try HeatMapContours.thresholds(for: grid, configuration: configuration, control: control)
        var all = PlanePoints()
        let mean = configuration.estimator == .mean || valuesAreRadii
        var values: [Double] = []
        let projector = PointProjector(grid.projection)
        var latitudes: [Double] = [], longitudes: [Double] = []
        try points.forEachBatch(control: control) { batch in
            if bins != nil {
                latitudes.append(contentsOf: batch.latitude)
                longitudes.append(contentsOf: batch.longitude)
            }
            for i in 0..<batch.count {
                let p = projector.plane(latitude: batch.latitude[i], longitude: batch.longitude[i])
                all.x.append(p.x)
                all.y.append(p.y)
            }
            all.weight.append(contentsOf: batch.weight)
            if mean { values.append(contentsOf: batch.value) }
        }
        if valuesAreRadii {
            all.radius = values
        } else if mean {
            all.value = values
        }
        var tiles = try HeatMapTiles(
            points: all, projection: grid.projection, radius: grid.radius, thresholds: thresholds,
            units: grid.units, configuration: configuration, zooms: zooms, control: control)
        if let bins {
            tiles.bins = TileBins(latitude: latitudes, longitude: longitudes, weight: all.weight, shape: bins)
        }
        return tiles
    }
}
