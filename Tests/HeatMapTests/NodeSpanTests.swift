import Foundation
import Testing

@testable import HeatMapCore
@testable import HeatMapDensity

/// The nodes within a reach by rounding to nearest (``NodeSpan``) against
/// floor and ceiling.
@Suite struct NodeSpanTests {
    @Test func roundsToNearestWithTiesToEven() {
        #expect(NodeSpan.rounded(3.7 as Double) == 4)
        #expect(NodeSpan.rounded(-1.3 as Double) == -1)
        #expect(NodeSpan.rounded(-1.7 as Double) == -2)
        #expect(NodeSpan.rounded(2.5 as Double) == 2)
        #expect(NodeSpan.rounded(3.5 as Double) == 4)
        #expect(NodeSpan.rounded(-2.5 as Double) == -2)
        #expect(NodeSpan.rounded(0 as Double) == 0)
        #expect(NodeSpan.rounded(1e15 + 0.75) == 1_000_000_000_000_001)
    }

    /// The single-precision rounding the quartic's sort finds last nodes by.
    @Test func roundsFloatsToNearestWithTiesToEven() {
        #expect(NodeSpan.rounded(3.7 as Float) == 4)
        #expect(NodeSpan.rounded(-1.7 as Float) == -2)
        #expect(NodeSpan.rounded(2.5 as Float) == 2)
        #expect(NodeSpan.rounded(-2.5 as Float) == -2)
        #expect(NodeSpan.rounded(0 as Float) == 0)
        #expect(NodeSpan.rounded(4_000_000.75 as Float) == 4_000_001)
    }

    @Test func floorsAndNearestNodesAreExactAtTies() {
        #expect(NodeSpan.floor(2.5) == 2)
        #expect(NodeSpan.floor(3.5) == 3)
        #expect(NodeSpan.floor(-2.5) == -3)
        #expect(NodeSpan.floor(4) == 4)
        #expect(NodeSpan.floor(-0.0001) == -1)
        let axis = GaussianAxis(origin: 0, step: 1, count: 10, sigma: 1, reach: 3)
        for position in stride(from: -4.0, through: 13, by: 0.25) {
            #expect(NodeSpan.nearest(to: position, count: 10) == axis.nearest(position), "\(position)")
        }
    }

    @Test func spansAreTheNodesWithinTheReachClampedToTheAxis() {
        #expect(NodeSpan.span(around: 5.3, reach: 2, count: 10) == (4, 7))
        #expect(NodeSpan.span(around: 0.2, reach: 3, count: 3) == (0, 2))
        #expect(NodeSpan.span(around: 9.5, reach: 6.01, count: 12) == (4, 11))
        // A disc between nodes: no node.
        let between = NodeSpan.span(around: 4.5, reach: 0.3, count: 10)
        #expect(between.lo > between.hi)
        // Wholly off the axis: none.
        let off = NodeSpan.span(around: -2.5, reach: 1, count: 5)
        #expect(off.lo > off.hi)
    }

    @Test func agreesWithFloorAndCeilingAwayFromTheEdgeNodes() {
        var rng = SplitMixGenerator(seed: 5)
        for _ in 0..<10_000 {
            let position = Double.random(in: -20...1100, using: &rng)
            let reach = Double.random(in: 0.1...40, using: &rng)
            let lo = max(Int((position - reach).rounded(.up)), 0)
            let hi = min(Int((position + reach).rounded(.down)), 1023)
            #expect(NodeSpan.span(around: position, reach: reach, count: 1024) == (lo, hi))
        }
    }

    @Test func aNodeAtExactlyTheReachMayFallEitherSide() {
        // 3 − 2 and 3 + 2 are nodes at exactly the reach.
        let span = NodeSpan.span(around: 3, reach: 2, count: 10)
        #expect(span.lo == 1 || span.lo == 2)
        #expect(span.hi == 4 || span.hi == 5)
    }
}
