import Foundation
import HeatMapCore

/// Raster map tiles under an HTML page: streets, rivers and names that
/// the reader's browser fetches from an XYZ tile server as the map is
/// zoomed and panned (256-pixel Web Mercator tiles, `{z}/{x}/{y}`).
///
/// ```swift
/// var options = HeatMapRenderOptions(attribution: "© OpenStreetMap contributors")
/// options.basemapTiles = try HeatMapTileBasemap(urlTemplate: "https://tile.openstreetmap.org/{z}/{x}/{y}.png")
/// ```
///
/// A page with tiles is drawn in Web Mercator (the tiles' plane); the
/// density is still measured in the data's own plane. Credit the tiles'
/// source with ``HeatMapRenderOptions/attribution``: the page shows it
/// on the map.
public struct HeatMapTileBasemap: Sendable, Hashable {
    /// The URL of one tile, with `{z}`, `{x}` and `{y}` (and optionally
    /// `{s}`, replaced by one of a, b, c).
    public let urlTemplate: String
    /// The deepest zoom the server has tiles for (0...24). Default 19.
    public let maximumZoom: Int

    /// A tile layer from its URL template.
    ///
    /// - Throws: ``HeatMapError/invalidConfiguration(_:)`` when the
    ///   template lacks `{z}`, `{x}` or `{y}`, or the zoom is outside 0...24.
    public init(urlTemplate: String, maximumZoom: Int = 19) throws {
        let missing = ["{z}", "{x}", "{y}"].filter { !urlTemplate.contains($0) }
        guard missing.isEmpty else {
            throw HeatMapError.invalidConfiguration(
                "tile URL template '\(urlTemplate)' has no \(missing.joined(separator: ", ")) (expected e.g. https://tile.openstreetmap.org/{z}/{x}/{y}.png)"
            )
        }
        guard (0...24).contains(maximumZoom) else {
            throw HeatMapError.invalidConfiguration("tile maximum zoom \(maximumZoom) is outside 0...24")
        }
        self.urlTemplate = urlTemplate
        self.maximumZoom = maximumZoom
    }
}
