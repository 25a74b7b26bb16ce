import Foundation
import HeatMapCore
import HeatMapDensity

/// Simplifies layers of polygons (one layer per band or level) so that
/// boundaries they share stay shared and every layer stays valid.
///
/// Rings are cut into arcs at their junctions: vertices where rings meet
/// that do not continue alike (three or more rings, rings touching, a ring
/// touching itself). An arc met twice (the boundary between two bands, once
/// each way) is simplified once, by Douglas–Peucker, and both rings take the
/// same result. Then each layer is checked exactly (``RingContactCheck``);
/// the rings at fault, and rings that simplification collapsed, get their
/// arcs back as they were, until every layer is valid — the input was, so
/// this ends. About O(n log n) in vertices.
struct ArcSimplifier {
    /// One ring of the input: layer, polygon, ring (0 the exterior, k hole k).
    private struct RingRef {
        package var layer: Int32, polygon: Int32, ring: Int32
    }

    /// One use of an arc by a ring.
    private struct ArcUse {
        package var arc: Int32
        package var reversed: Bool
    }

    /// Where a vertex was first seen, and whether it is a junction.
    private struct Seen {
        package var ring: Int32
        package var index: Int32
        package var count: Int32
        var junction: Bool
    }

    private struct ArcKey: Hashable {
        package var first: PlanePoint, second: PlanePoint
    }

    package let layers: [[PlanePolygon]]
    package let tolerance: Double
    /// The longest segment simplification may make.
    package let maximumSegment: Double
    /// The projection output is unprojected with: a geographic one is
    /// checked in longitude/latitude too, where straight lines are not the
    /// plane's and rings that came close may cross.
    package let projection: PlaneProjection?
    package let control: ComputeControl

    /// The simplified layers, polygon for polygon (rings may lose vertices,
    /// never their place). A tolerance ≤ 0 or not finite gives the input.
    package func run() throws -> [[PlanePolygon]] {
        guard tolerance > 0, tolerance.isFinite else { return layers }
        var refs: [RingRef] = []
        for (l, layer) in layers.enumerated() {
            for (p, polygon) in layer.enumerated() {
                for r in 0...polygon.holes.count {
                    refs.append(RingRef(layer: Int32(l), polygon: Int32(p), ring: Int32(r)))
                }
            }
        }
        func ring(_ k: Int) -> [PlanePoint] {
            let ref = refs[k]
            let polygon = layers[Int(ref.layer)][Int(ref.polygon)]
            return ref.ring == 0 ? polygon.exterior : polygon.holes[Int(ref.ring) - 1]
        }

        // Junctions.
        var seen: [PlanePoint: Seen] = [:]
        // Shared boundaries hold most positions twice.
        seen.reserveCapacity(refs.indices.reduce(0) { $0 + ring($1).count } / 2 + 16)
        for k in refs.indices {
            if k % 4096 == 0 { try control.checkCancellation() }
            let points = ring(k)
            let n = points.count
            for i in 0..<n {
                let v = points[i]
                guard let at = seen.index(forKey: v) else {
                    seen[v] = Seen(ring: Int32(k), index: Int32(i), count: 1, junction: false)
                    continue
                }
                var s = seen.values[at]
                s.count += 1
                if s.count > 2 || Int(s.ring) == k {
                    s.junction = true
                } else {
                    let other = ring(Int(s.ring))
                    let m = other.count, j = Int(s.index)
                    let a = (points[(i + n - 1) % n], points[(i + 1) % n])
                    let b = (other[(j + m - 1) % m], other[(j + 1) % m])
                    if !((a.0 == b.0 && a.1 == b.1) || (a.0 == b.1 && a.1 == b.0)) { s.junction = true }
                }
                seen.values[at] = s
            }
        }

        // Arcs, each stored once in its canonical direction.
        var arcIDs: [ArcKey: Int32] = [:]
        var arcs: [[PlanePoint]] = []
        var uses: [[ArcUse]] = []
        uses.reserveCapacity(refs.count)
        for k in refs.indices {
            if k % 4096 == 0 { try control.checkCancellation() }
            let points = ring(k)
            let n = points.count
            guard n >= 3 else { uses.append([]); continue }
            var junctions: [Int] = []
            for i in 0..<n where seen[points[i]]?.junction == true { junctions.append(i) }
            var pieces: [[PlanePoint]] = []
            if junctions.isEmpty {
                // A closed arc from the least vertex (the key below picks the way round).
                var s = 0
                for i in 1..<n where less(points[i], points[s]) { s = i }
                pieces.append((0...n).map { points[(s + $0) % n] })
            } else {
                for (q, j) in junctions.enumerated() {
                    let next = q + 1 < junctions.count ? junctions[q + 1] : junctions[0] + n
                    pieces.append((j...next).map { points[$0 % n] })
                }
            }
            var mine: [ArcUse] = []
            for piece in pieces {
                let forward = ArcKey(first: piece[0], second: piece[1])
                let backward = ArcKey(first: piece[piece.count - 1], second: piece[piece.count - 2])
                let reversed = less(backward, forward)
                let key = reversed ? backward : forward
                if let id = arcIDs[key] {
                    mine.append(ArcUse(arc: id, reversed: reversed))
                } else {
                    let id = Int32(arcs.count)
                    arcIDs[key] = id
                    arcs.append(reversed ? piece.reversed() : piece)
                    mine.append(ArcUse(arc: id, reversed: reversed))
                }
            }
            uses.append(mine)
        }
        seen = [:]
        arcIDs = [:]

        // Each ring's witness: the start of its first arc, always kept.
        var users = [[Int32]](repeating: [], count: arcs.count)
        var witness = [PlanePoint?](repeating: nil, count: refs.count)
        for (k, mine) in uses.enumerated() {
            for use in mine where !users[Int(use.arc)].contains(Int32(k)) { users[Int(use.arc)].append(Int32(k)) }
            if let first = mine.first {
                let arc = arcs[Int(first.arc)]
                witness[k] = first.reversed ? arc[arc.count - 1] : arc[0]
            } else {
                witness[k] = ring(k).first
            }
        }
        let witnesses = ArcWitnesses(witness)
        // An arc is simplified with less tolerance while it would jump over
        // a ring, and kept whole below a 256th of the tolerance.
        let floor = tolerance / 256
        func simplify(_ a: Int, _ start: Double) -> (points: [PlanePoint], tolerance: Double) {
            let arc = arcs[a]
            let closed = arc.count > 1 && arc[0] == arc[arc.count - 1]
            var t = start
            while t >= floor {
                // A closed arc keeps a triangle at least.
                let kept = arc.withUnsafeBufferPointer {
                    DouglasPeucker.keep($0, tolerance: t, minimum: closed ? 4 : 2, maximumLength: maximumSegment)
                }
                if !witnesses.jumped(arc, kept: kept, users: users[a]) {
                    return (arc.indices.filter { kept[$0] }.map { arc[$0] }, t)
                }
                t /= 4
            }
            return (arc, 0)
        }

        // Each arc simplified once, on every core.
        var simplified = [[PlanePoint]](repeating: [], count: arcs.count)
        var tolerances = [Double](repeating: 0, count: arcs.count)
        let chunks = max(1, min(arcs.count, 16 * Parallel.workerCount))
        try simplified.withUnsafeMutableBufferPointer { slots in
            try tolerances.withUnsafeMutableBufferPointer { used in
                let slots = UncheckedSendable(slots), used = UncheckedSendable(used)
                try Parallel.forEach(chunks) { c in
                    for a in (arcs.count * c / chunks)..<(arcs.count * (c + 1) / chunks) {
                        if a % 1024 == 0 { try control.checkCancellation() }
                        (slots.value[a], used.value[a]) = simplify(a, tolerance)
                    }
                }
            }
        }

        // Rings from arcs; the arcs of faulty rings are simplified again
        // with less tolerance, down to none.
        func build(_ k: Int) -> [PlanePoint] {
            guard !uses[k].isEmpty else { return ring(k) }
            var out: [PlanePoint] = []
            for use in uses[k] {
                let arc = simplified[Int(use.arc)]
                let run = use.reversed ? Array(arc.reversed()) : arc
                out.append(contentsOf: run.dropLast())
            }
            return out
        }
        var result = layers
        let layerRings: [[Int]] = {
            var byLayer = [[Int]](repeating: [], count: layers.count)
            for (k, ref) in refs.enumerated() { byLayer[Int(ref.layer)].append(k) }
            return byLayer
        }()
        var todo = Array(layers.indices)
        while !todo.isEmpty {
            try control.checkCancellation()
            // Layers are built and checked on every core; results are taken in layer order.
            var checked = [(built: [[PlanePoint]], faulty: [Int])](repeating: ([], []), count: todo.count)
            try checked.withUnsafeMutableBufferPointer { slots in
                let slots = UncheckedSendable(slots)
                try Parallel.forEach(todo.count) { t in
                    try control.checkCancellation()
                    let l = todo[t]
                    var built: [[PlanePoint]] = []
                    var faulty: [Int] = []
                    for k in layerRings[l] { built.append(build(k)) }
                    for (k, points) in zip(layerRings[l], built) {
                        let before = PlaneRing.signedArea(ring(k))
                        let after = PlaneRing.signedArea(points)
                        if points.count < 3 || after == 0 || (after > 0) != (before > 0) { faulty.append(k) }
                    }
                    let bad = offenders(built, rings: layerRings[l].map { refs[$0] })
                    faulty.append(contentsOf: bad.sorted().map { layerRings[l][$0] })
                    slots.value[t] = (built, faulty)
                }
            }
            var faulty: [Int] = []
            for (t, l) in todo.enumerated() {
                faulty.append(contentsOf: checked[t].faulty)
                for (k, points) in zip(layerRings[l], checked[t].built) {
                    let ref = refs[k]
                    if ref.ring == 0 {
                        result[l][Int(ref.polygon)].exterior = points
                    } else {
                        result[l][Int(ref.polygon)].holes[Int(ref.ring) - 1] = points
                    }
                }
            }
            var layersAgain = Set<Int>()
            var again = Set<Int32>()
            for k in faulty {
                for use in uses[k] where tolerances[Int(use.arc)] > 0 { again.insert(use.arc) }
            }
            guard !again.isEmpty else { break }
            for a in again.sorted() {
                let t = tolerances[Int(a)] / 4
                (simplified[Int(a)], tolerances[Int(a)]) = t >= floor ? simplify(Int(a), t) : (arcs[Int(a)], 0)
            }
            // A changed arc changes every ring that uses it.
            for a in again { for k in users[Int(a)] { layersAgain.insert(Int(refs[Int(k)].layer)) } }
            todo = layersAgain.sorted()
        }
        return result
    }

    /// The rings (by position in `built`) that make their layer invalid,
    /// judged exactly on a fine integer grid.
    private func offenders(_ built: [[PlanePoint]], rings: [RingRef]) -> Set<Int> {
        var bad = ArcSimplifier.offenders(built, polygons: rings.map { Int($0.polygon) })
        guard let projection, projection.isGeographic else { return bad }
        // Each ring unwrapped in longitude; a hole moved into its exterior's turn.
        let geometry = LonLatGeometry(projection: projection)
        var output: [[PlanePoint]] = []
        var exteriorBox = PlaneBox.empty
        for (points, ref) in zip(built, rings) {
            var ring = geometry.ring(points)
            let box = PlaneRing.bounds(ring)
            if ref.ring == 0 {
                exteriorBox = box
            } else if !box.isEmpty, !exteriorBox.isEmpty {
                let turns = (((exteriorBox.minX + exteriorBox.maxX) / 2 - (box.minX + box.maxX) / 2) / 360).rounded()
                if turns != 0 { ring = ring.map { PlanePoint(x: $0.x + 360 * turns, y: $0.y) } }
            }
            var clean: [PlanePoint] = []
            for p in ring where clean.last != p { clean.append(p) }
            if clean.count > 1, clean.first == clean.last { clean.removeLast() }
            output.append(clean)
        }
        bad.formUnion(ArcSimplifier.offenders(output, polygons: rings.map { Int($0.polygon) }))
        return bad
    }

    /// The rings (by position) that make their layer invalid, judged
    /// exactly on a fine integer grid.
    private static func offenders(_ built: [[PlanePoint]], polygons: [Int]) -> Set<Int> {
        var magnitude = 0.0
        for points in built {
            for p in points where p.x.isFinite && p.y.isFinite { magnitude = max(magnitude, abs(p.x), abs(p.y)) }
        }
        let decimals = FixedRing.decimalsLimit(forMagnitude: magnitude)
        let check = zip(built, polygons).map { points, polygon in
            RingContactCheck.Ring(
                points: points.map {
                    FixedPoint(
                        x: Int64(FixedRing.scaled($0.x.isFinite ? $0.x : 0, decimals).rounded()),
                        y: Int64(FixedRing.scaled($0.y.isFinite ? $0.y : 0, decimals).rounded()))
                }, polygon: polygon)
        }
        return RingContactCheck.offenders(check)
    }

    private func less(_ a: PlanePoint, _ b: PlanePoint) -> Bool {
        a.x != b.x ? a.x < b.x : a.y < b.y
    }

    private func less(_ a: ArcKey, _ b: ArcKey) -> Bool {
        a.first != b.first ? less(a.first, b.first) : less(a.second, b.second)
    }
}
