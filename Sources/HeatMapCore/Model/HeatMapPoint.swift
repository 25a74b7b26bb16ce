import Foundation

/// A ready-made ``HeatMapable`` and ``HeatMapMeasurable`` point.
public struct HeatMapPoint: HeatMapMeasurable, Hashable, Codable {
    /// The point's identity (its row number when read by the tool).
    public var id: Int
    /// Where the point is.
    public var coordinate: LocationCoordinate2D
    /// The point's weight (≥ 0).
    public var weight: Double
    /// The measured value for the mean estimator (defaults to the weight).
    public var value: Double

    /// Creates a point; `value` defaults to `weight`.
    public init(id: Int = 0, coordinate: LocationCoordinate2D, weight: Double = 1, value: Double? = nil) {
        self.id = id
        self.coordinate = coordinate
        self.weight = weight
        self.value = value ?? weight
    }

    /// Creates a point from latitude and longitude in degrees.
    public init(id: Int = 0, latitude: Double, longitude: Double, weight: Double = 1, value: Double? = nil) {
        self.init(
            id: id, coordinate: LocationCoordinate2D(latitude: latitude, longitude: longitude),
            weight: weight, value: value)
    }
}
