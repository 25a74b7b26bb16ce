import Foundation

/// A point as the row-moment deposit keeps it between the sort and the
/// deposit: its nearest node, its offsets from it in the moments' units and
/// its kernel weight (and, for the mean estimator, its value).
///
/// The offsets are `Float`: |s|, |u| ≤ ½, so they are kept within 3e−8 of
/// a cell, and the entry of a plain density point fits in 24 bytes (the
/// sort moves each entry once and the deposit reads it once).
protocol RowMomentEntry: BitwiseCopyable {
    /// Whether the entry carries a value (mean estimator).
    static var hasValue: Bool { get }
    init(row: Int32, column: Int32, s: Float, u: Float, weight: Double, value: Double)
    /// The nearest row (may lie up to a table half-width off the grid) and column.
    var row: Int32 { get }
    var column: Int32 { get }
    /// Column offset in σ: the moments' variable.
    var s: Float { get }
    /// Row offset in cells, for the table of row weights.
    var u: Float { get }
    /// w · e^(−s²/2).
    var weight: Double { get }
    /// The point's value, 0 without one.
    var value: Double { get }
}

/// The entry of a density point.
struct RowMomentPoint: RowMomentEntry {
    static var hasValue: Bool { false }
    let weight: Double
    let row: Int32
    let column: Int32
    let s: Float
    let u: Float
    var value: Double { 0 }

    init(row: Int32, column: Int32, s: Float, u: Float, weight: Double, value: Double) {
        self.weight = weight
        self.row = row
        self.column = column
        self.s = s
        self.u = u
    }
}

/// The entry of a point with a value (mean estimator).
struct RowMomentValuePoint: RowMomentEntry {
    static var hasValue: Bool { true }
    let weight: Double
    let value: Double
    let row: Int32
    let column: Int32
    let s: Float
    let u: Float

    init(row: Int32, column: Int32, s: Float, u: Float, weight: Double, value: Double) {
        self.weight = weight
        self.value = value
        self.row = row
        self.column = column
        self.s = s
        self.u = u
    }
}
