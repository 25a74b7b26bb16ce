import Foundation

/// What makes a point bad, worded once (docs/density-model.md#points,
/// docs/faults.md): the bounds, and the fixed reasons by which rejected
/// points are counted. The in-memory API, the density accumulator, the
/// binners and the file readers all ask here, so a reason reads the same
/// wherever a point is refused.
package enum PointRule {
    /// A field of a point.
    package enum Field: Sendable {
        case latitude, longitude, weight, value
        /// A point's own kernel radius (a radius column).
        case radius

        /// The field's name in messages: planar data has x and y.
        package func name(geographic: Bool) -> String {
            switch self {
            case .latitude: return geographic ? "latitude" : "y"
            case .longitude: return geographic ? "longitude" : "x"
            case .weight: return "weight"
            case .value: return "value"
            case .radius: return "radius"
            }
        }
    }

    /// The latitudes allowed, as messages write them.
    package static let latitudeRange = "[-90, 90]"
    /// The longitudes allowed (0–360 data too), as messages write them.
    package static let longitudeRange = "[-180, 360)"

    @inline(__always) package static func isOutside(latitude v: Double) -> Bool { v < -90 || v > 90 }
    @inline(__always) package static func isOutside(longitude v: Double) -> Bool { v < -180 || v >= 360 }

    /// The reason for a field that is not a finite number.
    package static func notFinite(_ field: Field, geographic: Bool) -> String {
        "\(field.name(geographic: geographic)) is not a finite number"
    }

    /// The widest kernel radius on the globe, in metres: half the
    /// circumference of the authalic sphere (20 015 km), the farthest two
    /// points can be apart.
    package static let widestGeographicRadius = Double.pi * AuthalicSphere.radius

    /// Whether a kernel radius is out of range: not > 0, or (on the globe)
    /// wider than ``widestGeographicRadius``.
    @inline(__always) package static func isOutside(radius v: Double, geographic: Bool) -> Bool {
        !(v > 0) || (geographic && v > widestGeographicRadius)
    }

    /// The reason for a finite value outside its field's range, or nil.
    /// Planar coordinates have no range.
    package static func outside(_ v: Double, _ field: Field, geographic: Bool) -> String? {
        switch field {
        case .latitude where geographic: return isOutside(latitude: v) ? "latitude outside \(latitudeRange)" : nil
        case .longitude where geographic: return isOutside(longitude: v) ? "longitude outside \(longitudeRange)" : nil
        case .weight: return v < 0 ? "weight is negative" : nil
        case .radius:
            if !(v > 0) { return "radius is not > 0" }
            return geographic && v > widestGeographicRadius ? "radius wider than half the globe" : nil
        default: return nil
        }
    }

    /// What is wrong with a point, first problem first (latitude, longitude,
    /// weight, value), or nil when it is good.
    @inline(__always)
    package static func problem(
        latitude: Double, longitude: Double, weight: Double, value: Double?,
        geographic: Bool
    ) -> String? {
        if !latitude.isFinite { return notFinite(.latitude, geographic: geographic) }
        if !longitude.isFinite { return notFinite(.longitude, geographic: geographic) }
        if geographic {
            if let why = outside(latitude, .latitude, geographic: true)
                ?? outside(longitude, .longitude, geographic: true)
            {
                return why
            }
        }
        if !weight.isFinite { return notFinite(.weight, geographic: geographic) }
        if let why = outside(weight, .weight, geographic: geographic) { return why }
        if let value, !value.isFinite { return notFinite(.value, geographic: geographic) }
        return nil
    }
}
