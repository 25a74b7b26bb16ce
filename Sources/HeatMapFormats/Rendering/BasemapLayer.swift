import Foundation
import HeatMapContouring
import HeatMapCore
import HeatMapDensity

/// A picture's basemap in its plane: land to fill, country borders and
/// lines to stroke, ready to be clipped to the view and written.
package struct BasemapLayer {
    /// Rings filled as land (even-odd): the world's, then the caller's
    /// areas, each filled on its own so that overlapping copies of one
    /// coast (the world's and a finer one) do not cancel out.
    var land: [[[PlanePoint]]] = []
    /// Country borders: the world's country rings, stroked thin and light.
    var borders: [[PlanePoint]] = []
    /// Coastlines and the caller's lines, stroked in the basemap colour.
    package var lines: [[PlanePoint]] = []
    /// Whether the built-in world map is part of it (for the credit line).
    var showsWorld = false

    /// Drawing steps: land and borders snap to half a pixel; they are
    /// quiet context, finer detail would only cost bytes.
    static let reducer = PixelPathReducer(step: 0.5)

    package init() {}

    /// The basemap projected with the data's projection. The world map is
    /// left out of planar pictures, whose plane is not longitude/latitude.
    package init(_ basemap: HeatMapBasemap?, projection: PlaneProjection) {
        guard let basemap else { return }
        if basemap.includesWorld && projection.isGeographic {
            showsWorld = true
            land = [BasemapProjection.rings(WorldBasemap.countries, projection)]
            borders = BasemapProjection.lines(WorldBasemap.countries, projection)
            lines = BasemapProjection.lines(WorldBasemap.coastline, projection)
        }
        if !basemap.areas.isEmpty { land.append(BasemapProjection.rings(basemap.areas, projection)) }
        lines += BasemapProjection.lines(basemap.lines, projection)
    }

    /// The caller's own lines, for framing (the world would frame the world).
    static func ownLines(_ basemap: HeatMapBasemap?, projection: PlaneProjection) -> [[PlanePoint]] {
        guard let basemap else { return [] }
        return BasemapProjection.lines(basemap.lines, projection)
    }

    /// The land fill, clipped to `box`.
    func writeLand(into w: inout SVGWriter, _ t: ViewTransform, clip box: PlaneBox, color: HeatMapColor) {
        for layer in land {
            var path = SVGPathData()
            for ring in layer {
                let piece = RingClipper.clip(ring, to: box)
                guard !piece.isEmpty else { continue }
                path.add(Self.reducer.reduce(piece.map(t.pixel), closed: true), closed: true)
            }
            guard !path.isEmpty else { continue }
            w.path(
                path,
                [("class", "land"), ("fill-rule", "evenodd"), ("pointer-events", "none")]
                    + SVGWriter.fill(color))
        }
    }

    /// Borders and lines, clipped to `box`.
    func writeLines(
        into w: inout SVGWriter, _ t: ViewTransform, clip box: PlaneBox, color: HeatMapColor,
        width: Double
    ) {
        let common: [(String, String)] = [
            ("fill", "none"), ("stroke-linejoin", "round"), ("stroke-linecap", "round"),
            ("vector-effect", "non-scaling-stroke"), ("pointer-events", "none")
        ]
        let borderPath = Self.path(borders, t, box)
        if !borderPath.isEmpty {
            w.path(
                borderPath,
                [("class", "borders")] + common
                    + SVGWriter.stroke(color.withAlpha(color.alpha * 0.45), width: width * 0.67))
        }
        let linePath = Self.path(lines, t, box)
        if !linePath.isEmpty {
            w.path(linePath, [("class", "basemap")] + common + SVGWriter.stroke(color, width: width))
        }
    }

    private static func path(_ lines: [[PlanePoint]], _ t: ViewTransform, _ box: PlaneBox) -> SVGPathData {
        var path = SVGPathData()
        for line in lines {
            for piece in LineClipper.clip(line, to: box) {
                path.add(reducer.reduce(piece.map(t.pixel), closed: false), closed: false)
            }
        }
        return path
    }
}
