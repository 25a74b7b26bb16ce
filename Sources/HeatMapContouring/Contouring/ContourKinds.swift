import HeatMapCore
import HeatMapDensity

/// Which kinds of contour geometry `ContourBuilder` assembles, chosen
/// before computing: an export that writes bands never pays for levels or
/// isolines.
///
/// ```swift
/// let set = try ContourBuilder.build(grid: grid, thresholds: t, smoother: .chaikin(iterations: 2),
///                                    kinds: .bands)   // set.levels and set.isolines stay empty
/// ```
public struct ContourKinds: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8

    /// Creates a set of kinds from its bits.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// ``ContourSet/bands``.
    public static let bands = ContourKinds(rawValue: 1 << 0)
    /// ``ContourSet/levels``.
    public static let levels = ContourKinds(rawValue: 1 << 1)
    /// ``ContourSet/isolines``.
    public static let isolines = ContourKinds(rawValue: 1 << 2)
    /// The bands as ``HeatMapPolygon``s in latitude/longitude
    /// (`HeatMapContours.contours`) with their hit-test index, made by
    /// `HeatMapContours.compute` before it returns (what an app draws and
    /// taps). An export that writes the plane geometry leaves it out and
    /// never pays for it; the contour builder ignores it.
    public static let polygons = ContourKinds(rawValue: 1 << 3)
    /// Every kind.
    public static let all: ContourKinds = [.bands, .levels, .isolines, .polygons]

    /// The kind an export of `mode` writes.
    public init(_ mode: ContourMode) {
        switch mode {
        case .bands: self = .bands
        case .levels: self = .levels
        case .isolines: self = .isolines
        }
    }
}
