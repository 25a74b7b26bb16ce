import HeatMapCore
import HeatMapDensity

/// Turns the shared pieces of one band — or one level — into polygons.
///
/// Band i (t_i ≤ v < t_{i+1}) is bounded by level i's pieces as they are
/// and level i + 1's pieces reversed; a level is the band with no upper
/// level. Its rings are:
/// - closed pieces of the lower level (exteriors counter-clockwise, holes
///   clockwise; a dip inside the level is a hole of that level);
/// - closed pieces of the upper level, reversed (its exteriors become the
///   band's holes, its holes the band's islands);
/// - frame-closed rings (``FrameWalk``), always exteriors; or the whole
///   frame when every boundary node is in the band.
///
/// Nesting without point-in-polygon tests: along the line of an interior
/// grid row, consecutive crossings bound intervals that lie wholly inside or
/// outside the band (a node in the interval says which); both ends of an
/// inside interval are on rings of the same polygon. Joining those rings
/// (union–find) over every row gives each polygon's rings as one set with
/// exactly one exterior — each hole lands in the smallest exterior that
/// contains it. Cost: O(crossings on rows + rings) after the walk.
struct BandAssembler {
    package let geometry: GridGeometry
    package let frame: GridFrame
    /// The grid nodes' bands, and the index of the lower level among them.
    package let bands: NodeBands
    package let level: Int
    package let lower: LevelTrace
    let lowerSmooth: SmoothedLevel
    package let upper: LevelTrace?
    let upperSmooth: SmoothedLevel?
    package let control: ComputeControl
    /// What the smoothed pieces' positions went through before they were
    /// handed over (an unprojection, for a writer that unprojects each
    /// level once for the two bands that share it), applied to the frame's
    /// corners too; nil when they are plane positions.
    var mapPosition: ((PlanePoint) -> PlanePoint)? = nil

    private enum Source {
        case frame([FramePart])
        case wholeFrame
        case lowerPiece(Int)
        case upperPiece(Int)
    }

    /// The band's polygons, and all its rings (the isolines, for a level).
    /// With `polygons` false the rings are not nested and no polygon is made.
    package func assemble(polygons wanted: Bool = true) throws -> (polygons: [PlanePolygon], rings: [[PlanePoint]]) {
        // Plane positions: a hole is always placed.
        try assemble(polygons: wanted, placingByGeometry: true)!
    }

    /// The band's polygons from pieces whose positions went through
    /// ``mapPosition``; nil in the rare case where a hole has to be placed
    /// by geometry (``adopt(_:rings:exterior:)``), which needs the plane
    /// positions: the caller assembles those instead.
    func mappedPolygons() throws -> [PlanePolygon]? {
        try assemble(polygons: true, placingByGeometry: false)?.polygons
    }

    private func assemble(polygons wanted: Bool, placingByGeometry: Bool) throws
        -> (polygons: [PlanePolygon], rings: [[PlanePoint]])?
    {
        let walk = FrameWalk(frame: frame, geometry: geometry, bands: bands)
        var sources: [Source] = []
        var lowerRing = [Int32](repeating: -1, count: lower.pieceCount)
        var upperRing = [Int32](repeating: -1, count: upper?.pieceCount ?? 0)
        var owner = [Int32](repeating: -1, count: frame.count)

        // Frame-closed rings, and which ring owns each boundary node.
        let frameRings = walk.rings(lower: lower, upper: upper)
        for parts in frameRings {
            let id = Int32(sources.count)
            sources.append(.frame(parts))
            for (i, part) in parts.enumerated() {
                if part.upper { upperRing[Int(part.piece)] = id } else { lowerRing[Int(part.piece)] = id }
                let end = FrameWalk.keys(of: part, lower: lower, upper: upper).end
                let next = FrameWalk.keys(of: parts[(i + 1) % parts.count], lower: lower, upper: upper).start
                let (first, count) = walk.nodesPassed(from: end, to: next)
                for s in 0..<count { owner[(first + s) % frame.count] = id }
            }
        }
        if frameRings.isEmpty && lower.frameInside && !(upper?.frameInside ?? false) {
            let id = Int32(sources.count)
            sources.append(.wholeFrame)
            for j in 0..<frame.count { owner[j] = id }
        }
        for p in 0..<lower.pieceCount where !lower.isChain[p] && !lower.isRemoved[p] {
            lowerRing[p] = Int32(sources.count)
            sources.append(.lowerPiece(p))
        }
        if let upper {
            for p in 0..<upper.pieceCount where !upper.isChain[p] && !upper.isRemoved[p] {
                upperRing[p] = Int32(sources.count)
                sources.append(.upperPiece(p))
            }
        }
        guard !sources.isEmpty else { return ([], []) }

        var rings: [[PlanePoint]] = []
        rings.reserveCapacity(sources.count)
        var sinceCheck = 0
        for source in sources {
            rings.append(points(of: source, walk: walk))
            sinceCheck += rings[rings.count - 1].count
            if sinceCheck > 65_536 {
                sinceCheck = 0
                try control.checkCancellation()
            }
        }
        guard wanted else { return ([], rings.filter { $0.count >= 3 }) }
        let exterior = sources.map { source -> Bool in
            switch source {
            case .frame, .wholeFrame: return true
            case .lowerPiece(let p): return lower.area[p] > 0
            case .upperPiece(let p): return upper!.area[p] < 0
            }
        }
        var sets = UnionFind(count: sources.count)
        try joinAlongRows(&sets, lowerRing: lowerRing, upperRing: upperRing, owner: owner)

        // One exterior per set; holes follow it.
        var exteriorOf = [Int](repeating: -1, count: sources.count)
        var ambiguous = [Bool](repeating: false, count: sources.count)
        for g in 0..<sources.count where exterior[g] {
            let root = sets.find(g)
            if exteriorOf[root] == -1 { exteriorOf[root] = g } else { ambiguous[root] = true }
        }
        var holes = [[Int]](repeating: [], count: sources.count)
        var orphans: [Int] = []
        for g in 0..<sources.count where !exterior[g] {
            let root = sets.find(g)
            if exteriorOf[root] >= 0 && !ambiguous[root] {
                holes[exteriorOf[root]].append(g)
            } else {
                orphans.append(g)
            }
        }
        if !orphans.isEmpty {
            guard placingByGeometry else { return nil }
            for (hole, shell) in Self.adopt(orphans, rings: rings, exterior: exterior) { holes[shell].append(hole) }
        }
        var polygons: [PlanePolygon] = []
        for g in 0..<sources.count where exterior[g] && rings[g].count >= 3 {
            polygons.append(
                PlanePolygon(exterior: rings[g], holes: holes[g].map { rings[$0] }.filter { $0.count >= 3 }))
        }
        return (polygons, rings.filter { $0.count >= 3 })
    }

    /// Joins rings whose crossings bound one inside interval of a row.
    private func joinAlongRows(_ sets: inout UnionFind, lowerRing: [Int32], upperRing: [Int32], owner: [Int32]) throws {
        let columns = geometry.columns, rows = geometry.rows
        let level = level, isLevel = upper == nil
        @inline(__always) func inside(_ node: Int) -> Bool { bands.isInside(node, lower: level, isLevel: isLevel) }
        // Local copies: no optional unwrapping or struct projection in the loop.
        let lowerEdges = lower.hEdges, upperEdges = upper?.hEdges ?? []
        let lowerPieces = lower.hPieces, upperPieces = upper?.hPieces ?? []
        var i = 0, j = 0
        for r in 1..<max(1, rows - 1) {
            if r & 255 == 0 { try control.checkCancellation() }
            let rowEnd = Int32((r + 1) * (columns - 1))
            let rowStart = Int32(r * (columns - 1))
            while i < lowerEdges.count && lowerEdges[i] < rowStart { i += 1 }
            while j < upperEdges.count && upperEdges[j] < rowStart { j += 1 }
            let base = r * columns
            var previous = inside(base) ? Int(owner[frame.leftNode(row: r)]) : -1
            var lastColumn = -1
            while (i < lowerEdges.count && lowerEdges[i] < rowEnd) || (j < upperEdges.count && upperEdges[j] < rowEnd) {
                let le = i < lowerEdges.count && lowerEdges[i] < rowEnd ? lowerEdges[i] : Int32.max
                let ue = j < upperEdges.count && upperEdges[j] < rowEnd ? upperEdges[j] : Int32.max
                let takeUpper: Bool
                if ue < le {
                    takeUpper = true
                } else if le < ue {
                    takeUpper = false
                } else {
                    // Both levels cross this edge: the upper one nearer the higher node.
                    let c = Int(le - rowStart)
                    takeUpper = bands[base + c] > bands[base + c + 1]
                }
                let edge = takeUpper ? ue : le
                let ring = takeUpper ? Int(upperRing[Int(upperPieces[j])]) : Int(lowerRing[Int(lowerPieces[i])])
                if takeUpper { j += 1 } else { i += 1 }
                let c = Int(edge - rowStart)
                // The interval before this crossing: between two crossings of
                // one edge it is in the band; otherwise its last node says.
                let inBand = lastColumn == c ? true : (lastColumn < 0 ? inside(base) : inside(base + lastColumn + 1))
                if inBand && previous >= 0 && ring >= 0 { sets.union(previous, ring) }
                previous = ring
                lastColumn = c
            }
            let tailInside = lastColumn < 0 ? inside(base) : inside(base + lastColumn + 1)
            let right = Int(owner[frame.rightNode(row: r)])
            if tailInside && previous >= 0 && right >= 0 { sets.union(previous, right) }
        }
    }

    /// The vertices of a ring source, oriented so the band lies on the left.
    /// A lower closed piece is the smoothed piece itself (shared, not copied).
    private func points(of source: Source, walk: FrameWalk) -> [PlanePoint] {
        switch source {
        case .wholeFrame:
            let (a, b, c, d) = frame.corners
            return Self.removingRepeats([a, b, c, d].map { position(ofPerimeterNode: $0, walk) })
        case .lowerPiece(let p):
            return Self.removingRepeats(lowerSmooth.pieces[p])
        case .upperPiece(let p):
            return Self.removingRepeats(Array(upperSmooth!.pieces[p].reversed()))
        case .frame(let parts):
            var count = 0
            for part in parts { count += (part.upper ? upperSmooth! : lowerSmooth).count(Int(part.piece)) + 4 }
            var out: [PlanePoint] = []
            out.reserveCapacity(count)
            for (i, part) in parts.enumerated() {
                let piece = (part.upper ? upperSmooth! : lowerSmooth).pieces[Int(part.piece)]
                if part.upper { out.append(contentsOf: piece.reversed()) } else { out.append(contentsOf: piece) }
                let end = FrameWalk.keys(of: part, lower: lower, upper: upper).end
                let next = FrameWalk.keys(of: parts[(i + 1) % parts.count], lower: lower, upper: upper).start
                for j in walk.cornersPassed(from: end, to: next) { out.append(position(ofPerimeterNode: j, walk)) }
            }
            return Self.removingRepeats(out)
        }
    }

    /// A frame corner's position, mapped as the pieces' positions were.
    private func position(ofPerimeterNode j: Int, _ walk: FrameWalk) -> PlanePoint {
        let p = walk.position(ofPerimeterNode: j)
        return mapPosition?(p) ?? p
    }

    /// `ring` without consecutive repeated vertices (last against first too).
    static func removingRepeats(_ ring: [PlanePoint]) -> [PlanePoint] {
        // Repeats are rare (only two levels meeting at one point by rounding).
        var clean = ring.count < 2 || ring.first != ring.last
        if clean {
            for i in 1..<max(ring.count, 1) where ring[i] == ring[i - 1] { clean = false; break }
        }
        if clean { return ring }
        var out: [PlanePoint] = []
        out.reserveCapacity(ring.count)
        for p in ring where out.last != p { out.append(p) }
        while out.count > 1 && out.first == out.last { out.removeLast() }
        return out
    }

    /// Fallback for holes whose set had no single exterior (only after
    /// rounding trouble): the smallest exterior whose box holds the hole's
    /// box and which holds one of its vertices. O(holes × candidates × n).
    private static func adopt(_ orphans: [Int], rings: [[PlanePoint]], exterior: [Bool]) -> [(Int, Int)] {
        func box(_ ring: [PlanePoint]) -> PlaneBox {
            var b = PlaneBox.empty
            for p in ring { b.formUnion(p) }
            return b
        }
        let shells = (0..<rings.count).filter { exterior[$0] }
            .map { (index: $0, area: abs(PlaneRing.signedArea(rings[$0])), box: box(rings[$0])) }
            .sorted { $0.area < $1.area }
        var out: [(Int, Int)] = []
        for hole in orphans {
            let hb = box(rings[hole])
            guard let probe = rings[hole].first else { continue }
            for shell in shells
            where shell.box.contains(PlanePoint(x: hb.minX, y: hb.minY))
                && shell.box.contains(PlanePoint(x: hb.maxX, y: hb.maxY))
            {
                if PlaneRing.locate(probe, in: rings[shell.index]) > 0 {
                    out.append((hole, shell.index))
                    break
                }
            }
        }
        return out
    }
}
