import Foundation
import HeatMapContouring
import HeatMapCore
import HeatMapDensity

/// A scale bar for a geographic picture: a round distance (1, 2 or 5 ×
/// 10ⁿ metres or kilometres) no longer than a fifth of the plot, measured
/// along the ground at the plot's centre.
struct ScaleBar {
    /// Ground metres per pixel at the plot's centre.
    let metresPerPixel: Double
    /// The bar's length in metres and in pixels, and its label.
    let metres: Double
    let pixels: Double
    let label: String

    /// The bar for the view `t`, or nil for planar pictures (whose units
    /// are unknown) and degenerate views.
    package init?(projection: PlaneProjection, view t: ViewTransform) {
        guard projection.isGeographic else { return nil }
        let box = t.planeBox
        let cx = (box.minX + box.maxX) / 2, cy = (box.minY + box.maxY) / 2
        let half = 50 / t.scale
        let a = projection.unproject(PlanePoint(x: cx - half, y: cy))
        let b = projection.unproject(PlanePoint(x: cx + half, y: cy))
        let ground = ScaleBar.groundDistance(a, b)
        guard ground.isFinite, ground > 0 else { return nil }
        metresPerPixel = ground / 100
        guard let m = ScaleBar.roundLength(atMost: metresPerPixel * t.rect.width / 5) else { return nil }
        metres = m
        pixels = m / metresPerPixel
        label = ScaleBar.text(m)
    }

    /// The largest 1, 2 or 5 × 10ⁿ not above `limit` (nil when limit ≤ 0).
    static func roundLength(atMost limit: Double) -> Double? {
        guard limit.isFinite, limit > 0 else { return nil }
        let power = pow(10, floor(log10(limit)))
        return [5.0, 2, 1].map { $0 * power }.first { $0 <= limit * (1 + 1e-12) }
    }

    /// "500 km", "2 km", "200 m".
    package static func text(_ metres: Double) -> String {
        metres >= 1000
            ? HeatMapNumberFormat.string(metres / 1000, significantDigits: 6) + " km"
            : HeatMapNumberFormat.string(metres, significantDigits: 6) + " m"
    }

    /// Great-circle distance in metres (haversine on the authalic sphere).
    static func groundDistance(_ a: LocationCoordinate2D, _ b: LocationCoordinate2D) -> Double {
        let rad = Double.pi / 180
        let dLat = (b.latitude - a.latitude) * rad, dLon = (b.longitude - a.longitude) * rad
        let h =
            sin(dLat / 2) * sin(dLat / 2)
            + cos(a.latitude * rad) * cos(b.latitude * rad) * sin(dLon / 2) * sin(dLon / 2)
        return 2 * PlaneProjection.authalicRadius * asin(min(h.squareRoot(), 1))
    }
}
