import Foundation
import HeatMapContouring
import HeatMapCore
import HeatMapDensity

/// A density grid made small for a web page, so a tap can be answered
/// with the value under it: at most `maxSide` nodes along each side,
/// each value stored as a 16-bit step of √(value / maximum) (finer steps
/// near zero, where the low thresholds lie), little-endian, in base 64.
/// 65535 marks an undefined node.
struct ValueField {
    static let maxSide = 240

    package let geometry: GridGeometry
    package let maximum: Double
    let encoded: String

    /// The field of `grid`, resampled bilinearly when it is larger; nil
    /// when the grid is empty or holds nothing above zero.
    package init?(_ grid: DensityGrid) {
        let g = grid.geometry
        let top = grid.maximum
        guard g.columns >= 2, g.rows >= 2, top > 0, top.isFinite else { return nil }
        let step = max(1, Double(max(g.columns, g.rows) - 1) / Double(ValueField.maxSide - 1))
        let columns = min(g.columns, Int((Double(g.columns - 1) / step).rounded(.down)) + 1)
        let rows = min(g.rows, Int((Double(g.rows - 1) / step).rounded(.down)) + 1)
        let dx = g.dx * Double(g.columns - 1) / Double(columns - 1)
        let dy = g.dy * Double(g.rows - 1) / Double(rows - 1)
        geometry = GridGeometry(columns: columns, rows: rows, x0: g.x0, y0: g.y0, dx: dx, dy: dy)
        maximum = top
        var bytes: [UInt8] = []
        bytes.reserveCapacity(columns * rows * 2)
        for row in 0..<rows {
            for column in 0..<columns {
                let node = geometry.node(column: column, row: row)
                // Keep the far nodes inside the grid despite rounding.
                let p = PlanePoint(
                    x: min(node.x, g.x0 + Double(g.columns - 1) * g.dx),
                    y: min(node.y, g.y0 + Double(g.rows - 1) * g.dy))
                let v = grid.value(at: p) ?? .nan
                let q: Int = v.isFinite ? Int((min(max(v / top, 0), 1).squareRoot() * 65534).rounded()) : 65535
                bytes.append(UInt8(q & 0xFF))
                bytes.append(UInt8(q >> 8))
            }
        }
        encoded = Data(bytes).base64EncodedString()
    }
}
