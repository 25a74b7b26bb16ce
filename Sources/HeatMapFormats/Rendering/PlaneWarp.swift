import Foundation
import HeatMapContouring
import HeatMapCore
import HeatMapDensity

/// A map from the data's plane to the plane a picture is drawn in,
/// through the coordinates: a page over Web Mercator map tiles draws
/// shapes measured in the equal-area plane where the tiles are. O(1) a
/// point.
struct PlaneWarp {
    /// The data's plane.
    let source: PlaneProjection
    /// The plane the picture is drawn in.
    let target: PlaneProjection
    private let unprojection: Unprojection, projector: PointProjector
    private let inverseUnprojection: Unprojection, inverseProjector: PointProjector

    init(from source: PlaneProjection, to target: PlaneProjection) {
        self.source = source
        self.target = target
        unprojection = Unprojection(source)
        projector = PointProjector(target)
        inverseUnprojection = Unprojection(target)
        inverseProjector = PointProjector(source)
    }

    /// Web Mercator about the data's centre meridian: the plane of XYZ
    /// map tiles, with the data in the middle of it.
    static func webMercator(from source: PlaneProjection) -> PlaneWarp {
        PlaneWarp(
            from: source,
            to: PlaneProjection(kind: .webMercator, centreLatitude: 0, centreLongitude: source.centreLongitude))
    }

    /// A data-plane point in the picture's plane.
    @inline(__always) func callAsFunction(_ p: PlanePoint) -> PlanePoint {
        let c = unprojection.coordinate(p)
        return projector.plane(latitude: c.latitude, longitude: c.longitude)
    }

    /// A picture-plane point in the data's plane.
    func inverse(_ q: PlanePoint) -> PlanePoint {
        let c = inverseUnprojection.coordinate(q)
        return inverseProjector.plane(latitude: c.latitude, longitude: c.longitude)
    }

    /// The box holding `box` mapped by `map`, from 17 points along each
    /// edge (the maps are smooth and monotone across a picture's extent).
    static func box(_ box: PlaneBox, _ map: (PlanePoint) -> PlanePoint) -> PlaneBox {
        guard !box.isEmpty else { return box }
        var out = PlaneBox.empty
        for k in 0...16 {
            let t = Double(k) / 16
            let x = box.minX + t * box.width, y = box.minY + t * box.height
            for p in [
                PlanePoint(x: x, y: box.minY), PlanePoint(x: x, y: box.maxY),
                PlanePoint(x: box.minX, y: y), PlanePoint(x: box.maxX, y: y)
            ] {
                out.formUnion(map(p))
            }
        }
        return out
    }
}
