import HeatMapContouring
import HeatMapCore
import HeatMapDensity

/// What writing a result's contours as GeoJSON needs of it: the contours
/// (as pieces or a set), and how to place, label and colour them — but not
/// its density grid, so a writer that streams a large export can let the
/// grid go before it starts.
package struct GeoJSONContours: Sendable {
    package let source: any ContourSource
    package let projection: PlaneProjection
    package let units: String
    package let gradient: HeatMapGradient
    package let fillOpacity: Double

    /// The parts of `contours` an export uses.
    package init(_ contours: HeatMapContours) {
        source = contours.source
        projection = contours.projection
        units = contours.units
        gradient = contours.gradient
        fillOpacity = contours.fillOpacity
    }
}
