import HeatMapCore

/// The local radii an adaptive bandwidth gives points, for consumers that
/// sum the kernel themselves (vector tiles sum it at every zoom's nodes).
package enum AdaptiveRadii {
    /// Every point's radius under an adaptive `configuration.bandwidth`, as the density
    /// grid of the same points and configuration uses them (the planner's
    /// own, ``DensityPlanner/planWithRadii(_:configuration:tileOrdered:control:)``). A whole-data step:
    /// O(n · neighbours within reach) on all cores, memory O(n).
    ///
    /// - Returns: nil when the configuration has no adaptive bandwidth.
    /// - Throws: ``HeatMapError/invalidConfiguration(_:)`` when the pilot
    ///   is flat; `CancellationError`.
    package static func radii(
        of points: PlanePoints, projection: PlaneProjection, configuration: HeatMapConfiguration,
        control: ComputeControl
    ) throws -> [Double]? {
        guard configuration.bandwidth.adaptiveRule != nil else { return nil }
        var fixed = points
        fixed.radius = nil
        return try DensityPlanner.planWithRadii(
            MemoryPointSource(points: fixed, projection: projection), configuration: configuration,
            control: control
        ).points.radius
    }
}
