import HeatMapContouring
import HeatMapCore
import HeatMapDensity

extension HeatMapTiles {
    /// Tiles of streamed points whose grid the planner made (the tool's
    /// path): that grid's radius, and the thresholds `configuration` gives
    /// on it, as an export of the same points and options has. The points
    /// are read once more into memory (at most 8 numbers each), with their
    /// own radii when they bring them.
    package static func make(
        points: StreamedPoints, grid: DensityGrid, configuration: HeatMapConfiguration,
        zooms: ClosedRange<Int>?, bins: BinShape? = nil,
        control: ComputeControl
    ) throws -> HeatMapTiles {
        guard grid.projection.isGeographic else { throw planarRefusal }
        let thresholds = try HeatMapContours.thresholds(for: grid, configuration: configuration, control: control)
        var all = PlanePoints()
        let mean = configuration.estimator == .mean, radii = points.carriesRadius
        var values: [Double] = [], ownRadii: [Double] = []
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
            if radii { ownRadii.append(contentsOf: batch.radius) }
        }
        if mean { all.value = values }
        if radii { all.radius = ownRadii }
        var tiles = try HeatMapTiles(
            points: all, projection: grid.projection, radius: grid.radius, thresholds: thresholds,
            units: grid.units, configuration: configuration, zooms: zooms, control: control)
        tiles.pointRadii = grid.pointRadii
        if let bins {
            tiles.bins = TileBins(latitude: latitudes, longitude: longitudes, weight: all.weight, shape: bins)
        }
        return tiles
    }
}
