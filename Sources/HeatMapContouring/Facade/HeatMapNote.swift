import HeatMapCore
import HeatMapDensity

/// Why a result may not be the map its caller expects, found while it was
/// computed (``HeatMapContours/notes``): no usable points, nothing to
/// weigh, a single kernel, no level inside the grid's range, or weight
/// the equal-area grid could not hold. The tool says the same on standard
/// error; both ask the rules here.
public enum HeatMapNote: Sendable, Hashable, CustomStringConvertible {
    /// No point was usable: none given, or all `leftOut` were left out
    /// (``InputSummary/rejected`` says why).
    case noPoints(leftOut: Int)
    /// Every one of `points` weighs 0: the density is 0 everywhere.
    case allWeightsZero(points: Int)
    /// One point, or all `points` at one place: the map is one kernel round it.
    case onePlace(points: Int)
    /// The grid holds one value everywhere: there are no contours.
    case flatGrid
    /// The level spacing placed no threshold inside the grid's range
    /// `minimum … maximum` (custom values outside it, probability shares
    /// whose regions are smaller than a cell).
    case noLevelInRange(minimum: Double, maximum: Double)
    /// The equal-area grid holds only `heldShare` (under 0.99) of the
    /// weight: within `degrees` of (`latitude`, `longitude`), the antipode
    /// of the plane's centre, it holds no density (a finer grid narrows it).
    case weightOutsideGrid(heldShare: Double, latitude: Double, longitude: Double, degrees: Double)

    public var description: String {
        func n(_ v: Double) -> String { HeatMapNumberFormat.string(v) }
        switch self {
        case .noPoints(let leftOut):
            return leftOut == 0
                ? "no points; the result is empty" : "no usable points (all \(leftOut) left out); the result is empty"
        case .allWeightsZero(let points):
            return "all \(points) weights are zero; the density is zero everywhere and there are no contours"
        case .onePlace(let points):
            return points == 1
                ? "only one point; the map is a single kernel around it"
                : "all \(points) points are at the same place; the map is a single kernel around it"
        case .flatGrid:
            return "the grid is flat (no value above its minimum); there are no contours"
        case .noLevelInRange(let minimum, let maximum):
            return "no level lies inside the grid's range \(n(minimum)) … \(n(maximum)); there are no contours"
        case .weightOutsideGrid(let held, let latitude, let longitude, let degrees):
            return
                "the grid holds \(n(100 * held)) % of the weight: within \(n(degrees))° of \(n(latitude)), \(n(longitude)) "
                + "(the antipode of the equal-area plane's centre, its rim) it holds no density"
        }
    }

    /// Whether the note says why a grid has no contours (no points, or
    /// nothing weighed), so that a flat grid needs no note of its own.
    var explainsAFlatGrid: Bool {
        switch self {
        case .noPoints, .allWeightsZero: return true
        default: return false
        }
    }

    /// The note on points, if any: `count` used, `weighted` of them with a
    /// weight above 0, whether all lie at one place, and how many were
    /// left out.
    package static func points(count: Int, weighted: Int, atOnePlace: Bool, leftOut: Int) -> HeatMapNote? {
        if count == 0 { return .noPoints(leftOut: leftOut) }
        if weighted == 0 { return .allWeightsZero(points: count) }
        if count == 1 || atOnePlace { return .onePlace(points: count) }
        return nil
    }

    /// The note on a density grid's rim, if any: the share of
    /// `totalWeight` a density grid holds when the equal-area plane's rim
    /// cap keeps it under 99 %. O(nodes).
    package static func rim(_ grid: DensityGrid, totalWeight: Double) -> HeatMapNote? {
        // The cap first: O(1), and nil for nearly every grid.
        guard grid.estimator == .density, grid.kernelValues == .density, totalWeight > 0,
            let cap = SphereRim.cap(geometry: grid.geometry, projection: grid.projection),
            grid.maximum > grid.minimum
        else { return nil }
        let g = grid.geometry
        var sum = 0.0
        for v in grid.values where v > 0 { sum += v }
        let held = sum * g.dx * g.dy / grid.projection.areaUnitScale / totalWeight
        guard held < 0.99 else { return nil }
        return .weightOutsideGrid(
            heldShare: held, latitude: cap.latitude, longitude: cap.longitude, degrees: cap.degrees)
    }

    /// The note on levels, if any: none placed on a grid with values
    /// (`.noLevelInRange`), or a flat grid.
    package static func levels(_ thresholds: [Double], grid: DensityGrid) -> HeatMapNote? {
        guard thresholds.isEmpty else { return nil }
        return grid.maximum > grid.minimum ? .noLevelInRange(minimum: grid.minimum, maximum: grid.maximum) : .flatGrid
    }
}
