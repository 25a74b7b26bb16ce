import Foundation
import HeatMapContouring
import HeatMapCore
import HeatMapDensity

extension H3Cell {
    /// The reference's average hexagon edge length per resolution, km
    /// (an edge equals the centre-to-corner radius of a regular hexagon).
    public static let averageEdgeKm: [Double] = [
        1107.712591, 418.6760055, 158.2446558, 59.81085794, 22.6063794, 8.544408276, 3.229482772, 1.220629759,
        0.461354684, 0.174375668, 0.065907807, 0.024910561, 0.009415526, 0.003559893, 0.001348575, 0.000509713
    ]

    /// The resolution whose average edge is nearest `edgeKm` (on a log
    /// scale), clamped to 0...15; 0 for a size that is not a finite number > 0.
    public static func resolution(nearestEdgeKm edgeKm: Double) -> Int {
        guard edgeKm.isFinite, edgeKm > 0 else { return 0 }
        var best = 0
        var bestGap = Double.infinity
        for (r, e) in averageEdgeKm.enumerated() {
            let gap = abs(log(e / edgeKm))
            if gap < bestGap {
                bestGap = gap
                best = r
            }
        }
        return best
    }
}
