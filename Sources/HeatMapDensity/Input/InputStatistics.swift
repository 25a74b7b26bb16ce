import Foundation
import HeatMapCore

/// What one pass over the points learns, in O(1) memory (plus a fixed
/// 3600-bin longitude table): enough to fit the projection and the
/// `auto` radius before a second pass projects and accumulates.
package struct InputStatistics: Sendable {
    /// Points counted.
    package private(set) var count = 0
    /// Smallest and largest latitude (planar y).
    package private(set) var minLatitude = Double.infinity, maxLatitude = -Double.infinity
    /// Smallest and largest longitude as given (planar x).
    package private(set) var minLongitude = Double.infinity, maxLongitude = -Double.infinity
    /// Σ weight.
    package private(set) var totalWeight = 0.0
    /// Points with a weight above zero.
    package private(set) var weightedCount = 0
    /// Smallest and largest value (mean estimator); ±infinity when none.
    package private(set) var minValue = Double.infinity, maxValue = -Double.infinity
    private var firstLatitude = Double.nan, firstLongitude = Double.nan
    /// Whether every point has the same coordinate (true for 0 or 1 points).
    package private(set) var allIdentical = true
    private var bins = LongitudeBins()

    /// Empty statistics.
    package init() {}

    /// Counts one point.
    @inline(__always)
    package mutating func add(_ p: InputPoint) {
        count += 1
        minLatitude = min(minLatitude, p.latitude); maxLatitude = max(maxLatitude, p.latitude)
        minLongitude = min(minLongitude, p.longitude); maxLongitude = max(maxLongitude, p.longitude)
        totalWeight += p.weight
        if p.weight > 0 { weightedCount += 1 }
        if !p.value.isNaN {
            minValue = min(minValue, p.value); maxValue = max(maxValue, p.value)
        }
        if count == 1 {
            firstLatitude = p.latitude
            firstLongitude = p.longitude
        } else if allIdentical && (firstLatitude != p.latitude || firstLongitude != p.longitude) {
            allIdentical = false
        }
        bins.add(p.longitude)
    }

    /// The smallest longitude arc holding every point (``LongitudeArc/smallest(containing:)``);
    /// nil when empty.
    package var longitudeArc: LongitudeArc? { bins.smallestArc() }

    /// The projection of `kind` centred as ``PlaneProjection/fitted(_:to:)``
    /// centres it: the middle of the latitudes and of the smallest arc.
    package func projection(_ kind: MapProjection) -> PlaneProjection {
        PlaneProjection.centred(kind, latitudes: minLatitude, maxLatitude, arc: longitudeArc)
    }
}
