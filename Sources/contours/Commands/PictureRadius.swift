import Foundation
import HeatMap

/// The automatic kernel radius of a picture: a fiftieth of the longer
/// side of the data's box, so the kernel spans about 12 pixels of an
/// 800-pixel picture whatever the scale, from a city to an ocean. (Screen
/// tools fix the kernel in pixels too: kepler.gl's heatmap radius is 20
/// px, QGIS's heatmap renderer 10 mm.) The point-spacing rule, made for
/// data files, gives a 50 km cap that speckles a continent; Scott's rule
/// (seaborn's default) oversmooths clustered data. The radius never falls
/// below that point-spacing rule, so sparse data stays connected.
struct PictureRadius {
    /// Grid nodes along the longer side: about three per kernel σ.
    static let resolution = 360

    /// The kernel radius in metres (planar units for planar data).
    let radius: Double

    /// The rule for points with these statistics, or nil when they have no
    /// extent (fewer than two points, all at one place).
    init?(_ s: InputStatistics, geographic: Bool) {
        guard s.weightedCount >= 2, s.minLatitude < s.maxLatitude || s.minLongitude < s.maxLongitude else {
            return nil
        }
        let height: Double, width: Double
        if geographic {
            let metresPerDegree = 2 * Double.pi * PlaneProjection.authalicRadius / 360
            let middle = (s.minLatitude + s.maxLatitude) / 2 * Double.pi / 180
            let arc = s.longitudeArc?.width ?? (s.maxLongitude - s.minLongitude)
            height = (s.maxLatitude - s.minLatitude) * metresPerDegree
            width = arc * metresPerDegree * cos(middle)
        } else {
            height = s.maxLatitude - s.minLatitude
            width = s.maxLongitude - s.minLongitude
        }
        let longer = max(width, height)
        guard longer.isFinite, longer > 0 else { return nil }
        let spacing = (max(width, longer / 1000) * max(height, longer / 1000) / Double(s.weightedCount)).squareRoot()
        radius = max(longer / 50, min(spacing, geographic ? 50_000 : longer / 2))
    }
}
