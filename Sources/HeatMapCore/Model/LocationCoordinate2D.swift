#if canImport(CoreLocation)
    import CoreLocation

    /// A geographic coordinate; on Apple platforms the CoreLocation type itself.
    public typealias LocationCoordinate2D = CLLocationCoordinate2D
#else
    import Foundation

    /// A geographic coordinate in degrees (WGS 84), the Linux stand-in for
    /// CoreLocation's `CLLocationCoordinate2D`.
    ///
    /// For planar data (`MapProjection.planar`) `longitude` carries x and
    /// `latitude` carries y, in the data's own units.
    public struct LocationCoordinate2D: Sendable, Hashable, Codable {
        /// Degrees north of the equator (or y for planar data).
        public var latitude: Double
        /// Degrees east of Greenwich (or x for planar data).
        public var longitude: Double

        /// Creates a coordinate from latitude and longitude in degrees.
        public init(latitude: Double, longitude: Double) {
            self.latitude = latitude
            self.longitude = longitude
        }

        /// Creates the coordinate (0, 0).
        public init() {
            self.init(latitude: 0, longitude: 0)
        }
    }

    /// The CoreLocation name, so code written for Apple platforms compiles unchanged.
    public typealias CLLocationCoordinate2D = LocationCoordinate2D
#endif
