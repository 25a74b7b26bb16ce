import HeatMapCore
import HeatMapDensity

/// The pieces of one level after smoothing, each in its own array: a
/// closed piece's array is the very ring that the level's polygon, its
/// isoline and the band below use, shared rather than copied.
struct SmoothedLevel: Sendable {
    /// Piece p's vertices (empty for removed pieces; nothing uses them).
    package var pieces: [[PlanePoint]]
    /// Chaikin passes applied to each piece.
    package var iterations: [UInt8]

    /// The pieces of `trace` smoothed `iterations[p]` times each; with
    /// `only`, just the pieces it marks (the others are left empty).
    package init(trace: LevelTrace, iterations: [UInt8], only: [Bool]? = nil, control: ComputeControl = .none) throws {
        self.iterations = iterations
        pieces = []
        pieces.reserveCapacity(trace.pieceCount)
        var scratch = Chaikin.Scratch()
        var source: [PlanePoint] = []
        var sinceCheck = 0
        for p in 0..<trace.pieceCount {
            guard !trace.isRemoved[p], only?[p] ?? true else {
                pieces.append([])
                continue
            }
            pieces.append(
                Self.smooth(
                    trace, piece: p, iterations: Int(iterations[p]), source: &source,
                    scratch: &scratch))
            sinceCheck += trace.range(p).count << Int(iterations[p])
            if sinceCheck > 1 << 16 {
                sinceCheck = 0
                try control.checkCancellation()
            }
        }
    }

    /// Every level of `traces` smoothed with its pieces' `passes`, levels
    /// on every core.
    package static func all(_ traces: [LevelTrace], passes: [[UInt8]], control: ComputeControl) throws
        -> [SmoothedLevel]
    {
        try Parallel.map(traces.count, control: control) { l in
            try SmoothedLevel(trace: traces[l], iterations: passes[l], control: control)
        }
    }

    /// The vertex count of piece `p`.
    @inline(__always) package func count(_ p: Int) -> Int { pieces[p].count }

    private static func smooth(
        _ trace: LevelTrace, piece p: Int, iterations: Int, source: inout [PlanePoint],
        scratch: inout Chaikin.Scratch
    ) -> [PlanePoint] {
        let range = trace.range(p)
        source.removeAll(keepingCapacity: true)
        trace.vertices.forEachPoint(range) { _, point in source.append(point) }
        return source.withUnsafeBufferPointer {
            Chaikin.smoothed($0, closed: !trace.isChain[p], iterations: iterations, scratch: &scratch)
        }
    }
}
