import Foundation
import HeatMapContouring
import HeatMapCore
import HeatMapDensity

/// Pictures of contours and bins: SVG documents and self-contained HTML
/// pages, each made by one call.
///
/// ```swift
/// let contours = try await HeatMapContours.compute(from: storms,
///     configuration: HeatMapConfiguration(radius: 150_000, levelSpacing: .nice))
/// var options = HeatMapRenderOptions(width: 1000, height: 700, title: "Storm fixes")
/// options.basemap = try HeatMapBasemap(contentsOf: coastlineURL)
/// let svg = HeatMapRenderer.svg(contours, style: HeatMapStyle(gradient: .warm), options: options)
/// let page = HeatMapRenderer.html(contours, options: options)   // tooltip on hover or tap
/// ```
///
/// Shapes are drawn in the data's projection plane (x east, y north, SVG y
/// down) with one scale for both axes, so nothing is stretched and
/// hexagons stay regular; the data is fitted into the picture inside its
/// margins, beside the legend. Each contour shape carries `data-level` and
/// `data-threshold` (bands also `data-upper`); each bin `data-count`,
/// `data-value` and `data-i`. Every text from the caller or the data is
/// escaped. Output is deterministic: the same input gives the same bytes.
/// Cost: O(vertices + basemap positions).
public enum HeatMapRenderer {
    /// An SVG picture of computed contours (bands by default; see
    /// ``HeatMapRenderOptions/contourMode``), styled by `style` (nil: the
    /// gradient, opacity and render mode of the contours' configuration).
    public static func svg(
        _ contours: HeatMapContours, style: HeatMapStyle? = nil,
        options: HeatMapRenderOptions = HeatMapRenderOptions()
    ) -> String {
        PictureComposer.svg(scene(contours, style, options), options)
    }

    /// A self-contained HTML page of computed contours: the SVG plus a
    /// tooltip with the level and its range (with units) under the pointer.
    public static func html(
        _ contours: HeatMapContours, style: HeatMapStyle? = nil,
        options: HeatMapRenderOptions = HeatMapRenderOptions()
    ) -> String {
        HTMLPage.make(scene(contours, style, options), options)
    }

    /// An SVG picture of a contour set made elsewhere (a grid file, another
    /// pipeline), in `projection`'s plane, with values in `units`.
    public static func svg(
        contourSet: ContourSet, projection: PlaneProjection, units: String,
        style: HeatMapStyle = HeatMapStyle(),
        options: HeatMapRenderOptions = HeatMapRenderOptions()
    ) -> String {
        PictureComposer.svg(
            ContourScene.make(
                set: contourSet, fallbackBox: .empty, projection: projection,
                units: units, style: style, options: options), options)
    }

    /// The HTML page of a contour set made elsewhere.
    public static func html(
        contourSet: ContourSet, projection: PlaneProjection, units: String,
        style: HeatMapStyle = HeatMapStyle(),
        options: HeatMapRenderOptions = HeatMapRenderOptions()
    ) -> String {
        HTMLPage.make(
            ContourScene.make(
                set: contourSet, fallbackBox: .empty, projection: projection,
                units: units, style: style, options: options), options)
    }

    /// An SVG picture of bins, coloured by value on a `scale` (linear, log,
    /// or symmetric log) over the non-empty bins' values; empty bins get
    /// the faint zero colour. Render modes do not apply to bins.
    public static func svg(
        _ bins: HeatMapBinLayer, style: HeatMapStyle = HeatMapStyle(),
        scale: HeatMapScaleType = .linear,
        options: HeatMapRenderOptions = HeatMapRenderOptions()
    ) -> String {
        PictureComposer.svg(BinScene.make(layer: bins, style: style, scale: scale, options: options), options)
    }

    /// A self-contained HTML page of bins, with each bin's id, count,
    /// value and aggregates under the pointer.
    public static func html(
        _ bins: HeatMapBinLayer, style: HeatMapStyle = HeatMapStyle(),
        scale: HeatMapScaleType = .linear,
        options: HeatMapRenderOptions = HeatMapRenderOptions()
    ) -> String {
        HTMLPage.make(BinScene.make(layer: bins, style: style, scale: scale, options: options), options)
    }

    private static func scene(
        _ c: HeatMapContours, _ style: HeatMapStyle?,
        _ options: HeatMapRenderOptions
    ) -> PictureScene {
        ContourScene.make(
            set: c.contourSet, fallbackBox: c.grid.geometry.cellBox, projection: c.projection,
            units: c.units, style: style ?? HeatMapStyle(c.configuration), options: options,
            grid: c.grid)
    }
}
