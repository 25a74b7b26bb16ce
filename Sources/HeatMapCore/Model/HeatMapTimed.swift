import Foundation

/// A point that happened at a time (a storm fix, a sighting, a sensor
/// reading), for maps over time (``HeatMapTimeline``).
public protocol HeatMapTimed: HeatMapable {
    /// When the point happened.
    var time: Date { get }
}
