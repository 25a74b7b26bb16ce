import Foundation
import HeatMapContouring
import HeatMapCore
import HeatMapDensity

/// A place as people read it: "17.52°S, 178.95°W" (two decimals, about a
/// kilometre) for geographic planes, "x 12.5, y 40" for planar ones.
enum PlaceText {
    package static func text(_ projection: PlaneProjection, _ p: PlanePoint) -> String {
        guard projection.isGeographic else {
            return "x " + HeatMapNumberFormat.string(p.x, significantDigits: 6)
                + ", y " + HeatMapNumberFormat.string(p.y, significantDigits: 6)
        }
        let c = projection.unproject(p)
        let lon = LongitudeArc.normalized(c.longitude)
        return NumberText.fixed(abs(c.latitude), decimals: 2) + "°" + (c.latitude < 0 ? "S" : "N") + ", "
            + NumberText.fixed(abs(lon), decimals: 2) + "°" + (lon < 0 ? "W" : "E")
    }
}
