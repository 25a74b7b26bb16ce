import Foundation
import HeatMapContouring
import HeatMapCore
import HeatMapDensity

/// Everything about a picture that is not the data's colours: size,
/// texts, legend, basemap and framing. (Colours and render mode are the
/// ``HeatMapStyle``.)
///
/// ```swift
/// var options = HeatMapRenderOptions(width: 1000, height: 700, title: "Atlantic storms, 1975–2022")
/// options.legend = .horizontal
/// options.attribution = "Data: NOAA HURDAT2"
/// ```
public struct HeatMapRenderOptions: Sendable {
    /// Which plane region the picture shows.
    public enum Frame: Sendable, Hashable {
        /// The data's extent (the default).
        case data
        /// The data's extent grown to hold the basemap lines too.
        case dataAndBasemap
        /// A given region of the plane.
        case plane(PlaneBox)
    }

    /// Whether the basemap lies under or over the data.
    public enum BasemapPlacement: String, Sendable, Hashable, CaseIterable {
        /// Drawn first, the data on top (the default).
        case under
        /// Drawn last, over the data.
        case over
    }

    /// Picture width in pixels (at least 50). Default 800.
    public var width: Double
    /// Picture height in pixels (at least 50). Default 600.
    public var height: Double
    /// Empty space around the picture's content, in pixels. Default 16.
    public var margin: Double
    /// A title drawn at the top, or nil.
    public var title: String?
    /// A small credit line at the bottom right (data source, licence), or nil.
    public var attribution: String?
    /// The legend's axis, or nil for no legend. Default vertical (right of the map).
    public var legend: HeatMapLegend.Axis?
    /// The legend's labels. Default thresholds with units.
    public var legendLabels: HeatMapLegend.LabelVisibility
    /// A caption above the legend bar, or nil.
    public var legendTitle: String?
    /// Contour geometry: bands (default), levels (nested superlevel sets,
    /// drawn lowest first) or isolines (lines only, whatever the render mode).
    public var contourMode: ContourMode
    /// The map under the data, or nil for none. Default ``HeatMapBasemap/world``
    /// (drawn on geographic pictures only).
    public var basemap: HeatMapBasemap?
    /// Basemap lines (coastlines, borders, your lines) under or over
    /// (default) the data; land is always filled under it.
    public var basemapPlacement: BasemapPlacement
    /// Fill of the basemap's land. Default a quiet warm grey.
    public var landColor: HeatMapColor
    /// A graticule (labelled lines of latitude and longitude): true, false,
    /// or nil (the default) for geographic pictures whose view spans a
    /// degree or more.
    public var graticule: Bool?
    /// A scale bar in metres or kilometres: true, false, or nil (the
    /// default) for every geographic picture.
    public var scaleBar: Bool?
    /// Basemap line colour. Default a mid grey.
    public var basemapColor: HeatMapColor
    /// Basemap line width in pixels. Default 0.6.
    public var basemapLineWidth: Double
    /// The region shown. Default ``Frame/data``.
    public var frame: Frame
    /// The background colour, or nil for transparent. Default white.
    public var background: HeatMapColor?
    /// An outline around each bin, or nil (the default).
    public var binStroke: HeatMapColor?
    /// Raster map tiles under an HTML page of geographic data, or nil
    /// (the default). The page is then drawn in Web Mercator over the
    /// tiles, and ``attribution`` is shown on the map.
    public var basemapTiles: HeatMapTileBasemap?

    /// Creates options; every setting has a default.
    public init(
        width: Double = 800, height: Double = 600, title: String? = nil, attribution: String? = nil,
        legend: HeatMapLegend.Axis? = .vertical, legendLabels: HeatMapLegend.LabelVisibility = .thresholds,
        basemap: HeatMapBasemap? = .world, contourMode: ContourMode = .bands
    ) {
        self.width = width
        self.height = height
        self.margin = 16
        self.title = title
        self.attribution = attribution
        self.legend = legend
        self.legendLabels = legendLabels
        self.legendTitle = nil
        self.contourMode = contourMode
        self.basemap = basemap
        self.basemapPlacement = .over
        self.landColor = HeatMapColor(red8: 236, green8: 234, blue8: 226)
        self.graticule = nil
        self.scaleBar = nil
        self.basemapColor = HeatMapColor(red8: 110, green8: 110, blue8: 115)
        self.basemapLineWidth = 0.6
        self.frame = .data
        self.background = .white
        self.binStroke = nil
        self.basemapTiles = nil
    }

    /// Width and height made usable: finite, 50...20000.
    package var size: (width: Double, height: Double) {
        func fix(_ v: Double, _ fallback: Double) -> Double { v.isFinite ? min(max(v, 50), 20_000) : fallback }
        return (fix(width, 800), fix(height, 600))
    }
}
