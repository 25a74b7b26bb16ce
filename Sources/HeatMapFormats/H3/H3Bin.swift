import Foundation
import HeatMapContouring
import HeatMapCore
import HeatMapDensity

/// One H3 cell of a binning: the cell and what its points add up to.
public struct H3Bin: Sendable, Hashable {
    /// The cell.
    public let cell: H3Cell
    /// Count, sum, min and max of the cell's values (weights, or a value column).
    public let statistics: BinStatistics
    /// The cell's exact area, km² (authalic sphere, as the reference's `cell_area`).
    public let areaKm2: Double

    /// Creates a bin; computes the cell's area. O(1).
    public init(cell: H3Cell, statistics: BinStatistics) {
        self.cell = cell
        self.statistics = statistics
        self.areaKm2 = cell.areaKm2
    }

    /// Σ value per km² (the count per km² when every value is 1).
    public var density: Double { statistics.sum / areaKm2 }
}
