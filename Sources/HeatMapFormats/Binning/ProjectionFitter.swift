import Foundation
import HeatMapContouring
import HeatMapCore
import HeatMapDensity

/// Fits a projection to coordinates seen one at a time, in constant memory,
/// so a tool can choose the binning plane in a first pass over a stream.
///
/// The centre is the one ``PlaneProjection/fitted(_:to:)`` picks: the middle
/// of the latitudes and the middle of the smallest longitude arc holding
/// every longitude (``LongitudeArc/smallest(containing:)``, found from the
/// same 0.1° bins).
struct ProjectionFitter: Sendable {
    private var latitudeLow = Double.infinity
    private var latitudeHigh = -Double.infinity
    private var bins = LongitudeBins()

    /// Creates an empty fitter.
    package init() {}

    /// Whether no coordinate has been added.
    package var isEmpty: Bool { latitudeLow > latitudeHigh }

    /// Takes one coordinate into account; non-finite ones are ignored. O(1).
    package mutating func add(latitude: Double, longitude: Double) {
        guard latitude.isFinite, longitude.isFinite else { return }
        latitudeLow = min(latitudeLow, latitude)
        latitudeHigh = max(latitudeHigh, latitude)
        bins.add(longitude)
    }

    /// The smallest longitude arc holding every longitude added, nil if none.
    package var longitudeArc: LongitudeArc? { bins.smallestArc() }

    /// A projection of `kind` centred on the coordinates added (centred on
    /// (0, 0) when there were none).
    package func projection(_ kind: MapProjection) -> PlaneProjection {
        PlaneProjection.centred(kind, latitudes: latitudeLow, latitudeHigh, arc: longitudeArc)
    }
}
