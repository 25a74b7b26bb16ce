import Foundation
import HeatMapContouring
import HeatMapCore
import HeatMapDensity

/// Cuts continuous [longitude, latitude] geometry at ±180° (and at the
/// poles' parallels), so that every piece has longitudes in [-180, 180] and
/// latitudes in [-90, 90].
///
/// Longitude turns are windows [360k − 180, 360k + 180]: the part of a
/// polygon in window k is clipped out with ``HalfPlaneClipper`` and shifted
/// by −360k. A polygon within one window is only shifted.
enum AntimeridianSplitter {
    /// Beyond this many windows the geometry is nonsense (a polygon circling
    /// the globe many times); it is clamped to the outermost windows.
    static let maximumWindows = 6

    static func windows(_ box: PlaneBox) -> ClosedRange<Int> {
        let lo = Int(((box.minX + 180) / 360).rounded(.down))
        var hi = Int(((box.maxX - 180) / 360).rounded(.up))
        hi = max(hi, lo)
        return lo...min(hi, lo + maximumWindows - 1)
    }

    /// The pieces of a polygon (open rings, exterior counter-clockwise).
    package static func split(_ polygon: PlanePolygon) -> [PlanePolygon] {
        split(polygon, bounds: polygon.bounds)
    }

    /// ``split(_:)`` of a polygon whose ``PlanePolygon/bounds`` are known.
    package static func split(_ polygon: PlanePolygon, bounds box: PlaneBox) -> [PlanePolygon] {
        var out: [PlanePolygon] = []
        split(polygon, bounds: box, into: &out)
        return out
    }

    /// Appends the pieces of ``split(_:bounds:)`` to `out`. A polygon in
    /// window 0 that stays off the poles (nearly every one) goes in as it
    /// is: a field of many small rings makes no array per polygon.
    static func split(_ polygon: PlanePolygon, bounds box: PlaneBox, into out: inout [PlanePolygon]) {
        guard !box.isEmpty, box.minX.isFinite, box.maxX.isFinite else { return }
        if windows(box) == 0...0, !(box.maxY > 90), !(box.minY < -90) {
            out.append(polygon)
            return
        }
        out += pieces(polygon, bounds: box)
    }

    /// The pieces of a polygon that reaches past a window or a pole.
    private static func pieces(_ polygon: PlanePolygon, bounds box: PlaneBox) -> [PlanePolygon] {
        var pieces = [polygon]
        if box.maxY > 90 { pieces = pieces.flatMap { HalfPlaneClipper.clip($0, keeping: .south, of: 90) } }
        if box.minY < -90 { pieces = pieces.flatMap { HalfPlaneClipper.clip($0, keeping: .north, of: -90) } }
        let range = windows(box)
        if range.lowerBound == range.upperBound {
            return shifted(pieces, by: range.lowerBound)
        }
        var out: [PlanePolygon] = []
        for k in range {
            var part = pieces
            if k > range.lowerBound {
                part = part.flatMap { HalfPlaneClipper.clip($0, keeping: .east, of: Double(360 * k - 180)) }
            }
            if k < range.upperBound {
                part = part.flatMap { HalfPlaneClipper.clip($0, keeping: .west, of: Double(360 * k + 180)) }
            }
            out += shifted(part, by: k)
        }
        return out
    }

    private static func shifted(_ polygons: [PlanePolygon], by k: Int) -> [PlanePolygon] {
        guard k != 0 else { return polygons }
        let dx = Double(-360 * k)
        func move(_ r: [PlanePoint]) -> [PlanePoint] { r.map { PlanePoint(x: $0.x + dx, y: $0.y) } }
        return polygons.map { PlanePolygon(exterior: move($0.exterior), holes: $0.holes.map(move)) }
    }

    /// The pieces of a polyline, each within one window and shifted. For a
    /// `closed` line (its last point ends where it began, one turn on), the
    /// piece through its start is kept in one piece.
    package static func split(line points: [PlanePoint], closed: Bool) -> [[PlanePoint]] {
        guard points.count >= 2 else { return [] }
        var box = PlaneBox.empty
        for p in points {
            box.formUnion(PlanePoint(x: p.x, y: min(max(p.y, -90), 90)))
        }
        guard !box.isEmpty, box.minX.isFinite, box.maxX.isFinite else { return [] }
        let clampedY = points.map { PlanePoint(x: $0.x, y: min(max($0.y, -90), 90)) }
        let range = windows(box)
        if range.lowerBound == range.upperBound {
            return shiftedLines([clampedY], by: range.lowerBound)
        }
        var out: [[PlanePoint]] = []
        for k in range {
            let lo = Double(360 * k - 180), hi = Double(360 * k + 180)
            var runs: [[PlanePoint]] = []
            var run: [PlanePoint] = []
            for i in 0..<(clampedY.count - 1) {
                guard let (a, b) = clipSegment(clampedY[i], clampedY[i + 1], lo: lo, hi: hi) else {
                    if run.count >= 2 { runs.append(run) }
                    run = []
                    continue
                }
                if run.last != a {
                    if run.count >= 2 { runs.append(run) }
                    run = [a]
                }
                if b != a { run.append(b) }
            }
            if run.count >= 2 { runs.append(run) }
            // A closed line cut open: its last run may continue into its first.
            if closed, runs.count >= 2, runs[runs.count - 1].last == runs[0].first {
                let tail = runs.removeLast()
                runs[0] = tail + runs[0].dropFirst()
            }
            out += shiftedLines(runs, by: k)
        }
        return out
    }

    /// The part of segment a–b with lo ≤ x ≤ hi, cut points computed from
    /// the end points in a fixed order.
    private static func clipSegment(_ a: PlanePoint, _ b: PlanePoint, lo: Double, hi: Double)
        -> (PlanePoint, PlanePoint)?
    {
        if max(a.x, b.x) < lo || min(a.x, b.x) > hi { return nil }
        var p = a, q = b
        if p.x < lo { p = HalfPlaneClipper.cut(a, b, lo) } else if p.x > hi { p = HalfPlaneClipper.cut(a, b, hi) }
        if q.x < lo { q = HalfPlaneClipper.cut(a, b, lo) } else if q.x > hi { q = HalfPlaneClipper.cut(a, b, hi) }
        return (p, q)
    }

    private static func shiftedLines(_ lines: [[PlanePoint]], by k: Int) -> [[PlanePoint]] {
        guard k != 0 else { return lines }
        let dx = Double(-360 * k)
        return lines.map { $0.map { PlanePoint(x: $0.x + dx, y: $0.y) } }
    }
}
