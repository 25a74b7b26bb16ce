import Foundation

extension DensityGrid {
    /// The density grid of §4 for points already in the plane: chooses the
    /// radius (``Bandwidth``), fits the grid and fills it.
    ///
    /// PLACEHOLDER (to be replaced by the density engine): a direct
    /// separable splat, single-threaded.
    public static func compute(points: PlanePoints, projection: PlaneProjection,
                               configuration: HeatMapConfiguration,
                               control: ComputeControl = .none) throws -> DensityGrid {
        let radius = configuration.radius
        let geometry = GridGeometry.fitting(box: points.bounds, radius: radius,
                                            paddingFactor: configuration.paddingFactor,
                                            resolution: configuration.gridResolution)
        control.report(.density, 0)
        let sigma = radius / 3
        var values = [Double](repeating: 0, count: geometry.count)
        let norm = projection.areaUnitScale / (2 * Double.pi * sigma * sigma)
        let reach = 5 * sigma
        for i in 0..<points.count {
            if i & 0xfff == 0 { try control.checkCancellation() }
            let px = points.x[i], py = points.y[i], w = points.weight[i] * norm
            let c0 = max(0, Int(((px - reach - geometry.x0) / geometry.dx).rounded(.up)))
            let c1 = min(geometry.columns - 1, Int(((px + reach - geometry.x0) / geometry.dx).rounded(.down)))
            let r0 = max(0, Int(((py - reach - geometry.y0) / geometry.dy).rounded(.up)))
            let r1 = min(geometry.rows - 1, Int(((py + reach - geometry.y0) / geometry.dy).rounded(.down)))
            guard c0 <= c1, r0 <= r1 else { continue }
            let gx = (c0...c1).map { c -> Double in
                let d = geometry.x0 + Double(c) * geometry.dx - px
                return exp(-d * d / (2 * sigma * sigma))
            }
            for r in r0...r1 {
                let d = geometry.y0 + Double(r) * geometry.dy - py
                let gy = w * exp(-d * d / (2 * sigma * sigma))
                let base = r * geometry.columns
                for (k, c) in (c0...c1).enumerated() { values[base + c] += gy * gx[k] }
            }
        }
        control.report(.density, 1)
        return DensityGrid(geometry: geometry, values: values, projection: projection, radius: radius,
                           estimator: configuration.estimator, units: projection.densityUnits)
    }
}
