import Foundation
import HeatMapContouring
import HeatMapCore
import HeatMapDensity

/// Points binned into cells: the bins in row-major id order, with what is
/// needed to place them on a map.
public struct BinningResult: Sendable {
    /// The grid in the binning plane.
    public let grid: BinGrid
    /// The projection from coordinates to the binning plane.
    public let projection: PlaneProjection
    /// The cells, occupied ones (and empty ones when asked for), sorted by
    /// id: by r (or j), then q (or i).
    public let bins: [Bin]
    /// Points binned and points left out (with why).
    public let summary: InputSummary
    /// The box of the binned points in the binning plane.
    public let bounds: PlaneBox

    /// Creates a result from its parts.
    public init(grid: BinGrid, projection: PlaneProjection, bins: [Bin], summary: InputSummary, bounds: PlaneBox) {
        self.grid = grid
        self.projection = projection
        self.bins = bins
        self.summary = summary
        self.bounds = bounds
    }

    /// The number of points binned (Σ count).
    public var pointCount: Int { summary.used }

    /// The centre of a bin in output coordinates: [longitude, latitude]
    /// degrees with longitude wrapped into [-180, 180) for geographic
    /// input, the plane x/y for planar input (as x = longitude, y = latitude).
    public func outputCenter(of bin: Bin) -> LocationCoordinate2D {
        let c = projection.unproject(bin.center)
        guard projection.isGeographic else { return c }
        return LocationCoordinate2D(latitude: c.latitude, longitude: LongitudeArc.normalized(c.longitude))
    }

    /// The smallest and largest defined value of `aggregate` over the
    /// bins, nil when none is defined. O(bins).
    public func valueRange(_ aggregate: BinAggregate) -> ClosedRange<Double>? {
        var lo = Double.infinity, hi = -Double.infinity
        for bin in bins {
            guard let v = bin.statistics.value(aggregate) else { continue }
            lo = min(lo, v); hi = max(hi, v)
        }
        return lo <= hi ? lo...hi : nil
    }
}
