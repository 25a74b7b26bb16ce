import Foundation
import HeatMap

/// What `contours bin` takes from its options whatever the cell shape
/// (hexagons, squares, H3), and the outputs those settings style alike.
struct BinSettings {
    let format: BinCommand.Format
    let precision: Int
    let output: String?
    let reader: PointReaderOptions
    let gradient: HeatMapGradient?
    let opacity: Double?
    let scale: HeatMapScaleType
    let picture: HeatMapRenderOptions
    let input: String?
    /// `--units`: what a picture calls the aggregate's values.
    let units: String?

    /// Reads the settings, in the order their errors are reported.
    init(_ args: ParsedArguments, format: BinCommand.Format) throws {
        self.format = format
        precision = args[Options.precision]
        output = try Settings.output(args)
        reader = try Settings.reader(args)
        gradient = args.given(Options.gradient)
        opacity =
            args.given(Options.opacity)
            ?? (args.isGiven(Options.basemapTiles) ? ToolConfiguration.opacityOverTiles : nil)
        try Settings.checkBasemapTiles(
            args, html: format == .html, geographic: try Settings.projection(args) != .planar)
        scale = args[Options.scale]
        picture = format == .svg || format == .html ? try Settings.picture(args) : HeatMapRenderOptions()
        input = try Settings.input(args, operands: args.operands[...])
        units = args[Options.units]
    }

    /// The styling of bin GeoJSON.
    var geoJSON: GeoJSONOptions {
        var geo = GeoJSONOptions(precision: precision)
        geo.gradient = gradient
        geo.fillOpacity = opacity
        geo.colorScale = scale
        return geo
    }

    /// The SVG or HTML picture of `layer`, whose values are `aggregate` of
    /// the column `valueName`.
    func picture(_ layer: HeatMapBinLayer, aggregate: BinAggregate) -> String {
        var layer = layer
        if aggregate != .count, let units { layer.units = units }
        let style = HeatMapStyle(
            gradient: gradient ?? Options.gradient.defaultValue,
            fillOpacity: opacity ?? Options.opacity.defaultValue)
        return format == .svg
            ? HeatMapRenderer.svg(layer, style: style, scale: scale, options: picture)
            : HeatMapRenderer.html(layer, style: style, scale: scale, options: picture)
    }

    /// The name a picture's legend gives the values.
    static func valueLabel(_ aggregate: BinAggregate, of valueName: String) -> String {
        aggregate == .count ? "count" : "\(aggregate.rawValue) \(valueName)"
    }
}
