import Foundation
import Testing

@testable import HeatMapContouring
@testable import HeatMapCore
@testable import HeatMapDensity
@testable import HeatMapFormats

/// Reading GeoJSON back and judging it with checks written apart from the
/// writer's own (brute force over all segment pairs, exact on the decimal grid).
enum GeoJSONRead {
    static func collection(_ text: String) throws -> [String: Any] {
        let object = try JSONSerialization.jsonObject(with: Data(text.utf8))
        return try #require(object as? [String: Any])
    }

    static func features(_ text: String) throws -> [[String: Any]] {
        try #require(try collection(text)["features"] as? [[String: Any]])
    }

    /// Polygons of a Polygon or MultiPolygon geometry: polygon → ring → [x, y].
    static func polygons(_ feature: [String: Any]) throws -> [[[[Double]]]] {
        let geometry = try #require(feature["geometry"] as? [String: Any])
        let type = try #require(geometry["type"] as? String)
        let coordinates = geometry["coordinates"]
        if type == "Polygon" { return [try #require(coordinates as? [[[Double]]])] }
        #expect(type == "MultiPolygon")
        return try #require(coordinates as? [[[[Double]]]])
    }

    static func lines(_ feature: [String: Any]) throws -> [[[Double]]] {
        let geometry = try #require(feature["geometry"] as? [String: Any])
        let type = try #require(geometry["type"] as? String)
        if type == "LineString" { return [try #require(geometry["coordinates"] as? [[Double]])] }
        #expect(type == "MultiLineString")
        return try #require(geometry["coordinates"] as? [[[Double]]])
    }

    static func signedArea(_ ring: [[Double]]) -> Double {
        var s = 0.0
        for k in 0..<(ring.count - 1) { s += ring[k][0] * ring[k + 1][1] - ring[k + 1][0] * ring[k][1] }
        return s / 2
    }

    /// What is wrong with a polygon by the OGC rules (stricter in one way:
    /// rings of the polygon may not touch at all). Empty when valid.
    static func problems(_ polygon: [[[Double]]], decimals: Int = 13) -> [String] {
        var out: [String] = []
        let scale = pow(10, Double(decimals))
        let rings: [[(Int64, Int64)]] = polygon.map { ring in
            ring.map { (Int64(($0[0] * scale).rounded()), Int64(($0[1] * scale).rounded())) }
        }
        for (r, ring) in rings.enumerated() {
            if ring.count < 4 { out.append("ring \(r) has \(ring.count) positions") }
            if ring.first! != ring.last! { out.append("ring \(r) is not closed") }
            for k in 0..<(ring.count - 1) where ring[k] == ring[k + 1] { out.append("ring \(r) repeats position \(k)") }
            let area = signedArea(polygon[r])
            if r == 0 && !(area > 0) { out.append("exterior is not counter-clockwise") }
            if r > 0 && !(area < 0) { out.append("hole \(r) is not clockwise") }
        }
        func orient(_ a: (Int64, Int64), _ b: (Int64, Int64), _ c: (Int64, Int64)) -> Int {
            let v = Int128(b.0 - a.0) * Int128(c.1 - a.1) - Int128(b.1 - a.1) * Int128(c.0 - a.0)
            return v.signum() > 0 ? 1 : (v == 0 ? 0 : -1)
        }
        func on(_ p: (Int64, Int64), _ a: (Int64, Int64), _ b: (Int64, Int64)) -> Bool {
            orient(a, b, p) == 0 && p.0 >= min(a.0, b.0) && p.0 <= max(a.0, b.0) && p.1 >= min(a.1, b.1)
                && p.1 <= max(a.1, b.1)
        }
        func meet(_ a: (Int64, Int64), _ b: (Int64, Int64), _ c: (Int64, Int64), _ d: (Int64, Int64)) -> Bool {
            let o1 = orient(a, b, c), o2 = orient(a, b, d), o3 = orient(c, d, a), o4 = orient(c, d, b)
            if o1 * o2 < 0 && o3 * o4 < 0 { return true }
            return on(c, a, b) || on(d, a, b) || on(a, c, d) || on(b, c, d)
        }
        // Every pair of segments: neighbours in a ring may share only their
        // common vertex; anything else may not meet.
        var segments: [(Int, Int, (Int64, Int64), (Int64, Int64))] = []
        for (r, ring) in rings.enumerated() where ring.count >= 4 {
            for k in 0..<(ring.count - 1) { segments.append((r, k, ring[k], ring[k + 1])) }
        }
        for i in 0..<segments.count {
            for j in (i + 1)..<segments.count {
                let s = segments[i], t = segments[j]
                if s.0 == t.0 {
                    let n = rings[s.0].count - 1
                    if t.1 == s.1 + 1 || (s.1 == 0 && t.1 == n - 1) {
                        // Adjacent: no fold-back.
                        let (a, v, c) = t.1 == s.1 + 1 ? (s.2, s.3, t.3) : (t.2, t.3, s.3)
                        let collinear = orient(a, v, c) == 0
                        let back = Int128(a.0 - v.0) * Int128(c.0 - v.0) + Int128(a.1 - v.1) * Int128(c.1 - v.1) > 0
                        if collinear && back { out.append("ring \(s.0) folds back at \(t.1)") }
                        continue
                    }
                }
                if meet(s.2, s.3, t.2, t.3) { out.append("rings \(s.0)/\(t.0) meet at segments \(s.1)/\(t.1)") }
            }
        }
        // Holes inside the exterior.
        for r in 1..<max(polygon.count, 1) {
            let p = polygon[r][0]
            if !inside(p, polygon[0]) { out.append("hole \(r) is outside the exterior") }
        }
        return out
    }

    static func inside(_ p: [Double], _ ring: [[Double]]) -> Bool {
        var c = false
        for k in 0..<(ring.count - 1) {
            let a = ring[k], b = ring[k + 1]
            if (a[1] > p[1]) != (b[1] > p[1]), p[0] < a[0] + (p[1] - a[1]) * (b[0] - a[0]) / (b[1] - a[1]) {
                c.toggle()
            }
        }
        return c
    }

    /// The features whose rings the exact contact check of the export
    /// (``RingContactCheck``, linear for contour rings, where
    /// ``allProblems(_:geographic:)`` is quadratic) finds at fault, on
    /// the 13-decimal grid that holds every position written.
    static func featuresAtFault(_ text: String) throws -> [Int] {
        try features(text).enumerated().compactMap { n, feature in
            let fixed = try polygons(feature).map { polygon in
                polygon.map { ring in
                    ring.dropLast().map {
                        FixedPoint(x: Int64(($0[0] * 1e13).rounded()), y: Int64(($0[1] * 1e13).rounded()))
                    }
                }
            }
            return RingContactCheck.offenders(RingContactCheck.rings(ofPolygons: fixed)).isEmpty ? nil : n
        }
    }

    /// Problems of every polygon of every feature, and of parts of one feature overlapping.
    static func allProblems(_ text: String, geographic: Bool = true) throws -> [String] {
        var out: [String] = []
        for (n, feature) in try features(text).enumerated() {
            let polygons = try GeoJSONRead.polygons(feature)
            for (k, polygon) in polygons.enumerated() {
                out += problems(polygon).map { "feature \(n) polygon \(k): \($0)" }
                if geographic {
                    for ring in polygon where ring.contains(where: { abs($0[0]) > 180 || abs($0[1]) > 90 }) {
                        out.append("feature \(n) polygon \(k): position out of range")
                    }
                }
            }
        }
        return out
    }
}

/// Plane geometry for the tests.
enum Shapes {
    static func circle(_ cx: Double, _ cy: Double, _ r: Double, _ n: Int = 64, clockwise: Bool = false) -> [PlanePoint]
    {
        let pts = (0..<n).map { k -> PlanePoint in
            let t = 2 * Double.pi * Double(k) / Double(n)
            return PlanePoint(x: cx + r * cos(t), y: cy + r * sin(t))
        }
        return clockwise ? pts.reversed() : pts
    }

    static func rectangle(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double, clockwise: Bool = false)
        -> [PlanePoint]
    {
        let pts = [
            PlanePoint(x: x0, y: y0), PlanePoint(x: x1, y: y0), PlanePoint(x: x1, y: y1), PlanePoint(x: x0, y: y1)
        ]
        return clockwise ? pts.reversed() : pts
    }

    /// Three nested bands around the origin (radii 300, 150, 60 km) and a
    /// small separate dip/peak at (−200 km, 0).
    static func bands(scale: Double = 1000) -> ContourSet {
        let outer = circle(0, 0, 300 * scale, 96), mid = circle(0, 0, 150 * scale, 96),
            inner = circle(0, 0, 60 * scale, 96)
        let small = circle(-200 * scale, 0, 30 * scale, 24)
        return ContourSet(
            thresholds: [0.5, 1, 2],
            levels: [
                [PlanePolygon(exterior: outer)],
                [PlanePolygon(exterior: mid), PlanePolygon(exterior: small)],
                [PlanePolygon(exterior: inner), PlanePolygon(exterior: small)]
            ],
            bands: [
                [PlanePolygon(exterior: outer, holes: [mid.reversed(), small.reversed()])],
                [PlanePolygon(exterior: mid, holes: [inner.reversed()])],
                [PlanePolygon(exterior: inner), PlanePolygon(exterior: small)]
            ],
            isolines: [[outer], [mid, small], [inner, small]])
    }

    /// An equal-area projection centred half a degree west of ±180°, so the
    /// bands above cross it.
    static let fiji = PlaneProjection(kind: .equalArea, centreLatitude: -18, centreLongitude: 179.5)
}
