import Foundation

extension HeatMapConfiguration {
    /// A configuration whose radius and resolution suit the given points,
    /// by the Apple package's rule: radius = √(box area / n) clamped to
    /// 50 m…50 km, resolution = longer side / (radius / 3) clamped to 20…300.
    ///
    /// Longitudes are taken on the smallest arc holding all points, so data
    /// across ±180° is measured as one cluster (the Apple package is not).
    /// Fewer than two points give the default configuration. O(n log n).
    public static func adaptive<P: HeatMapable>(for points: [P]) -> HeatMapConfiguration {
        let coordinates = points.map(\.coordinate).filter { $0.latitude.isFinite && $0.longitude.isFinite }
        guard coordinates.count >= 2,
            let rule = AdaptiveRule.geographic(coordinates)
        else { return HeatMapConfiguration() }
        return HeatMapConfiguration(radius: rule.radius, gridResolution: rule.resolution)
    }
}

/// The Apple package's radius and resolution rule, on a box in metres.
package struct AdaptiveRule: Sendable, Hashable {
    package var radius: Double
    package var resolution: Int

    /// The rule for a box of `width` × `height` (same units) holding `count`
    /// points, with the radius clamped to `radiusRange`.
    package init(width: Double, height: Double, count: Int, radiusRange: ClosedRange<Double>) {
        let spacing = (width * height / Double(max(count, 1))).squareRoot()
        radius = min(
            max(spacing.isFinite ? spacing : radiusRange.lowerBound, radiusRange.lowerBound),
            radiusRange.upperBound)
        let cells = (max(width, height) / (radius / 3)).rounded()
        resolution = cells.isFinite ? min(max(Int(cells), 20), 300) : 20
    }

    /// The rule for geographic coordinates, measured in local metres.
    package static func geographic(_ coordinates: [LocationCoordinate2D]) -> AdaptiveRule? {
        guard let arc = LongitudeArc.smallest(containing: coordinates.map(\.longitude)) else { return nil }
        let lats = coordinates.map(\.latitude)
        guard let lo = lats.min(), let hi = lats.max() else { return nil }
        let metresPerDegree = 111_320.0
        let centre = (lo + hi) / 2
        let height = (hi - lo) * metresPerDegree
        let width = arc.width * metresPerDegree * cos(centre * .pi / 180)
        return AdaptiveRule(width: width, height: height, count: coordinates.count, radiusRange: 50...50_000)
    }
}
