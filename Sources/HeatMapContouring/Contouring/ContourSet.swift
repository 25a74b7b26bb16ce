import Foundation
import HeatMapCore
import HeatMapDensity

/// Which geometry a contour export holds.
public enum ContourMode: String, Sendable, Hashable, CaseIterable, Codable {
    /// Band i: thresholds[i] ≤ value < thresholds[i + 1] (the top band is unbounded).
    case bands
    /// Level i: value ≥ thresholds[i], nested as d3-contour returns them.
    case levels
    /// The boundary lines of each level.
    case isolines
}

/// The contours of one grid at a list of thresholds, in the plane.
///
/// All three kinds are kept so a caller can pick one without recomputing.
/// Rings shared by neighbouring bands are the very same vertices.
public struct ContourSet: Sendable {
    /// Ascending thresholds, one per level.
    public var thresholds: [Double]
    /// Superlevel-set polygons of each level.
    public var levels: [[PlanePolygon]]
    /// Band polygons of each level.
    public var bands: [[PlanePolygon]]
    /// Closed boundary rings of each level (open arrays, last joins first):
    /// the exteriors and holes of ``levels``, so a ring that reaches the
    /// grid's edge follows the frame back (docs/contour-rules.md).
    public var isolines: [[[PlanePoint]]]

    /// Creates a contour set from its parts.
    public init(thresholds: [Double], levels: [[PlanePolygon]], bands: [[PlanePolygon]], isolines: [[[PlanePoint]]]) {
        self.thresholds = thresholds
        self.levels = levels
        self.bands = bands
        self.isolines = isolines
    }

    /// The polygons of `mode` (isolines give no polygons).
    public func polygons(_ mode: ContourMode) -> [[PlanePolygon]] {
        switch mode {
        case .bands: return bands
        case .levels: return levels
        case .isolines: return []
        }
    }
}
