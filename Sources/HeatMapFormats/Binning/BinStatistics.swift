import Foundation
import HeatMapContouring
import HeatMapCore
import HeatMapDensity

/// Which per-cell figure a bin's `value` (and colour) is.
public enum BinAggregate: String, Sendable, Hashable, CaseIterable, Codable {
    /// The number of points.
    case count
    /// Σ value.
    case sum
    /// Σ value / count.
    case mean
    /// The smallest value.
    case min
    /// The largest value.
    case max
}

/// What one cell holds: the number of points and the sum, minimum and
/// maximum of their values (a value column, or the weights).
public struct BinStatistics: Sendable, Hashable {
    /// The number of points in the cell.
    public var count: Int
    /// Σ value (0 for an empty cell).
    public var sum: Double
    // ±∞ while empty, so that merging needs no branch.
    var low: Double
    var high: Double

    /// An empty cell.
    public static let empty = BinStatistics(count: 0, sum: 0, low: .infinity, high: -.infinity)

    package init(count: Int, sum: Double, low: Double, high: Double) {
        self.count = count
        self.sum = sum
        self.low = low
        self.high = high
    }

    /// The smallest value, nil for an empty cell.
    public var minimum: Double? { count > 0 ? low : nil }
    /// The largest value, nil for an empty cell.
    public var maximum: Double? { count > 0 ? high : nil }
    /// sum / count, nil for an empty cell.
    public var mean: Double? { count > 0 ? sum / Double(count) : nil }

    /// The figure of `aggregate`: count and sum are 0 for an empty cell;
    /// mean, min and max are nil there (undefined).
    public func value(_ aggregate: BinAggregate) -> Double? {
        switch aggregate {
        case .count: return Double(count)
        case .sum: return sum
        case .mean: return mean
        case .min: return minimum
        case .max: return maximum
        }
    }

    /// Adds one value.
    public mutating func add(_ value: Double) {
        count += 1
        sum += value
        low = Swift.min(low, value)
        high = Swift.max(high, value)
    }

    /// Adds another cell's points.
    public mutating func merge(_ other: BinStatistics) {
        count += other.count
        sum += other.sum
        low = Swift.min(low, other.low)
        high = Swift.max(high, other.high)
    }
}

/// One output cell: its id, centre and aggregates. Corners come from the grid.
public struct Bin: Sendable, Hashable {
    /// (q, r) or (i, j).
    public let id: BinCellID
    /// The centre in the binning plane (metres for geographic input).
    public let center: PlanePoint
    /// What the cell holds.
    public let statistics: BinStatistics
    /// The grid the cell belongs to.
    public let grid: BinGrid

    /// Creates a bin of `grid`.
    public init(id: BinCellID, statistics: BinStatistics, grid: BinGrid) {
        self.id = id
        self.center = grid.center(of: id)
        self.statistics = statistics
        self.grid = grid
    }

    /// The corners (6 or 4) in the binning plane, counter-clockwise. O(1).
    public var corners: [PlanePoint] { grid.corners(of: id) }
}
