/// The pieces of one level after smoothing, laid out like ``LevelTrace``:
/// piece p's vertices are `pieceStart[p] ..< pieceStart[p + 1]`.
struct SmoothedLevel: Sendable {
    var xs: [Double]
    var ys: [Double]
    var pieceStart: [Int32]
    /// Chaikin passes applied to each piece.
    var iterations: [UInt8]

    /// The unsmoothed pieces of `trace`.
    init(unsmoothed trace: LevelTrace) {
        xs = trace.xs
        ys = trace.ys
        pieceStart = trace.pieceStart
        iterations = [UInt8](repeating: 0, count: trace.pieceCount)
    }

    /// The pieces of `trace` smoothed `iterations[p]` times each (removed
    /// pieces are kept unsmoothed; nothing uses them).
    ///
    /// With `previous` and `changed`, pieces not changed are copied from
    /// `previous` instead of being smoothed again.
    init(trace: LevelTrace, iterations: [UInt8], previous: SmoothedLevel? = nil, changed: [Bool]? = nil,
         control: ComputeControl = .none) throws {
        var xs: [Double] = [], ys: [Double] = []
        var starts: [Int32] = [0]
        starts.reserveCapacity(trace.pieceCount + 1)
        var sinceCheck = 0
        for p in 0..<trace.pieceCount {
            sinceCheck += trace.range(p).count << Int(iterations[p])
            if sinceCheck > 65_536 {
                sinceCheck = 0
                try control.checkCancellation()
            }
            if let previous, let changed, !changed[p] {
                let range = previous.range(p)
                xs.append(contentsOf: previous.xs[range])
                ys.append(contentsOf: previous.ys[range])
            } else {
                let range = trace.range(p)
                let k = trace.isRemoved[p] ? 0 : Int(iterations[p])
                Chaikin.smooth(xs: trace.xs, ys: trace.ys, range: range, closed: !trace.isChain[p], iterations: k,
                               intoX: &xs, intoY: &ys)
            }
            starts.append(Int32(xs.count))
        }
        self.xs = xs
        self.ys = ys
        self.pieceStart = starts
        self.iterations = iterations
    }

    /// The vertex range of piece `p`.
    @inline(__always) func range(_ p: Int) -> Range<Int> { Int(pieceStart[p])..<Int(pieceStart[p + 1]) }

    /// The point at vertex index `i`.
    @inline(__always) func point(_ i: Int) -> PlanePoint { PlanePoint(x: xs[i], y: ys[i]) }
}
