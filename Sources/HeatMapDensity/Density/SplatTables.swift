import Foundation
import HeatMapCore

/// What the tabulated exact splat needs: kernel tables along both axes and,
/// per row offset j from the nearest row, how many columns either side of
/// the nearest column the disc of radius `reach` can reach (a point sits up
/// to half a cell off its nearest node).
final class SplatTables: @unchecked Sendable {
    package let x: GaussianTable
    package let y: GaussianTable
    /// Per row offset j (0..<y.width): columns either side, or −1 for none.
    private let chord: UnsafeMutablePointer<Int>

    /// The tables seen through plain values, valid while they live.
    struct View {
        package let x: GaussianTable.Lookup
        package let y: GaussianTable.Lookup
        /// Per row offset j (0..<y.width): columns either side, or −1 for none.
        let chord: UnsafePointer<Int>
    }

    package var view: View { View(x: x.lookup, y: y.lookup, chord: UnsafePointer(chord)) }

    /// Tables for the axes, or nil when the kernel is narrower than a
    /// 64th of a cell (the table would need too many intervals) or wider
    /// than the tables allow.
    package init?(xAxis: GaussianAxis, yAxis: GaussianAxis) {
        guard xAxis.sigma >= xAxis.step / 64, yAxis.sigma >= yAxis.step / 64,
            GaussianTable.fits(xAxis), GaussianTable.fits(yAxis)
        else { return nil }
        let x = GaussianTable(axis: xAxis), y = GaussianTable(axis: yAxis)
        self.x = x
        self.y = y
        let reach = xAxis.reach
        let hx = x.half, hy = y.half
        chord = .allocate(capacity: y.width)
        for j in 0..<y.width {
            let dy = max(0, Double(abs(j - hy)) - 0.5) * yAxis.step
            let left = reach * reach - dy * dy
            chord[j] = left < 0 ? -1 : min(hx, Int((left.squareRoot() / xAxis.step + 0.5).rounded(.down)))
        }
    }

    deinit { chord.deallocate() }
}
