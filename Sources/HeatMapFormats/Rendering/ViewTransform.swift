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
///
/// With a ``PlaneWarp`` the picture is drawn in the warp's target plane
/// (Web Mercator under map tiles): points of the data's plane are warped,
/// then scaled.
struct ViewTransform {
    /// Pixels per unit of the plane drawn in (the warp's target, or the data's), the same along x and y.
    package let scale: Double
    /// The pixel rectangle the box was fitted into.
    let rect: PixelRect
    /// The data plane to the plane drawn in, or nil when they are one.
    let warp: PlaneWarp?
    /// Plane x at the rectangle's left edge and plane y at its top edge
    /// (in the plane drawn in).
    private let left: Double, top: Double

    package init(fitting box: PlaneBox, into rect: PixelRect, warp: PlaneWarp? = nil) {
        self.rect = rect
        self.warp = warp
        let box = warp.map { w in PlaneWarp.box(box) { w($0) } } ?? box
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

    /// The pixel position of a data-plane point.
    package func pixel(_ p: PlanePoint) -> (x: Double, y: Double) {
        let q = warp.map { $0(p) } ?? p
        return (rect.x + (q.x - left) * scale, rect.y + (top - q.y) * scale)
    }

    /// The region the whole pixel rectangle shows, in the plane drawn in.
    var drawnBox: PlaneBox {
        PlaneBox(minX: left, minY: top - rect.height / scale, maxX: left + rect.width / scale, maxY: top)
    }

    /// The data-plane region the whole pixel rectangle shows (the box
    /// around it, when the picture is warped).
    var planeBox: PlaneBox {
        guard let warp else { return drawnBox }
        return PlaneWarp.box(drawnBox) { warp.inverse($0) }
    }
}
