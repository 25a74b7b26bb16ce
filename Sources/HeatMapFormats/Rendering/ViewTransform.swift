import Foundation
import HeatMapContouring
import HeatMapCore
import HeatMapDensity

/// A rectangle in SVG pixels (y down).
struct PixelRect: Hashable {
    package var x: Double
    package var y: Double
    package var width: Double
    package var height: Double

    package var maxX: Double { x + width }
    package var maxY: Double { y + height }
}

/// Maps plane coordinates (x east, y north) to SVG pixels (y down) with
/// one scale for both axes, so shapes keep their true proportions (a
/// regular hexagon stays regular): the plane box is fitted into the pixel
/// rectangle and centred along the slack axis.
struct ViewTransform {
    /// Pixels per plane unit, the same along x and y.
    package let scale: Double
    /// The pixel rectangle the box was fitted into.
    let rect: PixelRect
    /// Plane x at the rectangle's left edge and plane y at its top edge.
    private let left: Double, top: Double

    package init(fitting box: PlaneBox, into rect: PixelRect) {
        self.rect = rect
        let w = box.isEmpty ? 0 : box.width, h = box.isEmpty ? 0 : box.height
        let sx = w > 0 ? rect.width / w : .infinity, sy = h > 0 ? rect.height / h : .infinity
        var s = min(sx, sy)
        // A point or a line has no extent along an axis: pick a scale that
        // shows one plane unit (or the other axis' extent) sensibly.
        if !s.isFinite || s <= 0 { s = 1 }
        scale = s
        let cx = box.isEmpty ? 0 : (box.minX + box.maxX) / 2
        let cy = box.isEmpty ? 0 : (box.minY + box.maxY) / 2
        left = cx - rect.width / 2 / s
        top = cy + rect.height / 2 / s
    }

    /// The pixel position of a plane point.
    package func pixel(_ p: PlanePoint) -> (x: Double, y: Double) {
        (rect.x + (p.x - left) * scale, rect.y + (top - p.y) * scale)
    }

    /// The plane region the whole pixel rectangle shows.
    var planeBox: PlaneBox {
        PlaneBox(minX: left, minY: top - rect.height / scale, maxX: left + rect.width / scale, maxY: top)
    }
}
