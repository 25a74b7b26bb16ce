import Foundation
import Testing

@testable import HeatMapDensity

/// The coarse grid of the widest radius classes and its interpolation back
/// to the grid's nodes.
@Suite struct CoarseGridTests {
    @Test(arguments: [7, 8])
    func theCoarseAxisHasTwiceTheStepAndCoversEveryTap(count: Int) {
        let fine = GaussianAxis(origin: 3, step: 0.5, count: count, sigma: 1, reach: 3)
        let coarse = CoarseGrid.axis(over: fine)
        #expect(coarse.step == 1)
        #expect(coarse.origin == 2)
        for i in 0..<count {
            let first = CoarseGrid.tap(i)
            if i % 2 == 0 {
                // On a coarse node.
                #expect(coarse.origin + Double(first) * coarse.step == fine.origin + Double(i) * fine.step)
            } else {
                // The middle of the four taps.
                #expect(coarse.origin + (Double(first) + 1.5) * coarse.step == fine.origin + Double(i) * fine.step)
                #expect(first >= 0 && first + 3 < coarse.count)
            }
        }
    }

    /// Cubic Lagrange interpolation is exact for a cubic: a cubic in x and y
    /// sampled on the coarse grid comes back as the cubic on the fine one.
    @Test func aBicubicComesBackExactly() {
        let columns = 9, rows = 6
        let coarseColumns = (columns - 1) / 2 + 4, coarseRows = (rows - 1) / 2 + 4
        // Fine index i sits at coarse position i / 2 + 1.
        func f(_ u: Double, _ v: Double) -> Double { 2 + u - 0.5 * u * u * u + v * v * u - 0.25 * v * v * v }
        var coarse = [Double](repeating: 0, count: coarseRows * coarseColumns)
        for j in 0..<coarseRows {
            for i in 0..<coarseColumns { coarse[j * coarseColumns + i] = f(Double(i), Double(j)) }
        }
        var expanded = [Double](repeating: 0, count: coarseRows * columns)
        coarse.withUnsafeBufferPointer { c in
            expanded.withUnsafeMutableBufferPointer { e in
                for j in 0..<coarseRows {
                    CoarseGrid.expand(
                        c.baseAddress! + j * coarseColumns, into: e.baseAddress! + j * columns, count: columns)
                }
            }
        }
        var row = [Double](repeating: 0, count: columns)
        for r in 0..<rows {
            expanded.withUnsafeBufferPointer { e in
                row.withUnsafeMutableBufferPointer {
                    CoarseGrid.blend(row: r, of: e.baseAddress!, count: columns, into: $0.baseAddress!)
                }
            }
            for i in 0..<columns {
                let expected = f(Double(i) / 2 + 1, Double(r) / 2 + 1)
                #expect(abs(row[i] - expected) < 1e-12, "(\(i), \(r)): \(row[i]) against \(expected)")
            }
        }
    }
}
