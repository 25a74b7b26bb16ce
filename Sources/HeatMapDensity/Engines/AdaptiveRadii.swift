import HeatMapCore

/// The local radii an adaptive bandwidth gives points, for consumers that
/// sum the kernel themselves (vector tiles sum it at every zoom's nodes).
package enum AdaptiveRadii {
    /// Every point's radius under `configuration.adaptive`, as the density
    /// grid of the same points and configuration uses them: the planner's
    /// pilot radius and grid, then Abramson's rule. A whole-data step:
    /// O(n · neighbours within reach) on all cores, memory O(n).
    ///
    /// - Returns: nil when the configuration has no adaptive bandwidth.
    /// - Throws: ``HeatMapError/invalidConfiguration(_:)`` when the pilot
    ///   is flat; `CancellationError`.
    package static func radii(
        of points: PlanePoints, projection: PlaneProjection, configuration: HeatMapConfiguration,
        control: ComputeControl
    ) throws -> [Double]? {
        guard let rule = configuration.adaptive else { return nil }
        var fixed = points
        fixed.radius = nil
        let plan = try DensityPlanner.plan(
            MemoryPointSource(points: fixed, projection: projection), configuration: configuration,
            control: control)
        return try AdaptivePilot.radii(
            of: fixed, kernel: configuration.kernel, radius: plan.radius, rule: rule,
            grid: plan.geometry, projection: projection, control: control
        ).radii
    }
}
