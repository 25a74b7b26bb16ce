import HeatMapCore
import HeatMapDensity

/// The pieces of one level after smoothing, each in its own array: a
/// closed piece's array is the very ring that the level's polygon, its
/// isoline and the band below use, shared rather than copied.
struct SmoothedLevel: Sendable {
    /// Piece p's vertices (empty for removed pieces; nothing uses them).
    package var pieces: [[PlanePoint]]
    /// Chaikin passes applied to each piece: uniform up to
    /// ``Chaikin/alwaysMade``, vertex by vertex beyond (see ``Chaikin``).
    package var iterations: [UInt8]
    /// For a piece whose vertices were split beyond the uniform passes,
    /// where each vertex of the uniformly cut piece starts in `pieces[p]`
    /// (its count last); empty otherwise.
    package var starts: [[Int32]]

    /// The pieces of `trace` smoothed `iterations[p]` times each; with
    /// `only`, just the pieces it marks (the others are left empty).
    /// `geometry` gives the grid cell that passes beyond the uniform ones
    /// are measured in.
    ///
    /// With `map`, each piece is made through it (the positions it is
    /// given are gone after the call): a level unprojected as it is
    /// smoothed, each piece into one array rather than smoothed into one
    /// and then mapped into another.
    package init(
        trace: LevelTrace, iterations: [UInt8], geometry: GridGeometry, only: [Bool]? = nil,
        control: ComputeControl = .none, map: ((UnsafeBufferPointer<PlanePoint>) -> [PlanePoint])? = nil
    ) throws {
        // The traced positions read in one walk a piece, into one buffer.
        let points = [PlanePoint](unsafeUninitializedCapacity: trace.vertices.count) { points, count in
            for p in 0..<trace.pieceCount {
                let range = trace.range(p)
                guard !trace.isRemoved[p], only?[p] ?? true else {
                    // Never read: zeros, so that the whole buffer is initialized.
                    for v in range { (points.baseAddress! + v).initialize(to: PlanePoint(x: 0, y: 0)) }
                    continue
                }
                trace.vertices.forEachPoint(range) { v, point in (points.baseAddress! + v).initialize(to: point) }
            }
            count = trace.vertices.count
        }
        try control.checkCancellation()
        try self.init(
            trace: trace, points: points, iterations: iterations, geometry: geometry, only: only, control: control,
            map: map)
    }

    /// As ``init(trace:iterations:geometry:only:control:)``, with the
    /// traced positions already read: `points[v]` is vertex v's (only the
    /// pieces smoothed are read).
    init(
        trace: LevelTrace, points: [PlanePoint], iterations: [UInt8], geometry: GridGeometry,
        only: [Bool]? = nil, control: ComputeControl = .none,
        map: ((UnsafeBufferPointer<PlanePoint>) -> [PlanePoint])? = nil
    ) throws {
        self.iterations = iterations
        pieces = []
        pieces.reserveCapacity(trace.pieceCount)
        starts = Array(repeating: [], count: trace.pieceCount)
        var scratch = Chaikin.Scratch()
        var sinceCheck = 0
        let sx = 1 / geometry.dx, sy = 1 / geometry.dy
        for p in 0..<trace.pieceCount {
            guard !trace.isRemoved[p], only?[p] ?? true else {
                pieces.append([])
                continue
            }
            let passes = Int(iterations[p])
            let closed = !trace.isChain[p]
            let uniform = min(passes, Chaikin.alwaysMade)
            var piece: [PlanePoint]
            if let map, passes <= Chaikin.alwaysMade {
                // Mapped straight from the smoothing's buffer (or the traced
                // positions): the plane piece is never an array of its own.
                piece = points.withUnsafeBufferPointer {
                    Chaikin.withSmoothed(
                        UnsafeBufferPointer(rebasing: $0[trace.range(p)]), closed: closed, iterations: uniform,
                        scratch: &scratch, map)
                }
            } else {
                piece = points.withUnsafeBufferPointer {
                    Chaikin.smoothed(
                        UnsafeBufferPointer(rebasing: $0[trace.range(p)]), closed: closed, iterations: uniform,
                        scratch: &scratch)
                }
                if passes > Chaikin.alwaysMade,
                    let split = piece.withUnsafeBufferPointer({
                        Chaikin.refined(
                            $0, closed: closed, cellsPerX: sx, cellsPerY: sy,
                            upTo: passes - Chaikin.alwaysMade)
                    })
                {
                    piece = split.points
                    starts[p] = split.starts
                }
                if let map { piece = piece.withUnsafeBufferPointer(map) }
            }
            sinceCheck += piece.count
            pieces.append(piece)
            if sinceCheck > 1 << 16 {
                sinceCheck = 0
                try control.checkCancellation()
            }
        }
        // A cancel may have cut the last pieces' mapping short.
        if map != nil { try control.checkCancellation() }
    }

    /// Every level of `traces` smoothed with its pieces' `passes`, levels
    /// on every core.
    package static func all(
        _ traces: [LevelTrace], passes: [[UInt8]], geometry: GridGeometry, control: ComputeControl
    ) throws -> [SmoothedLevel] {
        try Parallel.map(traces.count, control: control) { l in
            try SmoothedLevel(trace: traces[l], iterations: passes[l], geometry: geometry, control: control)
        }
    }

    /// The vertex count of piece `p`.
    @inline(__always) package func count(_ p: Int) -> Int { pieces[p].count }

    /// Where vertex `v` of piece `p` after the uniform passes (of `uniform`
    /// vertices) starts in the smoothed piece; `v` may be one turn below 0
    /// or above the end of a closed piece, and gives an index as far out.
    @inline(__always) package func index(of v: Int, piece p: Int, uniform: Int) -> Int {
        let map = starts[p]
        guard !map.isEmpty else { return v }
        let total = Int(map[uniform])
        if v < 0 { return Int(map[v + uniform]) - total }
        if v >= uniform { return Int(map[v - uniform]) + total }
        return Int(map[v])
    }
}
