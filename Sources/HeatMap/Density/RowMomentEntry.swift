import Foundation

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
    /// w · e^(−s²/2).
    let weight: Double
    /// The nearest row (may lie up to a table half-width off the grid).
    let row: Int32
    /// The nearest column.
    let column: Int32
    /// Column offset in σ: the moments' variable.
    let s: Float
    /// Row offset in cells, for the table of row weights.
    let u: Float

    init(row: Int32, column: Int32, s: Float, u: Float, weight: Double) {
        self.weight = weight
        self.row = row
        self.column = column
        self.s = s
        self.u = u
    }

    static var hasValue: Bool { false }
    init(_ point: RowMomentPoint, value: Double) { self = point }
    var point: RowMomentPoint { self }
    var value: Double { 0 }
}

/// The entry of a point with a value (mean estimator).
struct RowMomentValuePoint: RowMomentEntry {
    static var hasValue: Bool { true }
    let point: RowMomentPoint
    let value: Double

    init(_ point: RowMomentPoint, value: Double) {
        self.point = point
        self.value = value
    }
}
