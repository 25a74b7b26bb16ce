import Foundation

@testable import HeatMapContouring
@testable import HeatMapCore
@testable import HeatMapDensity
@testable import HeatMapFormats

/// Helpers shared by the contour, smoothing, assembly and band suites.
enum ContourFixture {
    /// A planar grid with unit spacing and node (c, r) at (c, r); `rows`
    /// lists rows from the lowest y up.
    static func grid(_ rows: [[Double]], dx: Double = 1, dy: Double = 1, x0: Double = 0, y0: Double = 0) -> DensityGrid
    {
        let geometry = GridGeometry(columns: rows[0].count, rows: rows.count, x0: x0, y0: y0, dx: dx, dy: dy)
        return DensityGrid(
            geometry: geometry, values: rows.flatMap { $0 }, projection: PlaneProjection(kind: .planar),
            radius: 1, estimator: .density, units: "per square unit")
    }

    /// A grid from a function of the node position.
    static func grid(
        columns: Int, rows: Int, dx: Double = 1, dy: Double = 1, x0: Double = 0, y0: Double = 0,
        _ f: (Double, Double) -> Double
    ) -> DensityGrid {
        let geometry = GridGeometry(columns: columns, rows: rows, x0: x0, y0: y0, dx: dx, dy: dy)
        var values: [Double] = []
        for r in 0..<rows { for c in 0..<columns { values.append(f(x0 + Double(c) * dx, y0 + Double(r) * dy)) } }
        return DensityGrid(
            geometry: geometry, values: values, projection: PlaneProjection(kind: .planar),
            radius: 1, estimator: .density, units: "per square unit")
    }

    /// A seeded random smooth-ish field: a sum of Gaussian bumps and dips.
    static func randomGrid(seed: UInt64, columns: Int, rows: Int, bumps: Int = 12) -> DensityGrid {
        var rng = SplitMix(seed: seed)
        let centres = (0..<bumps).map { _ in
            (
                x: rng.unit() * Double(columns - 1), y: rng.unit() * Double(rows - 1),
                s: 0.8 + rng.unit() * 4, w: rng.unit() * 2 - 0.6
            )
        }
        return grid(columns: columns, rows: rows) { x, y in
            centres.reduce(0) { acc, b in
                let d2 = (x - b.x) * (x - b.x) + (y - b.y) * (y - b.y)
                return acc + b.w * exp(-d2 / (2 * b.s * b.s))
            }
        }
    }

    static func area(_ polygons: [PlanePolygon]) -> Double { polygons.reduce(0) { $0 + $1.area } }
}

/// An independent validity check of polygons by OGC rules, written without
/// the library's code: closed simple rings, orientation, no repeated
/// vertices, no two rings meeting, holes inside their exterior and outside
/// each other. O(n²) in the polygon's vertices — for test-sized inputs.
enum PolygonValidator {
    /// Problems found (empty when valid).
    static func problems(_ polygon: PlanePolygon) -> [String] {
        var out: [String] = []
        let rings = [polygon.exterior] + polygon.holes
        for (k, ring) in rings.enumerated() {
            if ring.count < 3 { out.append("ring \(k) has \(ring.count) vertices") }
            for i in 0..<ring.count where ring[i] == ring[(i + 1) % ring.count] {
                out.append("ring \(k) repeats vertex \(i)")
            }
            let a = signedArea(ring)
            if k == 0 && !(a > 0) { out.append("exterior not counter-clockwise (area \(a))") }
            if k > 0 && !(a < 0) { out.append("hole \(k) not clockwise (area \(a))") }
        }
        // Segments of all rings: no meeting except neighbours in one ring.
        var segments: [(ring: Int, index: Int, a: PlanePoint, b: PlanePoint)] = []
        for (k, ring) in rings.enumerated() {
            for i in 0..<ring.count { segments.append((k, i, ring[i], ring[(i + 1) % ring.count])) }
        }
        let sorted = segments.sorted { min($0.a.x, $0.b.x) < min($1.a.x, $1.b.x) }
        outer: for i in 0..<sorted.count {
            let s = sorted[i]
            let sMax = max(s.a.x, s.b.x)
            for j in (i + 1)..<sorted.count {
                let t = sorted[j]
                if min(t.a.x, t.b.x) > sMax { break }
                if s.ring == t.ring {
                    let n = rings[s.ring].count
                    let d = abs(s.index - t.index)
                    if d == 1 || d == n - 1 {
                        // Neighbours share one vertex; they must not fold back.
                        if collinearOverlap(s.a, s.b, t.a, t.b) {
                            out.append("ring \(s.ring) folds back at \(s.index)/\(t.index)")
                            if out.count > 20 { break outer }
                        }
                        continue
                    }
                }
                if meet(s.a, s.b, t.a, t.b) {
                    out.append("ring \(s.ring) segment \(s.index) meets ring \(t.ring) segment \(t.index)")
                    if out.count > 20 { break outer }
                }
            }
        }
        for (k, hole) in polygon.holes.enumerated() {
            guard let p = hole.first else { continue }
            if locate(p, polygon.exterior) <= 0 { out.append("hole \(k + 1) is not inside the exterior") }
            for (m, other) in polygon.holes.enumerated() where m != k {
                if locate(p, other) > 0 { out.append("hole \(k + 1) is inside hole \(m + 1)") }
            }
        }
        return out
    }

    static func signedArea(_ ring: [PlanePoint]) -> Double {
        guard ring.count >= 3 else { return 0 }
        var s = 0.0
        let o = ring[0]
        for i in 0..<ring.count {
            let p = ring[i], q = ring[(i + 1) % ring.count]
            s += (p.x - o.x) * (q.y - o.y) - (q.x - o.x) * (p.y - o.y)
        }
        return s / 2
    }

    static func orient(_ a: PlanePoint, _ b: PlanePoint, _ c: PlanePoint) -> Double {
        (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x)
    }

    static func onSegment(_ p: PlanePoint, _ a: PlanePoint, _ b: PlanePoint) -> Bool {
        orient(a, b, p) == 0 && p.x >= min(a.x, b.x) && p.x <= max(a.x, b.x) && p.y >= min(a.y, b.y)
            && p.y <= max(a.y, b.y)
    }

    static func meet(_ a: PlanePoint, _ b: PlanePoint, _ c: PlanePoint, _ d: PlanePoint) -> Bool {
        let d1 = orient(c, d, a), d2 = orient(c, d, b), d3 = orient(a, b, c), d4 = orient(a, b, d)
        if ((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0)) { return true }
        return onSegment(a, c, d) || onSegment(b, c, d) || onSegment(c, a, b) || onSegment(d, a, b)
    }

    static func collinearOverlap(_ a: PlanePoint, _ b: PlanePoint, _ c: PlanePoint, _ d: PlanePoint) -> Bool {
        // Adjacent segments share one end; they overlap if the other end of
        // one lies on the other.
        let shared: PlanePoint
        let (p, q): (PlanePoint, PlanePoint)
        if b == c {
            shared = b; p = a; q = d
        } else if a == d {
            shared = a; p = b; q = c
        } else {
            return meet(a, b, c, d)
        }
        return (onSegment(q, shared, p) && q != shared) || (onSegment(p, shared, q) && p != shared)
    }

    /// 1 inside, 0 on the boundary, −1 outside.
    static func locate(_ p: PlanePoint, _ ring: [PlanePoint]) -> Int {
        var inside = false
        for i in 0..<ring.count {
            let a = ring[i], b = ring[(i + 1) % ring.count]
            if onSegment(p, a, b) { return 0 }
            if (a.y > p.y) != (b.y > p.y) {
                let x = a.x + (p.y - a.y) * (b.x - a.x) / (b.y - a.y)
                if p.x < x { inside.toggle() }
            }
        }
        return inside ? 1 : -1
    }

    /// Whether two polygons of one set overlap in area (a vertex of one
    /// strictly inside the other's filled area, or crossing edges).
    static func overlap(_ p: PlanePolygon, _ q: PlanePolygon) -> Bool {
        func filled(_ pt: PlanePoint, _ poly: PlanePolygon) -> Bool {
            locate(pt, poly.exterior) > 0 && poly.holes.allSatisfy { locate(pt, $0) < 0 }
        }
        // Probe points just inside p (centroid of a small triangle at each vertex).
        for ring in [p.exterior] + p.holes {
            for i in 0..<ring.count {
                let a = ring[(i + ring.count - 1) % ring.count], b = ring[i], c = ring[(i + 1) % ring.count]
                let probe = PlanePoint(x: (a.x + b.x + c.x) / 3, y: (a.y + b.y + c.y) / 3)
                if filled(probe, p) && filled(probe, q) { return true }
            }
        }
        return false
    }
}
