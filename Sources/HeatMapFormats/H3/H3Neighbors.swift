import Foundation
import HeatMapContouring
import HeatMapCore
import HeatMapDensity

/// Neighbours found on the sphere: the cell across each boundary edge is
/// the one containing the centre mirrored through that edge's midpoint. Cells
/// are convex and nearly regular, so the mirrored centre lies well inside the
/// neighbour (at worst half an edge from its centre), at every resolution,
/// across face edges and around pentagons alike.
enum H3Neighbors {
    static func neighbors(of cell: H3Cell) -> [H3Cell] {
        let h = cell.rawValue
        let res = cell.resolution
        let f = H3Encoding.faceIJK(of: h)
        let c = unit(H3FaceProjection.geo(HexPoint(f.coord), face: f.face, resolution: res, substrate: false))
        let b = H3Boundary.vertices(of: h).map(unit)
        var found = Set<UInt64>()
        for i in b.indices {
            let m = normalized(add(b[i], b[(i + 1) % b.count]))
            // reflect c through m: 2 (c·m) m − c, on the sphere
            let d = 2 * dot(c, m)
            let p = normalized((d * m.0 - c.0, d * m.1 - c.1, d * m.2 - c.2))
            let lat = asin(max(-1, min(1, p.2))), lon = atan2(p.1, p.0)
            if let n = H3Encoding.index(lat: lat, lon: lon, resolution: res), n != h { found.insert(n) }
        }
        return found.sorted().map { H3Cell(unchecked: $0) }
    }

    package static func disk(around cell: H3Cell, k: Int) -> [H3Cell] {
        guard k > 0 else { return k == 0 ? [cell] : [] }
        var seen: Set<H3Cell> = [cell]
        var frontier = [cell]
        for _ in 0..<k {
            var next: [H3Cell] = []
            for c in frontier {
                for n in c.neighbors where seen.insert(n).inserted { next.append(n) }
            }
            frontier = next
        }
        return seen.sorted()
    }

    private typealias V = (Double, Double, Double)
    private static func unit(_ g: (lat: Double, lon: Double)) -> V {
        (cos(g.lat) * cos(g.lon), cos(g.lat) * sin(g.lon), sin(g.lat))
    }
    private static func add(_ a: V, _ b: V) -> V { (a.0 + b.0, a.1 + b.1, a.2 + b.2) }
    private static func dot(_ a: V, _ b: V) -> Double { a.0 * b.0 + a.1 * b.1 + a.2 * b.2 }
    private static func normalized(_ a: V) -> V {
        let n = dot(a, a).squareRoot()
        return (a.0 / n, a.1 / n, a.2 / n)
    }
}
