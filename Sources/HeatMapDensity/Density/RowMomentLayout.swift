import Foundation
import HeatMapCore

/// Where the row-moment method (``RowMomentBinning``) keeps its moments.
///
/// For each grid row, `planes` runs of `stride` doubles: moment k of
/// channel ch is plane ch·(M + 1) + k. A run holds the row's columns with
/// `leftPad` columns before them and at least `span` after, so that a
/// point's whole table width lands without clipping, even for a point whose
/// nearest column lies a table half-width off the grid; the pass that
/// convolves the rows reads only the grid's columns. After all rows, one
/// double per row: nonzero once a point has landed in it. Only the flags
/// start out zero: a row is cleared when its first point lands, while it
/// is about to be in cache anyway, and the pass reads flagged rows only.
struct RowMomentLayout: Sendable {
    package let rows: Int
    package let columns: Int
    /// Taylor order M (M + 1 moments per channel).
    package let order: Int
    /// 1 (density) or 2 (mean estimator: a value channel too).
    let channels: Int
    /// J: columns a point writes on each side of its nearest one.
    package let half: Int
    /// Columns a point writes: 2J + 1 rounded up to whole vectors of two
    /// (the width of the machine's vector registers on baseline x86-64).
    package let span: Int
    /// Columns before column 0 in each run: 2J.
    package let leftPad: Int
    /// Doubles per run.
    package let stride: Int

    package init(xAxis: GaussianAxis, rows: Int, order: Int, channels: Int) {
        self.rows = rows
        columns = xAxis.count
        self.order = order
        self.channels = channels
        half = GaussianTable.half(of: xAxis)
        span = (2 * half + 2) / 2 * 2
        leftPad = 2 * half
        // Room for the span of a point J columns right of the last column,
        // and for the pass's vectors of eight past the last column.
        stride = (leftPad + columns + max(span, 8) + 7) / 8 * 8
    }

    /// Moments per channel: M + 1.
    var moments: Int { order + 1 }
    /// Runs per row.
    var planes: Int { moments * channels }
    /// Doubles per row.
    var rowStride: Int { planes * stride }
    /// Where the row flags start.
    var flagsOffset: Int { rows * rowStride }
    /// Doubles in all.
    package var count: Int { flagsOffset + rows }

    /// Offset of column 0 of `plane` in `row`.
    @inline(__always) package func offset(row: Int, plane: Int) -> Int {
        row &* rowStride &+ plane &* stride &+ leftPad
    }
}
