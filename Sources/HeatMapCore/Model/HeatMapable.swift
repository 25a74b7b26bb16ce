import Foundation

/// A weighted point that can be turned into a heat map.
///
/// `weight` must be finite and non-negative; a weight of 0 makes the point
/// invisible to the density estimator.
public protocol HeatMapable: Sendable, Identifiable {
    /// Where the point is (degrees, or planar x/y for `.planar`).
    var coordinate: LocationCoordinate2D { get }
    /// How much the point counts (unitless multiplier of the kernel).
    var weight: Double { get }
}

/// A point that also carries a measured value (temperature, price, …), for
/// the kernel-weighted mean estimator (`DensityEstimator.mean`).
///
/// Points that are only `HeatMapable` use their `weight` as the value, each
/// with kernel weight 1.
public protocol HeatMapMeasurable: HeatMapable {
    /// The measured value whose local mean is mapped.
    var value: Double { get }
}
