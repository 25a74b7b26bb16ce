import Foundation
import HeatMapCore

/// The density (or kernel-weighted mean) sampled at the nodes of a grid.
///
/// `values[row * columns + column]` is the value at
/// `geometry.node(column:row:)`; row 0 is the lowest y. Density values are
/// weight per km² for geographic input and per square unit for planar
/// input; mean values are in the unit of the measured value. A NaN marks a
/// node where the mean is undefined (too little kernel support): it lies
/// below every threshold.
public struct DensityGrid: Sendable {
    /// Where the nodes are.
    public var geometry: GridGeometry
    /// Row-major node values.
    public var values: [Double]
    /// The projection that maps coordinates to the grid's plane.
    public var projection: PlaneProjection
    /// The kernel radius used (plane units: metres or planar units): the
    /// Gaussian's σ is radius / 3, a finite kernel's support is radius.
    public var radius: Double
    /// What the values are.
    public var estimator: DensityEstimator
    /// The unit of the values, e.g. "per km²" ("" for means and raw sums).
    public var units: String
    /// The kernel; ``radius`` is its support for the finite kernels, 3σ for the Gaussian.
    public var kernel: DensityKernel
    /// Density values, or raw kernel sums.
    public var kernelValues: KernelValues
    /// How the points' kernels got their radii when not all are
    /// ``radius``: their own, or an adaptive bandwidth's (then ``radius``
    /// is the pilot's); nil when every kernel has ``radius``.
    public var pointRadii: PointRadii?

    /// Creates a grid from its parts.
    public init(
        geometry: GridGeometry, values: [Double], projection: PlaneProjection, radius: Double,
        estimator: DensityEstimator, units: String, kernel: DensityKernel = .gaussian,
        kernelValues: KernelValues = .density
    ) {
        precondition(values.count == geometry.count, "grid has \(values.count) values for \(geometry.count) nodes")
        self.geometry = geometry
        self.values = values
        self.projection = projection
        self.radius = radius
        self.estimator = estimator
        self.units = units
        self.kernel = kernel
        self.kernelValues = kernelValues
    }

    /// The smallest defined value (0 for a grid with none). O(cells).
    public var minimum: Double {
        var m = Double.infinity
        for v in values where v < m { m = v }
        return m.isFinite ? m : 0
    }

    /// The largest defined value (0 for a grid with none). O(cells).
    public var maximum: Double {
        var m = -Double.infinity
        for v in values where v > m { m = v }
        return m.isFinite ? m : 0
    }

    /// The value at a plane point, bilinearly interpolated between the four
    /// nodes around it; nil outside the node box or next to an undefined node.
    public func value(at p: PlanePoint) -> Double? {
        let g = geometry
        let fx = (p.x - g.x0) / g.dx, fy = (p.y - g.y0) / g.dy
        guard fx >= 0, fy >= 0, fx <= Double(g.columns - 1), fy <= Double(g.rows - 1) else { return nil }
        let c = min(Int(fx), g.columns - 2), r = min(Int(fy), g.rows - 2)
        let tx = fx - Double(c), ty = fy - Double(r)
        let v00 = values[r * g.columns + c], v10 = values[r * g.columns + c + 1]
        let v01 = values[(r + 1) * g.columns + c], v11 = values[(r + 1) * g.columns + c + 1]
        let v = (v00 * (1 - tx) + v10 * tx) * (1 - ty) + (v01 * (1 - tx) + v11 * tx) * ty
        return v.isNaN ? nil : v
    }

    /// The value at a coordinate (projected first). See ``value(at:)-(PlanePoint)``;
    /// nil for a coordinate the projection does not map (``PlaneProjection/maps(_:)``).
    public func value(at coordinate: LocationCoordinate2D) -> Double? {
        guard projection.maps(coordinate) else { return nil }
        return value(at: projection.project(coordinate))
    }
}
