import Foundation
import HeatMapCore

/// A point as the row-moment deposit keeps it between the sort and the
/// deposit: a ``RowMomentPoint`` and, for the mean estimator, its value.
protocol RowMomentEntry: BitwiseCopyable {
    /// Whether the entry carries a value (mean estimator).
    static var hasValue: Bool { get }
    init(_ point: RowMomentPoint, value: Double)
    var point: RowMomentPoint { get }
    /// The point's value, 0 without one.
    var value: Double { get }
}

/// A point's nearest node, its offsets from it in the moments' units and
/// its kernel weight: the entry of a density point.
///
/// The offsets are `Float`: |s|, |u| ≤ ½, so they are kept within 3e−8 of
/// a cell, and the entry fits in 24 bytes (the sort moves each entry once
/// and the deposit reads it once).
struct RowMomentPoint: RowMomentEntry {
    /// The nearest row (may lie up to a table half-width off the grid) and
    /// the nearest column.
    package let row, column: Int32
    /// The offsets from that node: s, the row offset in σ (the moments'
    /// variable); u, the column offset in cells (for the table of column
    /// weights).
    package let s, u: Float
    /// w · e^(−s²/2).
    package let weight: Double
}

extension RowMomentPoint {
    static var hasValue: Bool { false }
    package init(_ point: RowMomentPoint, value: Double) { self = point }
    package var point: RowMomentPoint { self }
    package var value: Double { 0 }
}

/// The entry of a point with a value (mean estimator).
struct RowMomentValuePoint: RowMomentEntry {
    static var hasValue: Bool { true }
    package let point: RowMomentPoint
    package let value: Double

    package init(_ point: RowMomentPoint, value: Double) {
        self.point = point
        self.value = value
    }
}
