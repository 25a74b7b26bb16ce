import Foundation

/// How computed contours (or bins) look: gradient, opacity and render mode.
///
/// Kept apart from ``HeatMapConfiguration`` as in the Apple package:
/// restyling a picture never recomputes the density or the contours.
///
/// ```swift
/// let contours = HeatMapContours.compute(from: points)
/// let hot = HeatMapRenderer.svg(contours, style: HeatMapStyle(gradient: .warm))
/// let lines = HeatMapRenderer.svg(contours, style: HeatMapStyle(renderMode: .isolines(lineWidth: 2)))
/// ```
public struct HeatMapStyle: Sendable, Hashable {
    /// The colours of the levels, low to high. Default ``HeatMapGradient/thermal``.
    public var gradient: HeatMapGradient
    /// Opacity of the whole data layer (fills and isolines), 0...1; it
    /// multiplies the gradient's own alpha. Default 1.
    public var fillOpacity: Double
    /// Filled bands, lines, or both. Default ``HeatMapRenderMode/filled``.
    public var renderMode: HeatMapRenderMode

    /// Creates a style; `fillOpacity` is clamped to 0...1 (non-finite becomes 1).
    public init(
        gradient: HeatMapGradient = .thermal, fillOpacity: Double = 1.0,
        renderMode: HeatMapRenderMode = .filled
    ) {
        self.gradient = gradient
        self.fillOpacity = HeatMapColor.clampedOpacity(fillOpacity)
        self.renderMode = renderMode
    }

    /// The gradient of bins whose export names none (GeoJSON and pictures).
    package static let binGradient = HeatMapGradient.thermal

    /// The style a configuration carries (its gradient, opacity and mode),
    /// for code that sets them on ``HeatMapConfiguration`` as the Apple
    /// package allows.
    public init(_ configuration: HeatMapConfiguration) {
        self.init(
            gradient: configuration.gradient, fillOpacity: configuration.fillOpacity,
            renderMode: configuration.renderMode)
    }
}

extension HeatMapStyle: CustomStringConvertible {
    public var description: String {
        "HeatMapStyle(gradient: \(gradient), fillOpacity: \(HeatMapNumberFormat.string(fillOpacity)), "
            + "renderMode: \(renderMode))"
    }
}
