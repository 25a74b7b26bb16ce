import Foundation
import HeatMapContouring
import HeatMapCore
import HeatMapDensity

/// Cuts polylines to a box (Liang–Barsky per segment), keeping the parts inside.
enum LineClipper {
    /// The pieces of `line` inside `box`; consecutive inside segments stay
    /// one polyline. O(points).
    package static func clip(_ line: [PlanePoint], to box: PlaneBox) -> [[PlanePoint]] {
        var pieces: [[PlanePoint]] = []
        var current: [PlanePoint] = []
        for (a, b) in zip(line, line.dropFirst()) {
            guard let (p, q) = clipSegment(a, b, box) else {
                if current.count > 1 { pieces.append(current) }
                current = []
                continue
            }
            if let last = current.last, last == p {
                current.append(q)
            } else {
                if current.count > 1 { pieces.append(current) }
                current = [p, q]
            }
            // A segment that leaves the box ends the piece.
            if q != b {
                pieces.append(current)
                current = []
            }
        }
        if current.count > 1 { pieces.append(current) }
        return pieces
    }

    /// The part of segment a–b inside the box, or nil.
    static func clipSegment(_ a: PlanePoint, _ b: PlanePoint, _ box: PlaneBox) -> (PlanePoint, PlanePoint)? {
        let dx = b.x - a.x, dy = b.y - a.y
        var t0 = 0.0, t1 = 1.0
        for (p, q) in [(-dx, a.x - box.minX), (dx, box.maxX - a.x), (-dy, a.y - box.minY), (dy, box.maxY - a.y)] {
            if p == 0 {
                if q < 0 { return nil }
            } else {
                let r = q / p
                if p < 0 {
                    if r > t1 { return nil }; if r > t0 { t0 = r }
                } else {
                    if r < t0 { return nil }; if r < t1 { t1 = r }
                }
            }
        }
        let start = t0 == 0 ? a : PlanePoint(x: a.x + t0 * dx, y: a.y + t0 * dy)
        let end = t1 == 1 ? b : PlanePoint(x: a.x + t1 * dx, y: a.y + t1 * dy)
        return (start, end)
    }
}
