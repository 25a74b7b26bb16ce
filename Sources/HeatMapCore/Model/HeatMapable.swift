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

/// A point that brings its own kernel radius (QGIS's "radius from field"):
/// metres for geographic input, data units for `.planar`; finite and > 0.
///
/// Each point's kernel then has its own radius (normalised by its own area
/// for density values) and ``HeatMapConfiguration/radius`` only sets the
/// grid's padding floor; the points are held in memory.
public protocol HeatMapRadial: HeatMapable {
    /// This point's kernel radius.
    var radius: Double { get }
}
